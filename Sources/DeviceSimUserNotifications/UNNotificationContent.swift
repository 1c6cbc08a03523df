import Foundation

/// What a notification shows, as UserNotifications' `UNNotificationContent` (read only; build it with
/// ``UNMutableNotificationContent``).
///
/// ```swift
/// let content = UNMutableNotificationContent()
/// content.title = "Check in?"
/// content.body = "You have been at the café for three minutes."
/// ```
open class UNNotificationContent: @unchecked Sendable {
    /// The title.
    public internal(set) var title: String = ""
    /// The subtitle.
    public internal(set) var subtitle: String = ""
    /// The body text.
    public internal(set) var body: String = ""
    /// The app's own data.
    public internal(set) var userInfo: [AnyHashable: Any] = [:]
    /// The sound to play (nil: none).
    public internal(set) var sound: UNNotificationSound?
    /// The number to show on the app's icon (nil: leave it).
    public internal(set) var badge: NSNumber?
    /// The category (its actions).
    public internal(set) var categoryIdentifier: String = ""
    /// The thread notifications are grouped by.
    public internal(set) var threadIdentifier: String = ""

    public init() {}

    init(copying other: UNNotificationContent) {
        title = other.title
        subtitle = other.subtitle
        body = other.body
        userInfo = other.userInfo
        sound = other.sound
        badge = other.badge
        categoryIdentifier = other.categoryIdentifier
        threadIdentifier = other.threadIdentifier
    }

    /// The text shown: the title, subtitle and body that are not empty, joined by " | ".
    var shownText: String {
        [title, subtitle, body].filter { !$0.isEmpty }.joined(separator: " | ")
    }
}
