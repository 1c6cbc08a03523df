/// How a notification that arrives while the app is in the foreground is presented, as
/// UserNotifications' `UNNotificationPresentationOptions` (the delegate's `willPresent` answer).
///
/// ```swift
/// func userNotificationCenter(_ center: UNUserNotificationCenter, willPresent notification: UNNotification) async
///     -> UNNotificationPresentationOptions { [.banner, .sound] }
/// ```
public struct UNNotificationPresentationOptions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// Update the badge.
    public static let badge = UNNotificationPresentationOptions(rawValue: 1 << 0)
    /// Play the sound.
    public static let sound = UNNotificationPresentationOptions(rawValue: 1 << 1)
    /// Show an alert (deprecated in iOS 14: `.list` and `.banner`).
    public static let alert = UNNotificationPresentationOptions(rawValue: 1 << 2)
    /// Show it in Notification Center.
    public static let list = UNNotificationPresentationOptions(rawValue: 1 << 3)
    /// Show it as a banner.
    public static let banner = UNNotificationPresentationOptions(rawValue: 1 << 4)

    /// Whether the user sees it (alert, list or banner).
    var isShown: Bool { !intersection([.alert, .list, .banner]).isEmpty }
}
