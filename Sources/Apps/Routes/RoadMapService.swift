import DeviceSimHAL
import DeviceSimRoads
import DeviceSimSimulated

/// The routes app's online map service in a scenario: place suggestions from the world's `places:`
/// and the OpenStreetMap names of its roads, fastest routes on the roads for one travel mode.
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

    /// The world's places whose names contain `query` (ignoring case), by name, then OSM names.
    func suggestions(for query: String, near position: GeoCoordinate) -> [RoutePlace] {
        let needle = query.trimmingCharacters(in: .whitespaces).lowercased()
        guard !needle.isEmpty else { return [] }
        var found = world.places.filter { $0.key.lowercased().contains(needle) }.sorted { $0.key < $1.key }
            .map { RoutePlace(name: $0.key, coordinate: $0.value) }
        for place in world.roads?.places.search(query, limit: Self.suggestionLimit) ?? [] where !found.contains(where: { $0.name == place.name }) {
            found.append(RoutePlace(name: place.name, coordinate: place.coordinate))
        }
        return Array(found.prefix(Self.suggestionLimit))
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
            return PlannedRoute(start: start, places: places, mode: mode.rawValue, metres: route.metres, seconds: route.seconds)
        case .failure(.unreachable(_, let place, _)):
            throw .unreachable(place: place)
        case .failure:
            throw .noRoads
        }
    }
}
