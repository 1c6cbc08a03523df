import DeviceSimClock
import Foundation

/// How good a position fix is, as receivers and gpsd report it.
public enum FixMode: Int, Sendable, Hashable, Codable, CustomStringConvertible {
    /// No position (searching, or the signal is lost).
    case noFix = 1
    /// Latitude and longitude only.
    case twoDimensional = 2
    /// Latitude, longitude and altitude.
    case threeDimensional = 3

    public var description: String {
        switch self {
        case .noFix: "no-fix"
        case .twoDimensional: "2d"
        case .threeDimensional: "3d"
        }
    }
}

/// One position report from a location source, with every field a receiver may leave out optional.
public struct LocationFix: Sendable, Hashable {
    /// When the fix reached the device, in the simulation's (or live run's) time.
    public var receivedAt: VirtualInstant
    /// The fix's own UTC time, when the source knows it.
    public var time: Date?
    /// The position.
    public var coordinate: GeoCoordinate
    /// Altitude above mean sea level, in metres.
    public var altitude: Double?
    /// Speed over ground, in metres per second.
    public var speed: Double?
    /// Course over ground, in degrees clockwise from true north.
    public var course: Double?
    /// Estimated horizontal error (one sigma), in metres.
    public var horizontalAccuracy: Double?
    /// Estimated vertical error (one sigma), in metres.
    public var verticalAccuracy: Double?
    /// 2D or 3D.
    public var mode: FixMode
    /// Satellites used in the solution.
    public var satellitesUsed: Int?

    /// Creates a fix.
    public init(
        receivedAt: VirtualInstant,
        time: Date? = nil,
        coordinate: GeoCoordinate,
        altitude: Double? = nil,
        speed: Double? = nil,
        course: Double? = nil,
        horizontalAccuracy: Double? = nil,
        verticalAccuracy: Double? = nil,
        mode: FixMode = .threeDimensional,
        satellitesUsed: Int? = nil
    ) {
        self.receivedAt = receivedAt
        self.time = time
        self.coordinate = coordinate
        self.altitude = altitude
        self.speed = speed
        self.course = course
        self.horizontalAccuracy = horizontalAccuracy
        self.verticalAccuracy = verticalAccuracy
        self.mode = mode
        self.satellitesUsed = satellitesUsed
    }
}

/// One satellite as a receiver reports it in view.
public struct SatelliteInfo: Sendable, Hashable {
    /// PRN / satellite id.
    public var prn: Int
    /// Elevation in degrees.
    public var elevation: Double?
    /// Azimuth in degrees.
    public var azimuth: Double?
    /// Signal-to-noise ratio in dB-Hz.
    public var snr: Double?
    /// Whether the satellite is used in the current solution.
    public var used: Bool

    /// Creates a satellite report.
    public init(prn: Int, elevation: Double? = nil, azimuth: Double? = nil, snr: Double? = nil, used: Bool = false) {
        self.prn = prn
        self.elevation = elevation
        self.azimuth = azimuth
        self.snr = snr
        self.used = used
    }
}
