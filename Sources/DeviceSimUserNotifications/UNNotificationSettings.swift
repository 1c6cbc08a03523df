/// The app's notification settings now, as UserNotifications' `UNNotificationSettings`.
///
/// ```swift
/// let settings = await UNUserNotificationCenter.current().notificationSettings()
/// guard settings.authorizationStatus == .authorized else { return }
/// ```
public final class UNNotificationSettings: @unchecked Sendable {
    /// Whether the app may post notifications.
    public let authorizationStatus: UNAuthorizationStatus
    /// Whether sounds play.
    public let soundSetting: UNNotificationSetting
    /// Whether the badge is updated.
    public let badgeSetting: UNNotificationSetting
    /// Whether alerts are shown.
    public let alertSetting: UNNotificationSetting
    /// Whether notifications appear in Notification Center.
    public let notificationCenterSetting: UNNotificationSetting
    /// Whether notifications appear on the lock screen.
    public let lockScreenSetting: UNNotificationSetting

    init(status: UNAuthorizationStatus, options: UNAuthorizationOptions) {
        authorizationStatus = status
        let allowed = status == .authorized || status == .provisional || status == .ephemeral
        func setting(_ option: UNAuthorizationOptions) -> UNNotificationSetting {
            status == .notDetermined ? .notSupported : (allowed && options.contains(option) ? .enabled : .disabled)
        }
        soundSetting = setting(.sound)
        badgeSetting = setting(.badge)
        alertSetting = setting(.alert)
        notificationCenterSetting = status == .notDetermined ? .notSupported : (allowed ? .enabled : .disabled)
        lockScreenSetting = notificationCenterSetting
    }
}
