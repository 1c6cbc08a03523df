/// An error of the notification center, as UserNotifications' `UNError`.
///
/// ```swift
/// do { try await center.add(request) } catch let error as UNError where error.code == .notificationsNotAllowed { showSettingsHint() }
/// ```
public struct UNError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The error codes, as `UNError.Code`.
    public enum Code: Int, Sendable, Hashable {
        /// The app is not authorized to post notifications.
        case notificationsNotAllowed = 1
        /// A calendar trigger's components match no date.
        case notificationInvalidNoDate = 1400
        /// The request's content is empty.
        case notificationInvalidNoContent = 1401
    }

    /// What went wrong.
    public let code: Code

    public init(_ code: Code) { self.code = code }

    public var description: String {
        switch code {
        case .notificationsNotAllowed:
            "Notifications are not allowed for this application: request authorization first (answer the "
                + "'\(UNUserNotificationCenter.authorizationPromptID)' prompt with \"Allow\" in the test or scenario)"
        case .notificationInvalidNoDate: "the calendar trigger's date components match no future date"
        case .notificationInvalidNoContent: "the notification has no title, subtitle or body"
        }
    }
}
