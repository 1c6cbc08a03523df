import DeviceSimClock
import Dispatch

extension EventScheduler {
    /// Runs events up to and including `deadline` from the main actor, letting `@MainActor` work settle
    /// after every event, then sets the clock to `deadline`.
    ///
    /// Swift 6.3.1 has no public way to run the main actor on an executor of our own, so this drives the
    /// simulation *from* the main actor instead: the main actor becomes the simulation's thread (see
    /// ``SimulationExecutor/hostsMainActor``), and after each event the scheduler drains its executor
    /// and then yields to the back of the main actor's queue, which is first in, first out: every
    /// main-actor job queued before the yield (a view model's `Task {}`, a resumed `await`) has run when
    /// it returns. It yields again while that work scheduled a sleep, queued a job, cancelled a timer or
    /// sent a job on to the main queue, and moves on only once a round changed nothing. Work that main-actor code sends to the global
    /// executor on the way (`VirtualClock.sleep` called through `any Clock<Duration>` is a nonisolated
    /// async function, so it does) goes to the back of the main queue instead, while any simulation
    /// advances this way (through the runtime's global-enqueue hook, see `DeviceSimRuntimeHooks`), so it
    /// too runs in first-in, first-out order. Main-actor code that sleeps on the virtual clock therefore
    /// wakes at its virtual instant, in the same order every run. Several simulations may advance this
    /// way at once (parallel `@MainActor` tests): each waits only for its own work.
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
        let advance = executor.beginMainActorAdvance()
        defer { advance.end() }
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
    func settleMainActor() async {
        while true {
            _ = executor.drain()
            let before = (activity, executor.runtimeHooks?.mainActorRedirects ?? 0)
            await Self.yieldToTheBackOfTheMainQueue()
            let after = (activity, executor.runtimeHooks?.mainActorRedirects ?? 0)
            if after == before && !executor.hasRunnableWork { return }
        }
    }

    /// Suspends until every main-actor job queued before this call has run.
    @MainActor
    private static func yieldToTheBackOfTheMainQueue() async {
        await withUnsafeContinuation { (continuation: UnsafeContinuation<Void, Never>) in
            DispatchQueue.main.async { continuation.resume() }
        }
    }
}
