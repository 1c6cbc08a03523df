/// What the app uses location for (`CLLocationManager.activityType`).
///
/// ```swift
/// manager.activityType = .fitness
/// ```
public enum CLActivityType: Int, Sendable, Hashable {
    /// Unknown (the default).
    case other = 1
    /// Driving navigation.
    case automotiveNavigation = 2
    /// Walking, running, cycling.
    case fitness = 3
    /// Other navigation (boats, trains).
    case otherNavigation = 4
    /// Flight.
    case airborne = 5
}
