/// How near a ranged beacon is (`CLBeacon.proximity`).
///
/// ```swift
/// if beacon.proximity == .immediate { openDoor() }
/// ```
public enum CLProximity: Int, Sendable, Hashable {
    /// Not determined.
    case unknown = 0
    /// Very close (within about half a metre).
    case immediate = 1
    /// A few metres.
    case near = 2
    /// Farther.
    case far = 3
}
