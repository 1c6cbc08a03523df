import DeviceSimHAL

/// A stop of a route: a named position.
public struct RouteStop: Sendable, Hashable {
    /// The stop's name (a place name, or a coordinate's text).
    public var name: String
    /// Where it is.
    public var coordinate: GeoCoordinate

    /// Creates a stop.
    public init(name: String, coordinate: GeoCoordinate) {
        self.name = name
        self.coordinate = coordinate
    }

    /// A stop at `place`.
    public init(_ place: Place) { self.init(name: place.name, coordinate: place.coordinate) }
}

/// A planned route on the roads, from a position through stops.
///
/// The route starts at the position itself, goes straight to the nearest road node (the snap), then
/// along roads to the node nearest each stop and straight on to the stop. Those straight snap legs
/// are travelled at ``RoutePlanner/offRoadSpeed`` and included in the times and lengths.
public struct RoadRoute: Sendable, Hashable {
    /// One leg: from the previous stop (or the start) to a stop.
    public struct Leg: Sendable, Hashable {
        /// The stop this leg ends at.
        public var stop: RouteStop
        /// Travel time of the leg, seconds.
        public var seconds: Double
        /// Length of the leg, metres.
        public var metres: Double
    }

    /// The travel mode.
    public var mode: TravelMode
    /// The legs, in travel order.
    public var legs: [Leg]
    /// The route's points: the start, road nodes, the stops.
    public var points: [GeoCoordinate]
    /// The speed on each segment between consecutive ``points``, m/s (0 for a segment of no length
    /// where a stop coincides with its road node).
    public var speeds: [Double]

    /// The stops in travel order.
    public var stops: [RouteStop] { legs.map(\.stop) }
    /// Total travel time, seconds.
    public var seconds: Double { legs.reduce(0) { $0 + $1.seconds } }
    /// Total length, metres.
    public var metres: Double { legs.reduce(0) { $0 + $1.metres } }
}

/// Why no route could be planned.
public enum RoutingFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The network has no roads for the mode.
    case noRoads(TravelMode)
    /// A stop cannot be reached from the previous one by this mode.
    case unreachable(from: String, to: String, mode: TravelMode)
    /// The route has no stops.
    case noStops
    /// More stops than the fastest-order search takes.
    case tooManyStopsToReorder(count: Int, limit: Int)

    public var description: String {
        switch self {
        case .noRoads(let mode): "the road network has no roads for \(mode.rawValue)"
        case .unreachable(let from, let to, let mode): "'\(to)' cannot be reached from '\(from)' by \(mode.rawValue)"
        case .noStops: "a route needs at least one stop"
        case .tooManyStopsToReorder(let count, let limit): "the fastest order is found for up to \(limit) stops, this route has \(count)"
        }
    }
}

/// Plans the fastest route from a position through stops, in the given order or in the fastest order.
///
/// Each leg is the least-time path between the nodes nearest its ends (``RouteSearch``, A* with landmarks). The
/// fastest order (``Order/fastest``, up to ``maximumStopsToReorder`` stops, the route ends at the last
/// stop visited) takes the travel times between all stops from one Dijkstra search per stop, then
/// the exact best order by dynamic programming over subsets of stops (Held-Karp).
///
/// ```swift
/// var planner = RoutePlanner(network: network, mode: .bike)
/// switch planner.route(from: here, through: stops, order: .fastest) {
/// case .success(let route): print(route.seconds, route.stops.map(\.name))
/// case .failure(let failure): print(failure)   // "'Suomenlinna' cannot be reached from 'Kiasma' by bike"
/// }
/// ```
public struct RoutePlanner {
    /// In which order the stops are visited.
    public enum Order: String, Sendable, Hashable {
        /// As given.
        case given
        /// The order of least total time.
        case fastest
    }

    /// The most stops ``Order/fastest`` takes.
    public static let maximumStopsToReorder = 8
    /// Speed on the straight legs between a position and its nearest road node, m/s (walking pace
    /// on foot and bike, pushing it; slow for a car leaving a car park).
    public static func offRoadSpeed(_ mode: TravelMode) -> Double {
        switch mode {
        case .foot, .bike: 5 / 3.6
        case .car: 10 / 3.6
        }
    }

    /// The network.
    public let network: RoadNetwork
    /// The travel mode.
    public let mode: TravelMode
    private var search: RouteSearch

    /// A planner for `mode` on `network`.
    public init(network: RoadNetwork, mode: TravelMode) {
        self.network = network
        self.mode = mode
        search = RouteSearch(network.graph(for: mode))
    }

