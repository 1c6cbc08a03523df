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
        let cancellation = SpawnedTaskCancellation()
        // `operation` was sent here and goes on into the task alone; the closures between only carry it.
        nonisolated(unsafe) let operation = operation
        // The task-local values are bound around the task's creation, which copies them into the task,
        // rather than inside it: an async `withValue` adds two frames to every spawned task's stack.
        return SimulationTaskOrigin.$current.withValue(origin) {
            SpawnedTaskCancellation.$current.withValue(cancellation) {
                Task(executorPreference: executor) {
                    defer { registry.finish(key) }
                    cancellation.begin()
                    return try await withTaskCancellationHandler {
                        defer { cancellation.end() }
                        return try await operation()
                    } onCancel: {
                        cancellation.cancel()
                    }
                }
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
        let cancellation = SpawnedTaskCancellation()
        // `operation` was sent here and goes on into the task alone; the closures between only carry it.
        nonisolated(unsafe) let operation = operation
        // The task-local values are bound around the task's creation, which copies them into the task,
        // rather than inside it: an async `withValue` adds two frames to every spawned task's stack.
        return SimulationTaskOrigin.$current.withValue(origin) {
            SpawnedTaskCancellation.$current.withValue(cancellation) {
                Task(executorPreference: executor) {
                    defer { registry.finish(key) }
                    cancellation.begin()
                    return await withTaskCancellationHandler {
                        defer { cancellation.end() }
                        return await operation()
                    } onCancel: {
                        cancellation.cancel()
                    }
                }
            }
        }
    }
}
