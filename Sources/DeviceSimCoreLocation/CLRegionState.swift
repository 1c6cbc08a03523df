/// Where the device is with respect to a region (`locationManager(_:didDetermineState:for:)`).
///
/// ```swift
/// if state == .inside { checkIn(region.identifier) }
/// ```
public enum CLRegionState: Int, Sendable, Hashable {
    /// Not known yet.
    case unknown = 0
    /// Inside.
    case inside = 1
    /// Outside.
    case outside = 2
}
