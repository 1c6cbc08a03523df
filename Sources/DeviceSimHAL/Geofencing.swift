import DeviceSimClock

/// A circular region to monitor: the capability behind iOS `CLLocationManager` region monitoring
/// (`CLCircularRegion`) and Android's `GeofencingClient` (`Geofence.Builder().setCircularRegion`).
///
/// ```swift
/// let home = GeofenceRegion(id: "home", center: GeoCoordinate(latitude: 52.5145, longitude: 13.3501), radius: 150)
/// try device.geofences?.startMonitoring(home)
/// ```
public struct GeofenceRegion: Sendable, Hashable {
    /// The name events carry (Android's request id, iOS's identifier).
    public var id: String
    /// The centre of the circle.
    public var center: GeoCoordinate
    /// The radius in metres.
    public var radius: Double
    /// The transitions the app wants to hear about (Android's `setTransitionTypes`).
    public var transitions: Set<GeofenceTransition>
    /// How long the device must stay inside before a dwell event (Android's `setLoiteringDelay`).
    public var loiteringDelay: Duration

    /// The loitering delay when none is given: 30 s.
    public static let defaultLoiteringDelay: Duration = .seconds(30)

    /// Creates a region; by default it reports every transition and dwells after 30 s.
    public init(
        id: String, center: GeoCoordinate, radius: Double,
        transitions: Set<GeofenceTransition> = [.enter, .exit, .dwell], loiteringDelay: Duration = GeofenceRegion.defaultLoiteringDelay
    ) {
        self.id = id
        self.center = center
        self.radius = radius
        self.transitions = transitions
        self.loiteringDelay = loiteringDelay
    }
}

/// A geofence transition (Android's `GEOFENCE_TRANSITION_ENTER`, `_EXIT`, `_DWELL`).
public enum GeofenceTransition: String, Sendable, Hashable, CaseIterable {
    /// The device came inside the region.
    case enter
    /// The device left the region.
    case exit
    /// The device has stayed inside for the region's loitering delay.
    case dwell
}

/// A transition of one monitored region, as the app receives it.
public struct GeofenceEvent: Sendable, Hashable {
    /// The region's id.
    public var region: String
    /// What happened.
    public var transition: GeofenceTransition
    /// The fix that triggered it (for a dwell: the last fix inside).
    public var coordinate: GeoCoordinate

    /// Creates an event.
    public init(region: String, transition: GeofenceTransition, coordinate: GeoCoordinate) {
        self.region = region
        self.transition = transition
        self.coordinate = coordinate
    }
}

/// Why a region could not be monitored.
public enum GeofenceError: Error, Equatable, CustomStringConvertible {
    /// The app already monitors as many regions as the platform allows.
    case tooManyRegions(limit: Int)
    /// The radius is not a positive number of metres.
    case invalidRadius(region: String, radius: Double)

    public var description: String {
        switch self {
        case .tooManyRegions(let limit):
            "an app can monitor at most \(limit) regions at once; stop monitoring one (or monitor the nearest ones only) first"
        case .invalidRadius(let region, let radius):
            "region '\(region)': the radius must be a positive number of metres, not \(radius)"
        }
    }
}

/// The device's geofence monitoring: regions the app registers, and their transitions as the device's
/// location moves in and out of them.
///
/// Events are delivered on the simulation's thread, in order.
///
/// ```swift
/// try geofences.startMonitoring(GeofenceRegion(id: "office", center: office, radius: 200))
/// subscription = geofences.observe { event in
///     if event.region == "office", event.transition == .enter { askArrived() }
/// }
/// ```
public protocol GeofenceMonitoring: AnyObject {
    /// The regions monitored now, in the order they were added.
    var monitoredRegions: [GeofenceRegion] { get }
    /// The most regions the app may monitor at once.
    var maximumRegions: Int { get }

    /// Starts monitoring `region` (replacing a region with the same id).
    func startMonitoring(_ region: GeofenceRegion) throws(GeofenceError)
    /// Stops monitoring the region with this id; nothing happens when there is none.
    func stopMonitoring(_ id: String)
    /// Registers `observer` for every later transition; it stays registered while the subscription lives.
    func observe(_ observer: @escaping (GeofenceEvent) -> Void) -> ObservationToken
}
