/// A UTC time of day, exact to the nanosecond, as NMEA sentences carry it (`hhmmss.sss`).
public struct NMEATimeOfDay: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Nanoseconds since midnight UTC.
    public var nanoseconds: Int64

    /// Creates a time of day.
    public init(nanoseconds: Int64) {
        self.nanoseconds = nanoseconds
    }

    /// Creates a time of day from its parts.
    public init(hour: Int, minute: Int, second: Int, nanosecond: Int = 0) {
        nanoseconds = (Int64(hour) * 3600 + Int64(minute) * 60 + Int64(second)) * 1_000_000_000 + Int64(nanosecond)
    }

    public static func < (lhs: NMEATimeOfDay, rhs: NMEATimeOfDay) -> Bool { lhs.nanoseconds < rhs.nanoseconds }

    public var description: String {
        let seconds = nanoseconds / 1_000_000_000
        let millis = (nanoseconds / 1_000_000) % 1000
        func two(_ n: Int64) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let m = millis < 10 ? "00\(millis)" : millis < 100 ? "0\(millis)" : "\(millis)"
        return "\(two(seconds / 3600)):\(two(seconds / 60 % 60)):\(two(seconds % 60)).\(m)"
    }
}

/// A calendar date (UTC) as RMC or ZDA give it.
public struct NMEADate: Sendable, Hashable, CustomStringConvertible {
    public var year: Int
    public var month: Int
    public var day: Int

    /// Creates a date.
    public init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Days since 1970-01-01 (proleptic Gregorian), for building timestamps without Foundation.
    public var daysSince1970: Int64 {
        // Howard Hinnant's days_from_civil.
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let m = Int64(month)
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + Int64(day) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    public var description: String {
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(year)-\(two(month))-\(two(day))"
    }

    /// The years a two-digit year (RMC's `ddmmyy`) is read as by ``NMEASentenceParser``: `80` to
    /// `99` are 1980 to 1999, `00` to `79` are 2000 to 2079.
    public static let twoDigitYears = 1980...2079

    /// The years whose two-digit form both this decoder and gpsd read back as written: 2000 to
    /// 2079. gpsd adds its century, 2000, to RMC's two digits (2000 to 2099); this decoder reads
    /// 1980 to 2079. A log to be read by either (`nmea export`, `serve`) is dated within these.
    public static let yearsReadBack = 2000...2079

    /// The instants of ``yearsReadBack``, in seconds since 1970-01-01T00:00:00Z: from
    /// 2000-01-01T00:00:00Z up to (not including) 2080-01-01T00:00:00Z.
    public static let unixSecondsReadBack: Range<Double> =
        Double(NMEADate(year: yearsReadBack.lowerBound, month: 1, day: 1).daysSince1970 * 86_400)
        ..< Double(NMEADate(year: yearsReadBack.upperBound + 1, month: 1, day: 1).daysSince1970 * 86_400)

    /// `yearsReadBack` in words, for messages: `2000-01-01T00:00:00Z to 2079-12-31T23:59:59Z`.
    public static let yearsReadBackText = "\(yearsReadBack.lowerBound)-01-01T00:00:00Z to \(yearsReadBack.upperBound)-12-31T23:59:59Z"

    /// Why the range is what it is, for messages.
    public static let yearsReadBackReason = "NMEA's RMC sentence gives the year in two digits, which devicesim reads as \(twoDigitYears.lowerBound) to \(twoDigitYears.upperBound) and gpsd as 2000 to 2099"
}

/// One satellite of a GSV sentence.
public struct NMEASatellite: Sendable, Hashable {
    /// PRN as the sentence numbers it.
    public var prn: Int
    /// Elevation, degrees.
    public var elevation: Double?
    /// Azimuth, degrees.
    public var azimuth: Double?
    /// Signal-to-noise ratio, dB-Hz (absent when not tracked).
    public var snr: Double?
}

/// A decoded NMEA 0183 sentence. Every field a sentence may leave empty is optional: empty means
/// absent, never zero.
public enum NMEASentence: Sendable, Hashable {
    /// GGA: fix data.
    case gga(GGA)
    /// RMC: recommended minimum data.
    case rmc(RMC)
    /// GLL: geographic position.
    case gll(GLL)
    /// VTG: course and speed over ground.
    case vtg(VTG)
    /// GSA: DOP and active satellites.
    case gsa(GSA)
    /// GSV: satellites in view (one part of a series).
    case gsv(GSV)
    /// ZDA: date and time.
    case zda(ZDA)
    /// GST: pseudorange error statistics.
    case gst(GST)