    /// The fastest route from `start` through `stops`.
    public mutating func route(from start: GeoCoordinate, through stops: [RouteStop], order: Order = .given) -> Result<RoadRoute, RoutingFailure> {
        guard !stops.isEmpty else { return .failure(.noStops) }
        guard let first = network.nearestNode(to: start, for: mode) else { return .failure(.noRoads(mode)) }
        var snapped: [(node: Int32, distance: Double)] = []
        for stop in stops { snapped.append(network.nearestNode(to: stop.coordinate, for: mode)!) }
        var sequence = Array(stops.indices)
        if order == .fastest, stops.count > 1 {
            guard stops.count <= Self.maximumStopsToReorder else { return .failure(.tooManyStopsToReorder(count: stops.count, limit: Self.maximumStopsToReorder)) }
            switch fastestOrder(start: first.node, stops: stops, snapped: snapped.map(\.node)) {
            case .success(let best): sequence = best
            case .failure(let failure): return .failure(failure)
            }
        }
        let graph = network.graph(for: mode)
        let offRoad = Self.offRoadSpeed(mode)
        var points = [start, graph.coordinates[Int(first.node)]]
        var speeds = [offRoad]
        var legs: [RoadRoute.Leg] = []
        var from = (name: "start", node: first.node, offRoadSeconds: first.distance / offRoad, offRoadMetres: first.distance)
        for index in sequence {
            let stop = stops[index], end = snapped[index]
            guard let path = search.fastestPath(from: from.node, to: end.node) else {
                return .failure(.unreachable(from: from.name, to: stop.name, mode: mode))
            }
            var metres = from.offRoadMetres + end.distance
            for (a, b) in zip(path.nodes, path.nodes.dropFirst()) {
                let length = graph.coordinates[Int(a)].distance(to: graph.coordinates[Int(b)])
                let seconds = graph.seconds(from: a, to: b)!
                metres += length
                points.append(graph.coordinates[Int(b)])
                speeds.append(seconds > 0 ? length / seconds : 0)
            }
            points.append(stop.coordinate)
            speeds.append(offRoad)
            legs.append(.init(stop: stop, seconds: from.offRoadSeconds + path.seconds + end.distance / offRoad, metres: metres))
            // The next leg leaves the stop back to its road node.
            points.append(graph.coordinates[Int(end.node)])
            speeds.append(offRoad)
            from = (stop.name, end.node, end.distance / offRoad, end.distance)
        }
        points.removeLast()
        speeds.removeLast()
        return .success(RoadRoute(mode: mode, legs: legs, points: points, speeds: speeds))
    }

    private mutating func fastestOrder(start: Int32, stops: [RouteStop], snapped: [Int32]) -> Result<[Int], RoutingFailure> {
        let count = stops.count
        // times[i][j]: from stop i (index count: the start) to stop j.
        var times: [[Double?]] = []
        for source in snapped + [start] { times.append(search.fastestTimes(from: source, to: snapped)) }
        let full = (1 << count) - 1
        var best = [[Double]](repeating: [Double](repeating: .infinity, count: count), count: 1 << count)
        var previous = [[Int]](repeating: [Int](repeating: -1, count: count), count: 1 << count)
        for j in 0..<count { if let t = times[count][j] { best[1 << j][j] = t } }
        for subset in 1...full {
            for last in 0..<count where subset & (1 << last) != 0 && best[subset][last].isFinite {
                for next in 0..<count where subset & (1 << next) == 0 {
                    guard let t = times[last][next] else { continue }
                    let candidate = best[subset][last] + t
                    if candidate < best[subset | 1 << next][next] {
                        best[subset | 1 << next][next] = candidate
                        previous[subset | 1 << next][next] = last
                    }
                }
            }
        }
        guard var last = (0..<count).min(by: { best[full][$0] < best[full][$1] }), best[full][last].isFinite else {
            // Name the first stop that cannot be reached from the start or from any other stop.
            let unreachable = (0..<count).first { j in times[count][j] == nil && (0..<count).allSatisfy { $0 == j || times[$0][j] == nil } } ?? 0
            return .failure(.unreachable(from: "start", to: stops[unreachable].name, mode: mode))
        }
        var order: [Int] = []
        var subset = full
        while last >= 0 {
            order.append(last)
            let before = previous[subset][last]
            subset &= ~(1 << last)
            last = before
        }
        return .success(order.reversed())
    }
}
