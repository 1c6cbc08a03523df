import Foundation

/// A delivered notification: its request and when it was delivered, as UserNotifications' `UNNotification`.
///
/// ```swift
/// for notification in await UNUserNotificationCenter.current().deliveredNotifications() { print(notification.request.identifier) }
/// ```
public final class UNNotification: @unchecked Sendable {
    /// When it was delivered (the device's date).
    public let date: Date
    /// The request it came from.
    public let request: UNNotificationRequest

    init(date: Date, request: UNNotificationRequest) {
        self.date = date
        self.request = request
    }
}
