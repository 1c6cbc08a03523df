import DeviceSimTime

extension Device {
    /// The device's location updates as an async sequence, for flows written with `for await`.
    ///
    /// Values are delivered on the simulation's executor in the order the source sends them; the
    /// observation ends when the consuming task stops iterating or is cancelled.
    ///
    /// ```swift
    /// for await update in device.locationUpdates() {
    ///     if case .fix(let fix) = update { marker = fix.coordinate }
    /// }
    /// ```
    public func locationUpdates(
        bufferingPolicy: AsyncStream<LocationUpdate>.Continuation.BufferingPolicy = .unbounded
    ) -> AsyncStream<LocationUpdate> {
        let (stream, continuation) = AsyncStream.makeStream(of: LocationUpdate.self, bufferingPolicy: bufferingPolicy)
        let subscription = SimulationBound(location.observe { continuation.yield($0) }, executor: scheduler.executor)
        let executor = scheduler.executor
        continuation.onTermination = { _ in executor.submit { subscription.value.cancel() } }
        return stream
    }

    /// Only the fixes of ``locationUpdates(bufferingPolicy:)``.
    ///
    /// ```swift
    /// for await fix in device.locationFixes() { ... }
    /// ```
    public func locationFixes() -> AsyncCompactMapSequence<AsyncStream<LocationUpdate>, LocationFix> {
        locationUpdates().compactMap { update in
            if case .fix(let fix) = update { return fix }
            return nil
        }
    }
}
