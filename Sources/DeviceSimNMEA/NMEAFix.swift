/// A receiver's fix as assembled from the sentences of one epoch, with gpsd's meaning for each field
/// (gpsd's TPV report). Every field may be absent.
public struct NMEAFix: Sendable, Hashable {
    /// UTC time of day of the epoch.
    public var timeOfDay: NMEATimeOfDay?
    /// The UTC date, once an RMC or ZDA sentence gave one.
    public var date: NMEADate?
    /// 0 not seen, 1 no fix, 2 2D, 3 3D (gpsd's `mode`).
    public var mode: Int = 0
    /// GGA fix quality (gpsd's `status` when above 1).
    public var quality: Int?
    /// Degrees, north positive.
    public var latitude: Double?
    /// Degrees, east positive.
    public var longitude: Double?
    /// Altitude above mean sea level, metres (gpsd's `altMSL`).
    public var altitudeMSL: Double?
    /// Geoid separation, metres (gpsd's `geoidSep`).
    public var geoidSeparation: Double?
    /// Speed over ground, m/s.
    public var speed: Double?
    /// Course over ground, degrees true.
    public var track: Double?
    /// Magnetic variation, degrees, east positive.
    public var magneticVariation: Double?
    /// Dilutions of precision.
    public var hdop: Double?, vdop: Double?, pdop: Double?
    /// Satellites used in the solution.
    public var satellitesUsed: Int?
    /// One-sigma errors from GST, metres.
    public var latitudeError: Double?, longitudeError: Double?, altitudeError: Double?

    /// Creates an empty fix.
    public init() {}

    /// Whether the fix has a position (mode 2D or 3D with latitude and longitude).
    public var hasPosition: Bool { mode >= 2 && latitude != nil && longitude != nil }

    /// Nanoseconds since 1970-01-01T00:00:00Z, when both date and time of day are known.
    public var unixNanoseconds: Int64? {
        guard let date, let timeOfDay else { return nil }
        return date.daysSince1970 * 86_400_000_000_000 + timeOfDay.nanoseconds
    }

    /// The time as gpsd prints it, `2007-12-23T19:32:21.000Z`, when date and time are known.
    public var isoTime: String? {
        guard let date, let timeOfDay else { return nil }
        return "\(date)T\(timeOfDay)Z"
    }
}

/// The satellites in view at one moment (gpsd's SKY report).
public struct NMEASkyView: Sendable, Hashable {
    /// The satellites, in the order the receiver listed them.
    public var satellites: [Satellite]
    /// Dilutions of precision at the time.
    public var hdop: Double?, vdop: Double?, pdop: Double?

    /// One satellite in view.
    public struct Satellite: Sendable, Hashable {
        /// PRN.
        public var prn: Int
        /// Elevation, degrees.
        public var elevation: Double?
        /// Azimuth, degrees.
        public var azimuth: Double?
        /// dB-Hz.
        public var snr: Double?
        /// Whether the last GSA listed it as used.
        public var used: Bool
    }
}
