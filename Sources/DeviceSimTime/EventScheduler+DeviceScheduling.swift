import DeviceSimClock

/// The scheduler is the device's time that app-side code sees through ``DeviceScheduling``.
extension EventScheduler: DeviceScheduling {
    /// Suspends the calling task until virtual time reaches `deadline`: what ``VirtualClock`` sleeps on.
    ///
    /// ```swift
    /// try await VirtualClock(scheduler).sleep(for: .seconds(5))
    /// ```
    public func sleep(until deadline: VirtualInstant, tolerance: Duration?) async throws {
        try await SchedulerClock(self).sleep(until: deadline, tolerance: tolerance)
    }
}

extension ScheduledEvent: CancellableEvent {}
