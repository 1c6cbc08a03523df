/// Whether the app may post notifications, as UserNotifications' `UNAuthorizationStatus`.
///
/// ```swift
/// if await UNUserNotificationCenter.current().notificationSettings().authorizationStatus == .notDetermined { askLater() }
/// ```
public enum UNAuthorizationStatus: Int, Sendable, Hashable {
    /// The user has not yet been asked.
    case notDetermined = 0
    /// The user refused ("Don't Allow").
    case denied = 1
    /// The user allowed notifications ("Allow").
    case authorized = 2
    /// Provisional: notifications are delivered quietly without asking.
    case provisional = 3
    /// App Clips' ephemeral authorization.
    case ephemeral = 4
}
