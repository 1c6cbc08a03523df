import DeviceSimHAL

/// A place the routes app can route through: a name and where it is.
public struct RoutePlace: Sendable, Hashable, Codable {
    /// The name the user sees.
    public var name: String
    /// Where it is.
    public var coordinate: GeoCoordinate

    /// Creates a place.
    public init(name: String, coordinate: GeoCoordinate) {
        self.name = name
        self.coordinate = coordinate
    }
}

/// A fastest route the map service planned: from a start through places in order.
public struct PlannedRoute: Sendable, Hashable, Codable {
    /// Where the route starts (the device's location when it was planned).
    public var start: GeoCoordinate
    /// The places it goes through, in order (the last is the destination).
    public var places: [RoutePlace]
    /// The travel mode (`foot`, `bike`, `car`).
    public var mode: String
    /// Its length in metres.
    public var metres: Double
    /// Its travel time in seconds.
    public var seconds: Double
    /// The line it follows on the roads, from the start through every place (nil when the map service
    /// gave none, as for a route read back from the database): the trace's `path` of `route.shown`.
    public var path: [GeoCoordinate]?

    /// Creates a route.
    public init(start: GeoCoordinate, places: [RoutePlace], mode: String, metres: Double, seconds: Double) {
        self.start = start
        self.places = places
        self.mode = mode
        self.metres = metres
        self.seconds = seconds
    }
}

/// A route the user saved under a name.
public struct SavedRoute: Sendable, Hashable, Codable {
    /// The database's id for it.
    public var id: Int
    /// The name the user gave it.
    public var name: String
    /// The route.
    public var route: PlannedRoute

    /// Creates a saved route.
    public init(id: Int, name: String, route: PlannedRoute) {
        self.id = id
        self.name = name
        self.route = route
    }
}

/// Why the map service could not answer.
public enum MapServiceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A place cannot be reached from the one before it.
    case unreachable(place: String)
    /// A place (or `start`) is farther than `metres` from every street the route could take.
    case noStreetNearby(place: String, metres: Int)
    /// The service has no roads to route on.
    case noRoads

    public var description: String {
        switch self {
        case .unreachable(let place): "'\(place)' cannot be reached by road"
        case .noRoads: "no road map is available here"
        case .noStreetNearby(let place, let metres): "no street within \(metres) m of '\(place)'"
        }
    }
}

/// The online map service the routes app queries: place suggestions and fastest routes. The app only
/// calls it while the device is online.
///
/// ```swift
/// let places = try service.suggestions(for: "kamp", near: here)
/// let route = try service.fastestRoute(from: here, through: [places[0]])
/// ```
public protocol MapService: AnyObject {
    /// Places whose names match `query`, best first (empty: nothing matches).
    func suggestions(for query: String, near position: GeoCoordinate) -> [RoutePlace]
    /// The fastest route from `start` through `places` in the given order.
    func fastestRoute(from start: GeoCoordinate, through places: [RoutePlace]) throws(MapServiceError) -> PlannedRoute
}

/// Where the routes app keeps saved routes on the device; each call is all or nothing.
public protocol RoutesStore: AnyObject {
    /// The saved routes, oldest first.
    func load() throws(StorageError) -> [SavedRoute]
    /// Saves a new route under `name`; returns it with its id.
    func insert(name: String, route: PlannedRoute) throws(StorageError) -> SavedRoute
    /// Replaces the saved route with `route.id`.
    func update(_ route: SavedRoute) throws(StorageError)
    /// Deletes the saved route `id`.
    func delete(id: Int) throws(StorageError)
}

/// A ``RoutesStore`` in memory, for tests.
public final class InMemoryRoutesStore: RoutesStore {
    /// What is saved.
    public private(set) var routes: [SavedRoute]
    private var nextID: Int

    /// A store holding `routes`.
    public init(_ routes: [SavedRoute] = []) {
        self.routes = routes
        nextID = (routes.map(\.id).max() ?? 0) + 1
    }

    public func load() throws(StorageError) -> [SavedRoute] { routes }

    public func insert(name: String, route: PlannedRoute) throws(StorageError) -> SavedRoute {
        let saved = SavedRoute(id: nextID, name: name, route: route)
        nextID += 1
        routes.append(saved)
        return saved
    }

    public func update(_ route: SavedRoute) throws(StorageError) {
        if let index = routes.firstIndex(where: { $0.id == route.id }) { routes[index] = route }
    }

    public func delete(id: Int) throws(StorageError) {
        routes.removeAll { $0.id == id }
    }
}
