import Foundation

/// Reads a scenario's `start-time`: what `ISO8601DateFormatter().date(from:)` reads, in a fraction
/// of its time.
///
/// The usual form, `2026-05-01T08:00:00Z` or with an offset (`+02:00`, `+0200`), with every field
/// in range and a year from 1900 to 9999, is read here directly. Anything else goes to one shared
/// `ISO8601DateFormatter` behind a lock (ICU's formatters must not be used by two threads at once),
/// so that its leniencies (one-digit fields, a day past the month's end, a leading space, `GMT`)
/// stay exactly as they were. A new formatter for each file took about 300 µs (ICU loads its
/// locale data under a process-wide lock); the shared one about 110 µs; the direct reading under 1 µs.
///
/// ```swift
/// ISO8601Time.date(from: "2026-05-01T08:00:00+02:00")  // 2026-05-01 06:00:00 UTC
/// ```
enum ISO8601Time {
    /// The instant `text` names, or nil when it is not an ISO 8601 time.
    static func date(from text: String) -> Date? {
        if let seconds = secondsSince1970(usualForm: text) { return Date(timeIntervalSince1970: Double(seconds)) }
        return formatter.withLock { $0.date(from: text) }
    }

    private static let formatter = LockedFormatter()

    /// `ISO8601DateFormatter`, one for the process, used under a lock.
    private final class LockedFormatter: @unchecked Sendable {
        private let lock = NSLock()
        private let formatter = ISO8601DateFormatter()
        func withLock<T>(_ body: (ISO8601DateFormatter) -> T) -> T { lock.withLock { body(formatter) } }
    }

    /// Seconds since 1970 for `YYYY-MM-DDTHH:MM:SS` followed by `Z`, `±HH:MM` or `±HHMM`, every
    /// field two digits (four for the year) and in range; nil for anything else.
    static func secondsSince1970(usualForm text: String) -> Int? {
        let bytes = Array(text.utf8)
        guard bytes.count == 20 || bytes.count == 24 || bytes.count == 25, let time = DateAndTime(bytes), time.problem == nil else { return nil }
        var offsetSeconds = 0
        switch bytes.count {
        case 20:
            guard bytes[19] == UInt8(ascii: "Z") else { return nil }
        default:
            let sign = bytes[19]
            guard sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-"), let offsetHours = DateAndTime.number(bytes, 20, 2) else { return nil }
            let offsetMinutes: Int?
            if bytes.count == 25 {
                offsetMinutes = bytes[22] == UInt8(ascii: ":") ? DateAndTime.number(bytes, 23, 2) : nil
            } else {
                offsetMinutes = DateAndTime.number(bytes, 22, 2)
            }
            guard let offsetMinutes, offsetHours < 24, offsetMinutes < 60 else { return nil }
            offsetSeconds = (offsetHours * 3_600 + offsetMinutes * 60) * (sign == UInt8(ascii: "-") ? -1 : 1)
        }
        return daysSince1970(year: time.year, month: time.month, day: time.day) * 86_400 + time.hour * 3_600 + time.minute * 60 + time.second
            - offsetSeconds
    }

    /// Why `text`, written in the usual form's shape (`YYYY-MM-DDTHH:MM:SS` and a zone), names no
    /// instant a scenario can start at: a day past its month's end, a field out of range, a year
    /// outside 1900...9999; nil when it does, or when it has another shape.
    static func problem(usualForm text: String) -> String? {
        DateAndTime(Array(text.utf8))?.problem
    }

    /// The fields of `YYYY-MM-DDTHH:MM:SS` at the start of a text, each all digits, not yet checked
    /// against the calendar.
    private struct DateAndTime {
        var year, month, day, hour, minute, second: Int

        init?(_ bytes: [UInt8]) {
            guard bytes.count >= 19, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
                  bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
                  let year = Self.number(bytes, 0, 4), let month = Self.number(bytes, 5, 2), let day = Self.number(bytes, 8, 2),
                  let hour = Self.number(bytes, 11, 2), let minute = Self.number(bytes, 14, 2), let second = Self.number(bytes, 17, 2)
            else { return nil }
            (self.year, self.month, self.day, self.hour, self.minute, self.second) = (year, month, day, hour, minute, second)
        }

        /// Why these fields name no instant a run can start at (nil: they do).
        var problem: String? {
            if !(1900...9999).contains(year) { return "the year must be within 1900...9999" }
            if !(1...12).contains(month) { return "there is no month \(month)" }
            let days = ISO8601Time.daysIn(month: month, year: year)
            if !(1...days).contains(day) { return "\(String(format: "%04d-%02d", year, month)) has \(days) days" }
            if hour > 23 || minute > 59 || second > 59 { return "the time of day must be within 00:00:00...23:59:59" }
            return nil
        }

        /// The decimal number of `count` digits at `start` (nil: a byte that is no digit).
        static func number(_ bytes: [UInt8], _ start: Int, _ count: Int) -> Int? {
            var value = 0
            for index in start..<(start + count) {
                let byte = bytes[index]
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
    }

    fileprivate static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to a date of the Gregorian calendar (Howard Hinnant's `days_from_civil`).
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = shiftedYear / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
