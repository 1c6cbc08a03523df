/// The state of a ``CLMonitor`` condition (`CLMonitor.Event.State`).
///
/// ```swift
/// if event.state == .satisfied { arrived(event.identifier) }
/// ```
public enum CLMonitoringState: UInt, Sendable, Hashable {
    /// Not known yet.
    case unknown = 0
    /// Inside the circle; a beacon of the identity is heard.
    case satisfied = 1
    /// Outside; none heard.
    case unsatisfied = 2
    /// No longer monitored (iOS 17.2).
    case unmonitored = 3
}
