import DeviceSimHAL

/// A circular region is what a location notification trigger watches, so
/// `UNLocationNotificationTrigger(region: region, repeats: false)` (DeviceSimUserNotifications) takes a
/// `CLCircularRegion` as on iOS.
extension CLCircularRegion: NotificationTriggerRegion {
    /// The region's centre, for the trigger.
    public var triggerCenter: GeoCoordinate { center.geo }
    /// The region's radius in metres, for the trigger.
    public var triggerRadius: Double { radius }
}
