import DeviceSimHAL
import DeviceSimRoads
import DeviceSimSimulated

/// A `do: follow-route` step: the device travels the fastest route on the world's roads from where
/// it is, through places in order (or in the fastest order), at the roads' speeds for its mode.
///
/// ```yaml
/// - at: 10s
///   do: follow-route
///   through: [Ateneum, Kiasma, [60.1699, 24.9384]]   # or `to: Kiasma`
///   mode: foot                                      # foot (default), bike or car
///   order: fastest                                  # given (default) or fastest (up to 8 stops)
/// ```
///
/// Places are the world's `places:` first, then OSM names (nodes, then streets), ignoring case and
/// accents. When a stop cannot be reached the device stays where it is and the step's trace says so.
public struct FollowRouteSpec: Sendable {
    /// The step keys of the action besides `to`.
    static let ownKeys = ["through", "mode", "order"]

    /// The stops, in the given order.
    public var stops: [RouteStop]
    /// The travel mode.
    public var mode: TravelMode
    /// Given or fastest order.
    public var order: RoutePlanner.Order

    /// Creates a spec.
    public init(stops: [RouteStop], mode: TravelMode = .foot, order: RoutePlanner.Order = .given) {
        self.stops = stops
        self.mode = mode
        self.order = order
    }

    static func parse(_ map: YAMLMapping, step: YAMLNode, world: World?) throws(ScenarioError) -> FollowRouteSpec {
        guard let roads = world?.roads else {
            throw step.error("follow-route needs a world with roads (a world file with 'roads: { osm: file.osm.pbf }')")
        }
        let stopNodes: [YAMLNode]
        switch (map.optional("to"), map.optional("through")) {
        case (let to?, nil): stopNodes = [to]
        case (nil, let through?): stopNodes = try through.sequence(what: "list of places")
        case (nil, nil): throw step.error("follow-route needs 'to: place' or 'through: [place, ...]'")
        case (_?, _?): throw step.error("follow-route takes 'to' or 'through', not both")
        }
        guard !stopNodes.isEmpty else { throw try map.required("through").error("follow-route needs at least one place") }
        var stops: [RouteStop] = []
        for node in stopNodes { stops.append(try stop(node, world: world!, roads: roads)) }
        let mode = try map.optional("mode").map { (n) throws(ScenarioError) in TravelMode(rawValue: try n.choice(TravelMode.allCases.map(\.rawValue), what: "travel mode"))! } ?? .foot
        let order = try map.optional("order").map { (n) throws(ScenarioError) in RoutePlanner.Order(rawValue: try n.choice(["given", "fastest"], what: "route order"))! } ?? .given
        if order == .fastest, stops.count > RoutePlanner.maximumStopsToReorder {
            throw try map.required("through").error("order: fastest takes up to \(RoutePlanner.maximumStopsToReorder) places, found \(stops.count)")
        }
        return FollowRouteSpec(stops: stops, mode: mode, order: order)
    }

    private static func stop(_ node: YAMLNode, world: World, roads: RoadNetwork) throws(ScenarioError) -> RouteStop {
        if node.isSequence { return RouteStop(name: try node.coordinate().description, coordinate: try node.coordinate()) }
        let name = try node.string(what: "a place name or [latitude, longitude]")
        if let coordinate = world.places[name] { return RouteStop(name: name, coordinate: coordinate) }
        if let place = roads.places.place(named: name) { return RouteStop(place) }
        var message = "unknown place '\(MessageText.excerpt(name))' (neither in the world's places nor an OpenStreetMap name)"
        let suggestions = roads.places.search(name, limit: 3).map(\.name)
        if !suggestions.isEmpty { message += "; did you mean \(suggestions.map { "'\($0)'" }.joined(separator: ", "))?" }
        throw node.error(message)
    }

    /// Plans the route from `start`: the route to follow (nil when a stop cannot be reached) and the
    /// step's trace fields (`mode`, `stops`, `length` in metres, `time` in seconds, or `unreachable`).
    /// The same for the same network and start, so a report can draw the route the run took.
    /// `places` (the world's) name the start when it is one of them (within 5 m), in a failure.
    public func plan(on roads: RoadNetwork, from start: GeoCoordinate, places: [String: GeoCoordinate] = [:]) -> (Route?, [(key: String, value: TraceValue)]) {
        var planner = RoutePlanner(network: roads, mode: mode)
        var fields: [(key: String, value: TraceValue)] = [("mode", .string(mode.rawValue))]
        let startName = places.filter { $0.value.distance(to: start) <= 5 }.min { ($0.value.distance(to: start), $0.key) < ($1.value.distance(to: start), $1.key) }?.key
        switch planner.route(from: start, through: stops, order: order, startName: startName ?? "start") {
        case .success(let route):
            fields += [
                ("stops", .string(route.stops.map(\.name).joined(separator: " > "))),
                ("length", .double((route.metres * 10).rounded() / 10)), ("time", .double((route.seconds * 10).rounded() / 10)),
            ]
            return (Route(route), fields)
        case .failure(let failure):
            fields += [("stops", .string(stops.map(\.name).joined(separator: " > "))), ("unreachable", .string(failure.description))]
            return (nil, fields)
        }
    }
}
