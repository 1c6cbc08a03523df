/// The action identifier of the user opening a notification (tapping it), as UserNotifications'
/// `UNNotificationDefaultActionIdentifier`.
public let UNNotificationDefaultActionIdentifier = "com.apple.UNNotificationDefaultActionIdentifier"
/// The action identifier of the user dismissing a notification, as UserNotifications'
/// `UNNotificationDismissActionIdentifier`.
public let UNNotificationDismissActionIdentifier = "com.apple.UNNotificationDismissActionIdentifier"

/// The user's response to a notification, as UserNotifications' `UNNotificationResponse`.
///
/// ```swift
/// if response.actionIdentifier == UNNotificationDefaultActionIdentifier { openCheckIn() }
/// ```
public class UNNotificationResponse: @unchecked Sendable {
    /// The notification responded to.
    public let notification: UNNotification
    /// What the user did (``UNNotificationDefaultActionIdentifier`` for a tap).
    public let actionIdentifier: String

    init(notification: UNNotification, actionIdentifier: String) {
        self.notification = notification
        self.actionIdentifier = actionIdentifier
    }
}
