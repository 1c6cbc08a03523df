import CGPS
import Foundation

/// A TPV report from gpsd, every field optional (libgps marks absent values as NaN).
public struct GPSDFix: Sendable, Hashable {
    /// 0 unknown, 1 no fix, 2 2D, 3 3D.
    public var mode: Int
    /// UTC time of the fix.
    public var time: Date?
    public var latitude: Double?
    public var longitude: Double?
    /// Altitude above mean sea level, metres.
    public var altitudeMSL: Double?
    /// Metres per second.
    public var speed: Double?
    /// Degrees true.
    public var track: Double?
    /// Horizontal and vertical error estimates, metres.
    public var horizontalError: Double?
    public var verticalError: Double?
    public var satellitesUsed: Int?
    /// Horizontal dilution of precision, from the latest SKY report gpsd sent before this fix.
    public var hdop: Double?

    /// Whether the report has a position.
    public var hasPosition: Bool { mode >= 2 && latitude != nil && longitude != nil }

    /// Creates a fix.
    public init(mode: Int, time: Date? = nil, latitude: Double? = nil, longitude: Double? = nil, altitudeMSL: Double? = nil, speed: Double? = nil, track: Double? = nil, horizontalError: Double? = nil, verticalError: Double? = nil, satellitesUsed: Int? = nil, hdop: Double? = nil) {
        self.mode = mode
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.altitudeMSL = altitudeMSL
        self.speed = speed
        self.track = track
        self.horizontalError = horizontalError
        self.verticalError = verticalError
        self.satellitesUsed = satellitesUsed
        self.hdop = hdop
    }

    init(_ fix: gps_fix_t, satellitesUsed: Int32, hdop: Double) {
        func finite(_ value: Double) -> Double? { value.isFinite ? value : nil }
        let seconds = Double(fix.time.tv_sec) + Double(fix.time.tv_nsec) / 1e9
        self.init(
            mode: Int(fix.mode),
            time: fix.time.tv_sec > 0 ? Date(timeIntervalSince1970: seconds) : nil,
            latitude: fix.mode >= 2 ? finite(fix.latitude) : nil,
            longitude: fix.mode >= 2 ? finite(fix.longitude) : nil,
            altitudeMSL: fix.mode >= 3 ? finite(fix.altMSL) : nil,
            speed: finite(fix.speed),
            track: finite(fix.track),
            horizontalError: finite(fix.eph),
            verticalError: finite(fix.epv),
            satellitesUsed: satellitesUsed > 0 ? Int(satellitesUsed) : nil,
            hdop: hdop.isFinite && hdop > 0 ? hdop : nil)
    }
}

/// One satellite of a SKY report.
public struct GPSDSatellite: Sendable, Hashable {
    public var prn: Int
    public var elevation: Double?
    public var azimuth: Double?
    public var snr: Double?
    public var used: Bool

    init(_ satellite: satellite_t) {
        prn = Int(satellite.PRN)
        elevation = satellite.elevation.isFinite ? satellite.elevation : nil
        azimuth = satellite.azimuth.isFinite ? satellite.azimuth : nil
        snr = satellite.ss.isFinite ? satellite.ss : nil
        used = satellite.used
    }
}
