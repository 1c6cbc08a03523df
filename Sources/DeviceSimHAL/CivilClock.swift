import DeviceSimClock
import Foundation

/// The device's civil (wall-calendar) time: the local date and time a virtual instant falls on, in an
/// IANA time zone, daylight saving included.
///
/// Virtual instant zero is `startDate` (UTC, a scenario's `start-time:`); the zone is a scenario's
/// `time-zone:`. Flows read it through ``Device/civilTime`` and never the wall clock.
///
/// ```swift
/// let civil = try CivilClock(startDate: start, timeZone: "Europe/Berlin")
/// civil.time(at: device.now).day        // "2026-03-29"
/// civil.time(at: device.now).timestamp  // "2026-03-29T03:00:00+02:00"
/// ```
public struct CivilClock: Sendable, Hashable {
    /// UTC time of virtual instant zero.
    public let startDate: Date
    /// The IANA time zone of the device.
    public let timeZone: TimeZone

    /// 2026-01-01T00:00:00Z in UTC: what a device without a scenario's `start-time:` sees.
    public static let `default` = CivilClock(startDate: Date(timeIntervalSince1970: 1_767_225_600), timeZone: TimeZone(identifier: "UTC")!)

    /// A clock in the zone named `identifier`; fails for a name that is not an IANA time zone.
    public init(startDate: Date, timeZone identifier: String) throws(CivilClockError) {
        guard let zone = TimeZone(identifier: identifier) else { throw .unknownTimeZone(identifier) }
        self.init(startDate: startDate, timeZone: zone)
    }

    /// A clock in `timeZone`.
    public init(startDate: Date, timeZone: TimeZone) {
        self.startDate = startDate
        self.timeZone = timeZone
    }

    /// A Gregorian calendar in the clock's zone.
    public var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }

    /// The Foundation date (UTC) of `instant`.
    public func date(of instant: VirtualInstant) -> Date {
        startDate.addingTimeInterval(Double(instant.nanoseconds) / 1e9)
    }

    /// The local civil date and time of `instant`.
    public func time(at instant: VirtualInstant) -> CivilTime {
        let date = date(of: instant)
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return CivilTime(
            year: parts.year ?? 0, month: parts.month ?? 0, day: parts.day ?? 0,
            hour: parts.hour ?? 0, minute: parts.minute ?? 0, second: parts.second ?? 0,
            utcOffsetSeconds: timeZone.secondsFromGMT(for: date), timeZone: timeZone.identifier)
    }
}

/// A local civil date and time, as a clock on the wall shows it.
public struct CivilTime: Sendable, Hashable, CustomStringConvertible {
    public var year: Int, month: Int, day: Int
    public var hour: Int, minute: Int, second: Int
    /// Seconds east of UTC in force at that moment (daylight saving included).
    public var utcOffsetSeconds: Int
    /// The IANA zone name.
    public var timeZone: String

    /// The local date, `yyyy-MM-dd`.
    public var dayText: String { String(format: "%04d-%02d-%02d", year, month, day) }

    /// ISO 8601 local time with its offset, `yyyy-MM-ddTHH:mm:ss±hh:mm`.
    public var timestamp: String {
        let sign = utcOffsetSeconds < 0 ? "-" : "+"
        let offset = abs(utcOffsetSeconds)
        return dayText + String(format: "T%02d:%02d:%02d%@%02d:%02d", hour, minute, second, sign, offset / 3600, offset % 3600 / 60)
    }

    public var description: String { timestamp }
}

/// Why a ``CivilClock`` could not be made.
public enum CivilClockError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Not an IANA time zone name.
    case unknownTimeZone(String)

    public var description: String {
        switch self {
        case .unknownTimeZone(let name): "unknown time zone '\(name)'; use an IANA name such as Europe/Berlin or America/New_York"
        }
    }
}
