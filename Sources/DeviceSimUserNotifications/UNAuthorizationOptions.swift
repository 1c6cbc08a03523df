/// What an app asks to be allowed to do with notifications, as UserNotifications' `UNAuthorizationOptions`.
///
/// ```swift
/// let granted = try await UNUserNotificationCenter.current().requestAuthorization(options: [.alert, .sound, .badge])
/// ```
public struct UNAuthorizationOptions: OptionSet, Sendable, Hashable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// Update the app's badge.
    public static let badge = UNAuthorizationOptions(rawValue: 1 << 0)
    /// Play sounds.
    public static let sound = UNAuthorizationOptions(rawValue: 1 << 1)
    /// Display alerts.
    public static let alert = UNAuthorizationOptions(rawValue: 1 << 2)
    /// Display notifications in CarPlay.
    public static let carPlay = UNAuthorizationOptions(rawValue: 1 << 3)
    /// Play sounds for critical alerts.
    public static let criticalAlert = UNAuthorizationOptions(rawValue: 1 << 4)
    /// The system should show a button for in-app notification settings.
    public static let providesAppNotificationSettings = UNAuthorizationOptions(rawValue: 1 << 5)
    /// Deliver notifications quietly, without asking (provisional authorization).
    public static let provisional = UNAuthorizationOptions(rawValue: 1 << 6)
}
