/// When a notification fires: the common base of UserNotifications' triggers, as `UNNotificationTrigger`.
///
/// ```swift
/// if let trigger = request.trigger, trigger.repeats { print("repeats") }
/// ```
open class UNNotificationTrigger: @unchecked Sendable {
    /// Whether it fires again after firing.
    public let repeats: Bool

    init(repeats: Bool) { self.repeats = repeats }

    /// How the trace names it (`time-interval 180s`, `calendar`, `location cafe`).
    var traceDescription: String { "trigger" }
}
