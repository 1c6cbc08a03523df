import DeviceSimHAL
import DeviceSimRoads
import DeviceSimSimulated

/// The routes app's online map service in a scenario: place suggestions from the world's `places:`
/// and the OpenStreetMap names and addresses of its extract, fastest routes on the roads for one
/// travel mode (a place more than 100 m from every street fails with "no street within 100 m").
///
/// ```swift
/// let service = RoadMapService(world: world, mode: .foot)
/// let route = try service.fastestRoute(from: here, through: service.suggestions(for: "ateneum", near: here))
/// ```
final class RoadMapService: MapService {
    /// How many suggestions a search shows at most.
    static let suggestionLimit = 5

    let world: World
    let mode: TravelMode

    init(world: World, mode: TravelMode) {
        self.world = world
        self.mode = mode
    }

    /// The world's places and the OpenStreetMap names and addresses matching `query` (ignoring case,
    /// accents and punctuation, one typo tolerated), by how well they match, then nearest first.
    func suggestions(for query: String, near position: GeoCoordinate) -> [RoutePlace] {
        let own = PlaceIndex(world.places.sorted { $0.key < $1.key }.map { Place(name: $0.key, coordinate: $0.value, source: .world) })
        var found = own.matches(for: query, near: position, limit: Self.suggestionLimit).map { ($0, 0) }
        found += (world.roads?.places.matches(for: query, near: position, limit: Self.suggestionLimit) ?? []).map { ($0, 1) }
        found.sort { ($0.0.match, $0.0.distance, $0.1) < ($1.0.match, $1.0.distance, $1.1) }
        // One suggestion per name: the world's place of that name if there is one (the document's
        // places come first), else the nearest; at the rank of its name's best match.
        let worldNames = Set(found.filter { $0.1 == 0 }.map(\.0.place.name))
        var names = Set<String>(), suggestions: [RoutePlace] = []
        for (match, source) in found where (source == 0 || !worldNames.contains(match.place.name)) && names.insert(match.place.name).inserted {
            suggestions.append(RoutePlace(name: match.place.name, coordinate: match.place.coordinate))
        }
        return Array(suggestions.prefix(Self.suggestionLimit))
    }

    /// The place named exactly `name` (a world place, or an OSM name), for settings.
    func place(named name: String) -> RoutePlace? {
        if let coordinate = world.places[name] { return RoutePlace(name: name, coordinate: coordinate) }
        return world.roads?.places.place(named: name).map { RoutePlace(name: $0.name, coordinate: $0.coordinate) }
    }

    func fastestRoute(from start: GeoCoordinate, through places: [RoutePlace]) throws(MapServiceError) -> PlannedRoute {
        guard let roads = world.roads else { throw .noRoads }
        var planner = RoutePlanner(network: roads, mode: mode)
        switch planner.route(from: start, through: places.map { RouteStop(name: $0.name, coordinate: $0.coordinate) }, order: .given) {
        case .success(let route):
            var planned = PlannedRoute(start: start, places: places, mode: mode.rawValue, metres: route.metres, seconds: route.seconds)
            planned.path = route.points
            return planned
        case .failure(.unreachable(_, let place, _)):
            throw .unreachable(place: place)
        case .failure(.noStreetNearby(let place, let limit, _)):
            throw .noStreetNearby(place: place, metres: Int(limit))
        case .failure:
            throw .noRoads
        }
    }
}
