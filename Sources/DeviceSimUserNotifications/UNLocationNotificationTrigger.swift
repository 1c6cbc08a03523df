import DeviceSimHAL

/// Fires when the device enters or leaves a region, as UserNotifications' `UNLocationNotificationTrigger`;
/// the device's geofence monitor watches the region (as `notification:<request id>`).
///
/// ```swift
/// let trigger = UNLocationNotificationTrigger(region: cafeRegion, repeats: false)
/// ```
open class UNLocationNotificationTrigger: UNNotificationTrigger, @unchecked Sendable {
    /// The region.
    public let region: any NotificationTriggerRegion

    /// Creates a trigger for `region`.
    public init(region: any NotificationTriggerRegion, repeats: Bool) {
        self.region = region
        super.init(repeats: repeats)
    }

    override var traceDescription: String { "location \(region.identifier)" + (repeats ? " repeating" : "") }
}
