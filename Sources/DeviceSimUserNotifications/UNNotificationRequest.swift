/// A notification the app schedules: its identifier, content and trigger, as UserNotifications'
/// `UNNotificationRequest`.
///
/// ```swift
/// let request = UNNotificationRequest(identifier: "check-in", content: content,
///                                     trigger: UNTimeIntervalNotificationTrigger(timeInterval: 180, repeats: false))
/// try await UNUserNotificationCenter.current().add(request)
/// ```
public final class UNNotificationRequest: @unchecked Sendable {
    /// The identifier (adding another request with it replaces this one).
    public let identifier: String
    /// What it shows (a copy: later changes to the content passed in do not apply).
    public let content: UNNotificationContent
    /// When it fires (nil: at once).
    public let trigger: UNNotificationTrigger?

    /// Creates a request.
    public init(identifier: String, content: UNNotificationContent, trigger: UNNotificationTrigger?) {
        self.identifier = identifier
        self.content = UNNotificationContent(copying: content)
        self.trigger = trigger
    }
}