    public struct GGA: Sendable, Hashable {
        public var talker: NMEATalker
        public var time: NMEATimeOfDay?
        public var latitude: Double?
        public var longitude: Double?
        /// Fix quality: 0 invalid, 1 GPS, 2 DGPS, 4 RTK fixed, 5 RTK float, 6 estimated, 8 simulation...
        public var quality: Int?
        public var satellitesUsed: Int?
        public var hdop: Double?
        /// Altitude above mean sea level, metres.
        public var altitude: Double?
        /// Geoid separation, metres.
        public var geoidSeparation: Double?
    }

    public struct RMC: Sendable, Hashable {
        public var talker: NMEATalker
        public var time: NMEATimeOfDay?
        /// `true` for status A (valid), `false` for V.
        public var valid: Bool
        public var latitude: Double?
        public var longitude: Double?
        /// Speed over ground, metres per second.
        public var speed: Double?
        /// Course over ground, degrees true.
        public var track: Double?
        public var date: NMEADate?
        /// Magnetic variation, degrees, east positive.
        public var magneticVariation: Double?
        /// NMEA 2.3 mode indicator (A autonomous, D differential, E estimated, N not valid...).
        public var modeIndicator: UInt8?
    }

    public struct GLL: Sendable, Hashable {
        public var talker: NMEATalker
        public var latitude: Double?
        public var longitude: Double?
        public var time: NMEATimeOfDay?
        public var valid: Bool
        public var modeIndicator: UInt8?
    }

    public struct VTG: Sendable, Hashable {
        public var talker: NMEATalker
        public var track: Double?
        public var magneticTrack: Double?
        /// Metres per second.
        public var speed: Double?
        public var modeIndicator: UInt8?
    }

    public struct GSA: Sendable, Hashable {
        public var talker: NMEATalker
        /// 1 no fix, 2 2D, 3 3D.
        public var fixType: Int?
        public var satellitesUsed: [Int]
        public var pdop: Double?
        public var hdop: Double?
        public var vdop: Double?
        /// NMEA 4.1 GNSS system id.
        public var systemID: Int?
    }

    public struct GSV: Sendable, Hashable {
        public var talker: NMEATalker
        public var messageCount: Int
        public var messageNumber: Int
        public var satellitesInView: Int?
        public var satellites: [NMEASatellite]
    }

    public struct ZDA: Sendable, Hashable {
        public var talker: NMEATalker
        public var time: NMEATimeOfDay?
        public var date: NMEADate?
    }

    public struct GST: Sendable, Hashable {
        public var talker: NMEATalker
        public var time: NMEATimeOfDay?
        public var rms: Double?
        public var latitudeError: Double?
        public var longitudeError: Double?
        public var altitudeError: Double?
    }
}

/// The two-letter talker of a sentence (`GP`, `GN`, `GL`, `GA`, `GB`, `BD`, `GQ`, `GI`, ...).
public struct NMEATalker: Sendable, Hashable, CustomStringConvertible {
    public var first: UInt8
    public var second: UInt8

    /// Creates a talker from its two ASCII letters.
    public init(_ first: UInt8, _ second: UInt8) {
        self.first = first
        self.second = second
    }

    public var description: String { String(decoding: [first, second], as: UTF8.self) }
}

extension NMEADate {
    /// The date `days` after 1970-01-01 (Howard Hinnant's civil_from_days).
    public init(daysSince1970 days: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        self.init(year: Int(yoe + era * 400 + (month <= 2 ? 1 : 0)), month: Int(month), day: Int(day))
    }
}

extension NMEAFix {
    /// Sets date and time of day from nanoseconds since 1970-01-01T00:00:00Z.
    public mutating func setTime(unixNanoseconds: Int64) {
        let day = unixNanoseconds >= 0 ? unixNanoseconds / 86_400_000_000_000 : (unixNanoseconds - 86_399_999_999_999) / 86_400_000_000_000
        date = NMEADate(daysSince1970: day)
        timeOfDay = NMEATimeOfDay(nanoseconds: unixNanoseconds - day * 86_400_000_000_000)
    }
}
