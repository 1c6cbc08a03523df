extension EventScheduler {
    /// Runs events up to and including `deadline` from the main actor, letting `@MainActor` work settle
    /// after every event, then sets the clock to `deadline`.
    ///
    /// Swift 6.3.1 has no public way to run the main actor on an executor of our own, so this drives the
    /// simulation *from* the main actor instead: the main thread becomes the simulation's thread (see
    /// ``SimulationExecutor/hostsMainThread``), and after each event the scheduler drains its executor
    /// and then yields to the back of the main actor's queue, which is first in, first out: every
    /// main-actor job queued before the yield (a view model's `Task {}`, a resumed `await`) has run when
    /// it returns. It yields again while that work scheduled a sleep, queued a job or cancelled a timer,
    /// and moves on only once a round changed nothing. Main-actor code that sleeps on the virtual clock
    /// therefore wakes at its virtual instant, in the same order every run.
    ///
    /// ```swift
    /// @MainActor @Test func debouncesTheSearch() async throws {
    ///     let scheduler = EventScheduler()
    ///     let model = SearchViewModel(clock: VirtualClock(scheduler))
    ///     model.queryChanged("caf")
    ///     try await scheduler.runOnMainActor(until: VirtualInstant(offset: .milliseconds(300)))
    ///     #expect(model.results == ["Café Einstein"])
    /// }
    /// ```
    @MainActor
    public func runOnMainActor(until deadline: VirtualInstant) async throws(SchedulerError) {
        try await runOnMainActor(upTo: deadline)
    }

    /// Runs from the main actor, like ``runOnMainActor(until:)``, until no event is pending and no
    /// job is runnable, within ``limits``.
    @MainActor
    public func runOnMainActorUntilIdle() async throws(SchedulerError) {
        try await runOnMainActor(upTo: nil)
    }

    @MainActor
    private func runOnMainActor(upTo deadline: VirtualInstant?) async throws(SchedulerError) {
        executor.hostsMainThread = true
        let previous = executor.beginDraining()
        defer { executor.endDraining(restoring: previous) }
        let startCount = eventCount
        while true {
            await settleMainActor()
            guard let head = headInstant(), deadline.map({ head <= $0.nanoseconds }) ?? true else { break }
            try checkLimits(at: head, startCount: startCount)
            runHead()
        }
        if let deadline { advanceClock(to: deadline) }
    }

    /// Drains the executor and lets queued main-actor work run, until a round of both changes nothing.
    @MainActor
    private func settleMainActor() async {
        while true {
            _ = executor.drain()
            let before = activity
            await Task.yield()
            if activity == before && !executor.hasRunnableWork { return }
        }
    }
}
