/// A `Clock` whose time is a device's virtual time.
///
/// Code written against `any Clock<Duration>` runs unchanged on it: `sleep` suspends the calling task
/// until the simulation reaches the deadline, without any real waiting; a cancelled sleep throws
/// `CancellationError` at once and leaves nothing scheduled. Tasks must run on the simulation's
/// executor (start them with `Device.spawn`) or, for a simulation driven from the main actor, on the main
/// actor; DeviceSimTime documents what happens to a sleep called from elsewhere (`VirtualClockError`).
///
/// ```swift
/// let clock = device.clock            // or VirtualClock(scheduler) in a test
/// device.spawn {
///     try? await clock.sleep(for: .seconds(5))
///     // runs at virtual 5 s
/// }
/// ```
public struct VirtualClock: Clock, @unchecked Sendable {
    public typealias Instant = VirtualInstant

    /// Read on the simulation's thread only (the scheduler checks where its sleeps come from).
    private let scheduling: any DeviceScheduling

    /// A clock reading the virtual time of `scheduling` (a device's, or a test's scheduler).
    public init(_ scheduling: any DeviceScheduling) {
        self.scheduling = scheduling
    }

    public var now: VirtualInstant { scheduling.now }

    public var minimumResolution: Duration { .nanoseconds(1) }

    public func sleep(until deadline: VirtualInstant, tolerance: Duration? = nil) async throws {
        try await scheduling.sleep(until: deadline, tolerance: tolerance)
    }
}
