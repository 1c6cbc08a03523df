/// A region a location trigger watches: what `CLCircularRegion` offers (identifier, centre, radius and
/// whether entry and exit notify). DeviceSimCoreLocation's `CLCircularRegion` conforms to it, so
/// `UNLocationNotificationTrigger(region: region, repeats: false)` reads as on iOS.
///
/// ```swift
/// struct Cafe: NotificationTriggerRegion {
///     var identifier = "cafe", notifyOnEntry = true, notifyOnExit = false
///     var triggerCenter = GeoCoordinate(latitude: 52.5145, longitude: 13.3501), triggerRadius = 50.0
/// }
/// ```
public protocol NotificationTriggerRegion {
    /// The region's identifier.
    var identifier: String { get }
    /// Whether entering it fires the trigger.
    var notifyOnEntry: Bool { get }
    /// Whether leaving it fires the trigger.
    var notifyOnExit: Bool { get }
    /// The centre of the circle.
    var triggerCenter: GeoCoordinate { get }
    /// The radius in metres.
    var triggerRadius: Double { get }
}
