extension EventScheduler {
    /// Starts `operation` as a task on this simulation's executor. It and its child tasks (`async let`,
    /// task groups) run only while the scheduler runs, and virtual time waits for them to become idle.
    ///
    /// This is the simulation's `Task {}`: a plain `Task {}` or `Task.detached {}` started from simulated
    /// code does not inherit the executor (Swift 6.3.1 passes executor preference to child tasks only)
    /// and escapes the simulation. A closure isolated to an actor (`{ @MainActor in ... }`) runs on that
    /// actor, as with `Task {}`. The task's own sleeps on a ``VirtualClock`` share one cancellation
    /// handler, installed here (see ``SpawnedTaskCancellation``). The task is listed in ``unfinishedTasks`` under `fileID`:`line` until it
    /// returns, and carries that origin (``SimulationTaskOrigin/current``) for messages about its work.
    ///
    /// ```swift
    /// let search = scheduler.spawn { try await api.search("cafe") }
    /// try scheduler.run(for: .seconds(1))
    /// search.cancel()
    /// ```
    @discardableResult
    public func spawn<Success: Sendable>(
        _ operation: sending @escaping @isolated(any) () async throws -> Success,
        fileID: String = #fileID,
        line: Int = #line
    ) -> Task<Success, any Error> {
        let origin = SimulationTaskOrigin(fileID: fileID, line: line)
        let registry = liveTasks
        let key = registry.start(origin)
        return Task(executorPreference: executor) {
            defer { registry.finish(key) }
            let cancellation = SpawnedTaskCancellation()
            return try await withTaskCancellationHandler {
                defer { cancellation.end() }
                return try await SimulationTaskOrigin.$current.withValue(origin) {
                    try await SpawnedTaskCancellation.$current.withValue(cancellation) { try await operation() }
                }
            } onCancel: {
                cancellation.cancel()
            }
        }
    }

    /// Starts a non-throwing `operation` as a task on this simulation's executor, like the throwing
    /// `spawn`.
    @discardableResult
    public func spawn<Success: Sendable>(
        _ operation: sending @escaping @isolated(any) () async -> Success,
        fileID: String = #fileID,
        line: Int = #line
    ) -> Task<Success, Never> {
        let origin = SimulationTaskOrigin(fileID: fileID, line: line)
        let registry = liveTasks
        let key = registry.start(origin)
        return Task(executorPreference: executor) {
            defer { registry.finish(key) }
            let cancellation = SpawnedTaskCancellation()
            return await withTaskCancellationHandler {
                defer { cancellation.end() }
                return await SimulationTaskOrigin.$current.withValue(origin) {
                    await SpawnedTaskCancellation.$current.withValue(cancellation) { await operation() }
                }
            } onCancel: {
                cancellation.cancel()
            }
        }
    }
}
