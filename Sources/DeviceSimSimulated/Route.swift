import DeviceSimHAL

/// A scripted path: a start point, then waypoints reached at a speed, with optional pauses.
///
/// ```swift
/// let route = Route(
///     start: GeoCoordinate(latitude: 52.5200, longitude: 13.4050),
///     waypoints: [
///         .init(GeoCoordinate(latitude: 52.5230, longitude: 13.4100)),
///         .init(GeoCoordinate(latitude: 52.5250, longitude: 13.4200), speed: SpeedPreset.run.metresPerSecond, pause: .seconds(30)),
///     ],
///     speed: SpeedPreset.walk.metresPerSecond
/// )
/// ```
public struct Route: Sendable, Hashable {
    /// One waypoint of a route.
    public struct Waypoint: Sendable, Hashable {
        /// Where the waypoint is.
        public var coordinate: GeoCoordinate
        /// Speed on the leg that ends here, in m/s (nil: the route's speed).
        public var speed: Double?
        /// How long to stay here after arriving.
        public var pause: Duration
        /// Altitude above mean sea level at the waypoint, in metres.
        public var altitude: Double?

        /// Creates a waypoint.
        public init(_ coordinate: GeoCoordinate, speed: Double? = nil, pause: Duration = .zero, altitude: Double? = nil) {
            self.coordinate = coordinate
            self.speed = speed
            self.pause = pause
            self.altitude = altitude
        }
    }

    /// Where the route begins.
    public var start: GeoCoordinate
    /// Altitude at the start, in metres.
    public var startAltitude: Double?
    /// The waypoints, in order.
    public var waypoints: [Waypoint]
    /// The default speed, in m/s.
    public var speed: Double

    /// Creates a route.
    public init(start: GeoCoordinate, startAltitude: Double? = nil, waypoints: [Waypoint], speed: Double = SpeedPreset.walk.metresPerSecond) {
        self.start = start
        self.startAltitude = startAltitude
        self.waypoints = waypoints
        self.speed = speed
    }

    /// The length of the route along great circles, in metres.
    public var length: Double {
        var previous = start
        var total = 0.0
        for waypoint in waypoints {
            total += previous.distance(to: waypoint.coordinate)
            previous = waypoint.coordinate
        }
        return total
    }
}

/// The usual speeds of moving people and vehicles, in metres per second.
public enum SpeedPreset: String, Sendable, CaseIterable {
    case walk, run, bike, drive

    /// The preset's speed: walk 1.4, run 3, bike 5, drive 14 m/s.
    public var metresPerSecond: Double {
        switch self {
        case .walk: 1.4
        case .run: 3
        case .bike: 5
        case .drive: 14
        }
    }
}
