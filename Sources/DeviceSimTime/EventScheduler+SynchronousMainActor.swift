import DeviceSimClock

extension EventScheduler {
    /// Whether a synchronous run called now, from the main actor, runs as
    /// ``runSynchronouslyOnMainActor(until:)`` does: the caller is main-actor code, the simulation is
    /// not being drained already (this is not a nested run), it belongs to the main actor (made or driven
    /// there, ``SimulationExecutor/hostsMainActor``), and the runtime hooks can run queued main-actor jobs
    /// early.
    public var runsSynchronouslyOnMainActor: Bool {
        MainQueue.isCurrent && executor.hostsMainActor && !executor.isDrainedAnywhere
            && executor.runtimeHooks?.canRunQueuedMainActorJobs == true
    }

    /// Runs events up to and including `deadline` (nil: until idle, within ``limits``) synchronously,
    /// from the main actor, letting `@MainActor` work settle after every event, as
    /// ``runOnMainActor(until:)`` does: the form a synchronous `advance` takes in a `@MainActor` test.
    ///
    /// The main actor's queued jobs (a view model's `Task {}`s that have not started yet, a resumed
    /// `await`) cannot run while the caller holds the main actor, and a synchronous call does not
    /// suspend: so instead of yielding to the back of the main queue, each round runs the main-actor jobs
    /// queued so far by the calling task, by the tasks whose jobs it ran and by any code on this thread
    /// during the run (the simulation's own tasks, with `withMainSerialExecutor`), at once, in the order they
    /// were queued (through the runtime hooks, see `DeviceSimRuntimeHooks`), until a round changes
    /// nothing. Main-actor work of other tasks (another test's) keeps its place in the main queue.
    /// Check ``runsSynchronouslyOnMainActor`` first.
    ///
    /// ```swift
    /// @MainActor @Test func checksInAfterTheDwell() throws {
    ///     let scheduler = EventScheduler()
    ///     let model = CheckInViewModel(clock: VirtualClock(scheduler))
    ///     model.entered()                        // its Task {} has not started yet
    ///     try scheduler.runSynchronouslyOnMainActor(until: VirtualInstant(offset: .seconds(400)))
    ///     #expect(model.checkIns == 1)
    /// }
    /// ```
    public func runSynchronouslyOnMainActor(until deadline: VirtualInstant?) throws(SchedulerError) {
        let executor = self.executor
        let advance = MainActor.assumeIsolated { UncheckedMainActorAdvance(executor.beginMainActorAdvance()) }
        defer { MainActor.assumeIsolated { advance.value.end() } }
        let startCount = eventCount
        let owners = MainActorJobOwners()
        executor.runtimeHooks?.ownMainActorJobsQueuedOnThisThread(by: owners)
        defer { executor.runtimeHooks?.ownMainActorJobsQueuedOnThisThread(by: nil) }
        while true {
            settleMainActorSynchronously(owners)
            guard let head = headInstant(), deadline.map({ head <= $0.nanoseconds }) ?? true else { break }
            try checkLimits(at: head, startCount: startCount)
            runHead()
        }
        if let deadline { advanceClock(to: deadline) }
    }

    /// Drains the executor and runs the main-actor jobs queued so far, until a round of both changes
    /// nothing (the synchronous form of ``settleMainActor()``).
    private func settleMainActorSynchronously(_ owners: MainActorJobOwners) {
        while true {
            _ = executor.drain()
            let before = (activity, executor.runtimeHooks?.mainActorRedirects ?? 0)
            let ran = executor.runtimeHooks?.runQueuedMainActorJobs(of: owners) ?? 0
            let after = (activity, executor.runtimeHooks?.mainActorRedirects ?? 0)
            if (ran == 0 || after == before) && !executor.hasRunnableWork { return }
        }
    }
}

/// Carries a main-actor advance out of `MainActor.assumeIsolated` (it is begun and ended on the main actor).
private struct UncheckedMainActorAdvance: @unchecked Sendable {
    let value: SimulationExecutor.MainActorAdvance
    init(_ value: SimulationExecutor.MainActorAdvance) { self.value = value }
}
