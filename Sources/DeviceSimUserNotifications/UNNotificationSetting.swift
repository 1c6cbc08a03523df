/// Whether one kind of presentation is enabled, as UserNotifications' `UNNotificationSetting`.
///
/// ```swift
/// let soundsOn = settings.soundSetting == .enabled
/// ```
public enum UNNotificationSetting: Int, Sendable, Hashable {
    /// The app does not support this kind of presentation.
    case notSupported = 0
    /// The user (or the app's authorization) disabled it.
    case disabled = 1
    /// It is enabled.
    case enabled = 2
}
