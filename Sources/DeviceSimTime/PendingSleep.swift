import DeviceSimClock

/// A sleep on a ``VirtualClock`` that has neither woken nor been cancelled (see
/// ``EventScheduler/pendingSleeps``).
public struct PendingSleep: Hashable, Sendable, CustomStringConvertible {
    /// When it wakes.
    public let deadline: VirtualInstant
    /// The simulation task it sleeps in, if it runs in (or descends from) one.
    public let origin: SimulationTaskOrigin?
    /// Scheduling order, to sort sleeps due at the same instant.
    let sequence: UInt64

    public var description: String {
        "a sleep until \(deadline)" + (origin.map { " in the task spawned at \($0)" } ?? "")
    }
}
