import DeviceSimClock

extension Device {
    /// Starts `operation` as a task of this device, on its scheduler's executor: the `Task {}` of app
    /// code that runs in a simulation (and, live, on the wall-clock driver's thread).
    ///
    /// A plain `Task {}` in nonisolated code runs on the global executor, outside the simulation, and its
    /// sleeps on the device's clock fail; start such tasks here instead. A closure isolated to an actor
    /// (`{ @MainActor in ... }`) runs on that actor, as with `Task {}`.
    ///
    /// ```swift
    /// let upload = device.spawn { try await uploader.send(batch) }
    /// // later
    /// upload.cancel()
    /// ```
    @discardableResult
    public func spawn<Success: Sendable>(
        _ operation: sending @escaping @isolated(any) () async throws -> Success,
        fileID: String = #fileID,
        line: Int = #line
    ) -> Task<Success, any Error> {
        scheduling.spawn(operation, fileID: fileID, line: line)
    }

    /// Starts a non-throwing `operation` as a task of this device (see the throwing `spawn`).
    @discardableResult
    public func spawn<Success: Sendable>(
        _ operation: sending @escaping @isolated(any) () async -> Success,
        fileID: String = #fileID,
        line: Int = #line
    ) -> Task<Success, Never> {
        scheduling.spawn(operation, fileID: fileID, line: line)
    }
}
