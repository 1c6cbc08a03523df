extension EventScheduler {
    /// Runs `action` on the simulation's thread at the current instant, then runs what it woke: the
    /// jobs it made runnable and the events it scheduled for now, without moving the clock.
    ///
    /// This is how code outside the simulation (a test between two advances) touches simulated objects
    /// (switches connectivity, answers a prompt, turns a radio off) so that the tasks this wakes stay in
    /// virtual time: while `action` runs, the calling thread is the simulation's, so a resumed task's
    /// job, and any `Task {}` it starts, join the simulation's executor (with
    /// ``SimulationExecutor/capturesGlobalWork`` on) and run here. Called from inside the simulation (a
    /// simulation task, an event, or main-actor code during an advance from the main actor), it just
    /// runs `action`: the advance in progress runs what it woke.
    ///
    /// Main-actor work that `action` wakes (a `@MainActor` view model's task) runs on the main actor at
    /// the caller's next suspension, which for a main-actor test is its next `await` advance.
    ///
    /// ```swift
    /// try scheduler.runNow { connectivity.state = .online }   // the uploader's task runs now, in the simulation
    /// ```
    public func runNow(_ action: () -> Void) throws(SchedulerError) {
        if executor.isDrainingOnThisThread || executor.isInsideAMainActorAdvance {
            action()
            return
        }
        let mark = executor.beginDraining()
        defer { endRunningNow(mark) }
        action()
        try run(until: now)
    }

    private func endRunningNow(_ mark: SimulationExecutor.DrainingMark) {
        // Main-actor work woken now is not stranded: it runs at the caller's next suspension.
        _ = executor.takeStrandedMainActorWakes()
        executor.endDraining(restoring: mark)
    }
}
