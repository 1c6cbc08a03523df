import DeviceSimHAL
import Foundation

/// Fires when the device's local date and time match the given components, as UserNotifications'
/// `UNCalendarNotificationTrigger` (`DateComponents(hour: 8, minute: 30)`: every day at 08:30 when it
/// repeats). Matched in the device's time zone (its civil clock).
///
/// ```swift
/// let trigger = UNCalendarNotificationTrigger(dateMatching: DateComponents(hour: 8, minute: 30), repeats: true)
/// ```
open class UNCalendarNotificationTrigger: UNNotificationTrigger, @unchecked Sendable {
    /// The components to match.
    public let dateComponents: DateComponents
    /// The device whose calendar it is matched in (the current device when created).
    let civilClock: CivilClock?
    let device: Device?

    /// Creates a trigger firing at the next local date and time matching `dateComponents`.
    public init(dateMatching dateComponents: DateComponents, repeats: Bool) {
        self.dateComponents = dateComponents
        self.device = DeviceContext.current
        self.civilClock = device?.civilClock
        super.init(repeats: repeats)
    }

    /// The next date after now that matches, in the device's calendar (nil when none does).
    open func nextTriggerDate() -> Date? {
        guard let device else { return nil }
        return nextDate(after: device.civilClock.date(of: device.now), clock: device.civilClock)
    }

    func nextDate(after date: Date, clock: CivilClock) -> Date? {
        clock.calendar.nextDate(after: date, matching: dateComponents, matchingPolicy: .nextTime)
    }

    override var traceDescription: String { "calendar" + (repeats ? " repeating" : "") }
}
