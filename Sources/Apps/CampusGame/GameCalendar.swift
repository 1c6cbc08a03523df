import DeviceSimHAL
import DeviceSimTime
import Foundation

/// The campus game's civil calendar: which local day and which local week a virtual instant falls in,
/// in the game's time zone (daylight-saving days are 23 or 25 hours long, as the zone says).
///
/// Virtual instant zero is `startDate` (UTC). Days start at local midnight; weeks start at local
/// midnight of `firstWeekday` (Monday unless set).
///
/// ```swift
/// let calendar = try GameCalendar(startDate: start, timeZone: "Europe/Berlin")
/// calendar.day(of: now)          // "2026-03-29"
/// calendar.weekStart(of: now)    // "2026-03-23", a Monday
/// ```
public struct GameCalendar: Sendable, Hashable {
    /// The day a week starts on.
    public enum Weekday: String, Sendable, Hashable, CaseIterable {
        case sunday, monday, tuesday, wednesday, thursday, friday, saturday

        /// Foundation's weekday number (Sunday 1 ... Saturday 7).
        var number: Int { Self.allCases.firstIndex(of: self)! + 1 }
    }

    /// UTC time of virtual instant zero.
    public let startDate: Date
    /// The game's IANA time zone.
    public let timeZone: TimeZone
    /// The first day of the week.
    public let firstWeekday: Weekday
    private let calendar: Calendar

    /// A calendar in `timeZone`; fails for an unknown time zone name.
    public init(startDate: Date, timeZone identifier: String = "UTC", firstWeekday: Weekday = .monday) throws(GameCalendarError) {
        guard let zone = TimeZone(identifier: identifier) else { throw .unknownTimeZone(identifier) }
        self.init(startDate: startDate, timeZone: zone, firstWeekday: firstWeekday)
    }

    /// A calendar in `timeZone`.
    public init(startDate: Date, timeZone: TimeZone, firstWeekday: Weekday = .monday) {
        self.startDate = startDate
        self.timeZone = timeZone
        self.firstWeekday = firstWeekday
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        calendar.firstWeekday = firstWeekday.number
        calendar.minimumDaysInFirstWeek = 1
        self.calendar = calendar
    }

    /// The device-side civil clock with the same start and zone (the HAL's, which flows read).
    public var civilClock: CivilClock { CivilClock(startDate: startDate, timeZone: timeZone) }

    /// A calendar on a device's civil clock.
    public init(civilClock: CivilClock, firstWeekday: Weekday = .monday) {
        self.init(startDate: civilClock.startDate, timeZone: civilClock.timeZone, firstWeekday: firstWeekday)
    }

    /// The local date of `instant` (`yyyy-MM-dd`).
    public func day(of instant: VirtualInstant) -> String {
        civilClock.time(at: instant).dayText
    }

    /// The local date of the first day of `instant`'s week (`yyyy-MM-dd`).
    public func weekStart(of instant: VirtualInstant) -> String {
        let local = date(of: instant)
        let weekday = calendar.component(.weekday, from: local)
        let back = (weekday - firstWeekday.number + 7) % 7
        let startOfDay = calendar.startOfDay(for: local)
        let first = calendar.date(byAdding: .day, value: -back, to: startOfDay) ?? startOfDay
        return Self.format(calendar.dateComponents([.year, .month, .day], from: first))
    }

    /// The Foundation date of `instant`.
    public func date(of instant: VirtualInstant) -> Date {
        civilClock.date(of: instant)
    }

    private static func format(_ components: DateComponents) -> String {
        let year = components.year ?? 0, month = components.month ?? 0, day = components.day ?? 0
        return String(format: "%04d-%02d-%02d", year, month, day)
    }
}

/// Why a ``GameCalendar`` could not be made.
public enum GameCalendarError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Not an IANA time zone name.
    case unknownTimeZone(String)

    public var description: String {
        switch self {
        case .unknownTimeZone(let name): "unknown time zone '\(name)'; use an IANA name such as Europe/Berlin or America/New_York"
        }
    }
}
