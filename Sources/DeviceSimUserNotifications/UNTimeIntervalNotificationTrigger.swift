import Foundation

/// Fires after a number of seconds, once or repeatedly, as UserNotifications'
/// `UNTimeIntervalNotificationTrigger`.
///
/// As on iOS, the interval must be positive, and at least 60 seconds when it repeats: iOS raises an
/// exception otherwise ("time interval must be at least 60 if repeating"), which ends the app; so does
/// this initialiser.
///
/// ```swift
/// let trigger = UNTimeIntervalNotificationTrigger(timeInterval: 3 * 60, repeats: false)
/// ```
open class UNTimeIntervalNotificationTrigger: UNNotificationTrigger, @unchecked Sendable {
    /// Seconds between scheduling (or the last firing) and firing.
    public let timeInterval: TimeInterval
    /// When it was added to the center (nil until then), for ``nextTriggerDate()``.
    var scheduledAt: Date?

    /// Creates a trigger firing `timeInterval` seconds after the request is added.
    public init(timeInterval: TimeInterval, repeats: Bool) {
        precondition(timeInterval > 0, "UNTimeIntervalNotificationTrigger: time interval must be greater than 0")
        precondition(!repeats || timeInterval >= 60, "UNTimeIntervalNotificationTrigger: time interval must be at least 60 if repeating")
        self.timeInterval = timeInterval
        super.init(repeats: repeats)
    }

    /// When it fires next: `timeInterval` after it was scheduled (nil before it was added to the center).
    open func nextTriggerDate() -> Date? {
        scheduledAt.map { $0.addingTimeInterval(timeInterval) }
    }

    override var traceDescription: String { "time-interval \(timeInterval)s" + (repeats ? " repeating" : "") }
}
