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
/// The route starts at the position itself, goes straight to the point where it joins the street
/// (the nearest point of the nearest segment the mode may use, ``RoadJoin``), along the streets to
/// the point where each stop joins them, and straight on to the stop. Those straight legs are
/// travelled at ``RoutePlanner/offRoadSpeed`` and included in the times and lengths. Two positions
/// that join the street at the same point are joined by the straight line between them (a place to
/// itself: no length at all).
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
    /// The route's points: the start, the join points, road nodes, the stops.
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
    /// A position (the start or a stop) is farther than `limit` metres from every street the mode may use.
    case noStreetNearby(place: String, limit: Double, mode: TravelMode)
    /// More stops than the fastest-order search takes.
    case tooManyStopsToReorder(count: Int, limit: Int)

    public var description: String {
        switch self {
        case .noRoads(let mode): "the road network has no roads for \(mode.rawValue)"
        case .unreachable(let from, let to, let mode): "'\(to)' cannot be reached from '\(from)' by \(mode.rawValue)"
        case .noStops: "a route needs at least one stop"
        case .noStreetNearby(let place, let limit, let mode): "no street within \(Int(limit)) m of '\(place)' (for \(mode.rawValue))"
        case .tooManyStopsToReorder(let count, let limit): "the fastest order is found for up to \(limit) stops, this route has \(count)"
        }
    }
}

/// Plans the fastest route from a position through stops, in the given order or in the fastest order.
///
/// Each position joins the streets the mode may use at their nearest point within
/// ``maximumJoinDistance`` (``RoadNetwork/join(_:for:within:)``); farther than that the route fails
/// (``RoutingFailure/noStreetNearby(place:limit:mode:)``). Each leg is the least-time path from the
/// previous join point to the next, along their segments in the directions the mode may travel them
/// and between them on the graph, or straight along a segment both points are on. The graph is
/// searched through its contraction hierarchy (``HierarchySearch``) when it has one (a network read
/// from a prepared file, or after ``RoadNetwork/buildHierarchies()``), else by A* with landmarks
/// (``RouteSearch``): both compare paths by the same exact ``RouteCost``, so they find the same
/// path, to the node, also among paths of equal time. The fastest order (``Order/fastest``, up to ``maximumStopsToReorder`` stops,
/// the route ends at the last stop visited) takes the travel times between all stops from one
/// Dijkstra search per stop, then the exact best order by dynamic programming over subsets of stops
/// (Held-Karp).
///
/// ```swift
/// var planner = RoutePlanner(network: network, mode: .bike)
/// switch planner.route(from: here, through: stops, order: .fastest) {
/// case .success(let route): print(route.seconds, route.stops.map(\.name))
/// case .failure(let failure): print(failure)   // "no street within 100 m of 'Suomenlinna' (for bike)"
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
    /// How far a position may be from the nearest street the mode may use, metres.
    public static let maximumJoinDistance = 100.0
    /// Speed on the straight legs between a position and where it joins the street, m/s (walking
    /// pace on foot and bike, pushing it; slow for a car leaving a car park).
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
    /// The fastest order's one-to-many times, and legs when the graph has no hierarchy.
    private var search: RouteSearch
    /// Legs, when the graph has its contraction hierarchy.
    private var hierarchySearch: HierarchySearch?
    /// The segments positions join, and the graph's turn copies, for the mode.
    private let segmentIndex: SegmentIndex, splits: TurnSplits
    /// Where the stops of a call join the street, kept between calls.
    private var joins: [SegmentJoin] = []
    /// A leg's departures and arrivals as the searches take them and the anchors they come from,
    /// and the nodes of its path, kept between calls (no arrays made per leg).
    private var sources: [RouteSearch.Endpoint] = [], targets: [RouteSearch.Endpoint] = []
    private var departures: [RoadJoin.Anchor] = [], arrivals: [RoadJoin.Anchor] = []
    private var pathNodes: [Int32] = []
    /// A call's legs as planned before their points are written, and their paths' nodes one after
    /// another, kept between calls: the route's points and speeds are then written straight into
    /// arrays of their size (no array grown and copied as a long leg is appended).
    private var plannedLegs: [PlannedLeg] = [], legNodes: [Int32] = []

    /// A leg as ``route(from:through:order:startName:)`` plans it before writing its points.
    private struct PlannedLeg {
        /// How a leg gets from one join point to the next.
        enum Way {
            /// Both positions join the street at the same point: straight from one to the other.
            case straight
            /// Along the segment both join points are on: its seconds, metres and speed.
            case along(seconds: Double, metres: Double, speed: Double)
            /// Over the graph: the path's nodes (a range of ``RoutePlanner/legNodes``), from the
            /// departure to the arrival.
            case path(nodes: Range<Int>, departure: RoadJoin.Anchor, arrival: RoadJoin.Anchor)
        }
        /// The stop it ends at (an index of the call's stops), where it leaves the street from and
        /// where it joins it again.
        var stop: Int
        var from: SegmentJoin, to: SegmentJoin
        var way: Way
    }

    /// A planner for `mode` on `network`.
    public init(network: RoadNetwork, mode: TravelMode) {
        self.network = network
        self.mode = mode
        let graph = network.graph(for: mode)
        search = RouteSearch(graph)
        hierarchySearch = graph.hasHierarchy ? HierarchySearch(graph) : nil
        segmentIndex = network.segments(for: mode)
        splits = network.splits(for: mode)
    }

    /// The fastest route from `start` through `stops`; `startName` names the start in failures (the
    /// place the device is at, say).
    public mutating func route(
        from start: GeoCoordinate, through stops: [RouteStop], order: Order = .given, startName: String = "start"
    ) -> Result<RoadRoute, RoutingFailure> {
        guard !stops.isEmpty else { return .failure(.noStops) }
        guard !segmentIndex.segments.isEmpty else { return .failure(.noRoads(mode)) }
        let limit = Self.maximumJoinDistance
        guard let first = RoadNetwork.join(start, to: segmentIndex, within: limit, graph: search.graph, splits: splits) else { return .failure(.noStreetNearby(place: startName, limit: limit, mode: mode)) }
        joins.removeAll(keepingCapacity: true)
        for stop in stops {
            guard let join = RoadNetwork.join(stop.coordinate, to: segmentIndex, within: limit, graph: search.graph, splits: splits) else { return .failure(.noStreetNearby(place: stop.name, limit: limit, mode: mode)) }
            joins.append(join)
        }
        var sequence: [Int]?
        if order == .fastest, stops.count > 1 {
            guard stops.count <= Self.maximumStopsToReorder else { return .failure(.tooManyStopsToReorder(count: stops.count, limit: Self.maximumStopsToReorder)) }
            let stopJoins = joins
            switch fastestOrder(start: first, stops: stops, joins: stopJoins, startName: startName) {
            case .success(let best): sequence = best
            case .failure(let failure): return .failure(failure)
            }
        }
        let offRoad = Self.offRoadSpeed(mode)
        // First each leg's way (its path's nodes kept), then the points and speeds in one pass.
        plannedLegs.removeAll(keepingCapacity: true)
        legNodes.removeAll(keepingCapacity: true)
        var pointCount = 1
        var from = (name: startName, join: first)
        for position in stops.indices {
            let index = sequence?[position] ?? position
            let stop = stops[index], end = joins[index]
            let way: PlannedLeg.Way
            if from.join.isAtSamePoint(as: end) {
                way = .straight
                pointCount += 1
            } else {
                guard let found = self.way(from: from.join, to: end) else {
                    return .failure(.unreachable(from: from.name, to: stop.name, mode: mode))
                }
                way = found
                if case .path(let nodes, _, _) = found { pointCount += nodes.count }
                pointCount += 3
            }
            plannedLegs.append(PlannedLeg(stop: index, from: from.join, to: end, way: way))
            from = (stop.name, end)
        }
        // Room first (reserved, then filled: the array's own allocation, specialized), then one pass.
        var points: [GeoCoordinate] = [], speeds: [Double] = []
        points.reserveCapacity(pointCount)
        points.append(contentsOf: repeatElement(GeoCoordinate(latitude: 0, longitude: 0), count: pointCount))
        speeds.reserveCapacity(pointCount - 1)
        speeds.append(contentsOf: repeatElement(0, count: pointCount - 1))
        var legs: [RoadRoute.Leg] = []
        legs.reserveCapacity(stops.count)
        legNodes.withUnsafeBufferPointer { legNodes in
        points.withUnsafeMutableBufferPointer { points in
        speeds.withUnsafeMutableBufferPointer { speeds in
            points[0] = start
            // The next point, and the speed on the way to it.
            var next = 1
            for leg in plannedLegs {
                let stop = stops[leg.stop]
                switch leg.way {
                case .straight:
                    let metres = leg.from.position.distance(to: leg.to.position)
                    (points[next], speeds[next - 1]) = (stop.coordinate, offRoad)
                    next += 1
                    legs.append(.init(stop: stop, seconds: metres / offRoad, metres: metres))
                case .along(let seconds, let metres, let speed):
                    (points[next], speeds[next - 1]) = (leg.from.point, offRoad)
                    (points[next + 1], speeds[next]) = (leg.to.point, speed)
                    (points[next + 2], speeds[next + 1]) = (stop.coordinate, offRoad)
                    next += 3
                    legs.append(.init(stop: stop, seconds: (leg.from.distance + leg.to.distance) / offRoad + seconds,
                                      metres: leg.from.distance + metres + leg.to.distance))
                case .path(let nodes, let departure, let arrival):
                    (points[next], speeds[next - 1]) = (leg.from.point, offRoad)
                    next += 1
                    let travel = Self.writeGeometry(of: UnsafeBufferPointer(rebasing: legNodes[nodes]), on: search.graph, departure: departure, arrival: arrival,
                                                    points: points, speeds: speeds, at: next)
                    next += nodes.count
                    (points[next], speeds[next - 1]) = (leg.to.point, arrival.speed)
                    (points[next + 1], speeds[next]) = (stop.coordinate, offRoad)
                    next += 2
                    legs.append(.init(stop: stop, seconds: (leg.from.distance + leg.to.distance) / offRoad + travel.seconds,
                                      metres: leg.from.distance + travel.metres + leg.to.distance))
                }
            }
            precondition(next == points.count, "every point of the route written")
        }}}
        return .success(RoadRoute(mode: mode, legs: legs, points: points, speeds: speeds))
    }

    /// The fastest way from join point `from` to join point `to` (different points): along their
    /// common segment, or out of `from`'s segment, over the graph (the path's nodes appended to
    /// ``legNodes``) and into `to`'s; nil when `to` cannot be reached.
    private mutating func way(from: SegmentJoin, to: SegmentJoin) -> PlannedLeg.Way? {
        let along = from.alongSegment(to: to)
        Self.listAnchors(of: from, departing: true, segments: segmentIndex.segments, graph: search.graph, splits: splits, into: &sources, &departures)
        Self.listAnchors(of: to, departing: false, segments: segmentIndex.segments, graph: search.graph, splits: splits, into: &targets, &arrivals)
        let ends: (source: Int, target: Int)?
        if hierarchySearch != nil {
            ends = hierarchySearch!.fastestPath(from: sources, to: targets, into: &pathNodes)
        } else if let path = search.fastestPath(from: sources, to: targets) {
            pathNodes = path.nodes
            ends = (path.source, path.target)
        } else {
            ends = nil
        }
        if let ends {
            let departure = departures[ends.source], arrival = arrivals[ends.target]
            // The path's seconds summed as writeGeometry sums them, only when there is a way along to compare.
            if along == nil || search.graph.seconds(along: pathNodes, after: departure.seconds) + arrival.seconds < along!.seconds {
                let first = legNodes.count
                legNodes.append(contentsOf: pathNodes)
                return .path(nodes: first..<legNodes.count, departure: departure, arrival: arrival)
            }
        }
        guard let along else { return nil }
        return .along(seconds: along.seconds, metres: along.metres, speed: along.speed)
    }

    /// Writes `join`'s departures (`departing`) or arrivals over `anchors`, and the same as the
    /// searches take them over `endpoints` (both buffers kept between calls).
    private static func listAnchors(
        of join: SegmentJoin, departing: Bool, segments: [SegmentIndex.Segment], graph: RoadGraph, splits: TurnSplits,
        into endpoints: inout [RouteSearch.Endpoint], _ anchors: inout [RoadJoin.Anchor]
    ) {
        endpoints.removeAll(keepingCapacity: true)
        anchors.removeAll(keepingCapacity: true)
        RoadNetwork.forEachAnchor(of: segments[join.segment], fraction: join.fraction, length: join.length, graph: graph, splits: splits, departing: departing) { anchor in
            anchors.append(anchor)
            endpoints.append(RouteSearch.Endpoint(node: anchor.node, seconds: anchor.seconds))
        }
    }

    /// Writes the points of `nodes` (a path on `graph` from `departure`'s node to `arrival`'s) over
    /// `points` from `pointIndex` on, with the speed on the way to each over `speeds` from
    /// `pointIndex - 1` on (`departure`'s speed to the first; a route's speeds are one fewer than its
    /// points); returns the travel's seconds and metres: `departure`'s, the path's edge by edge in
    /// travel order, then `arrival`'s seconds (the sum the searches make), and `departure`'s and
    /// `arrival`'s metres, then the path's. Each edge's length was measured when the graph was built
    /// (the same haversine); between two nodes the first (fastest) edge counts, as the searches count it.
    private static func writeGeometry(
        of nodes: UnsafeBufferPointer<Int32>, on graph: RoadGraph, departure: RoadJoin.Anchor, arrival: RoadJoin.Anchor,
        points: UnsafeMutableBufferPointer<GeoCoordinate>, speeds: UnsafeMutableBufferPointer<Double>, at pointIndex: Int
    ) -> (seconds: Double, metres: Double) {
        let speedIndex = pointIndex - 1
        precondition(!nodes.isEmpty && speedIndex >= 0 && pointIndex + nodes.count <= points.count && speedIndex + nodes.count <= speeds.count,
                     "room for the path's points and speeds")
        var seconds = departure.seconds, metres = departure.metres + arrival.metres
        graph.coordinates.withUnsafeBufferPointer { coordinates in
        graph.edgeStarts.withUnsafeBufferPointer { starts in
        graph.edgeTargets.withUnsafeBufferPointer { targets in
        graph.edgeMetres.withUnsafeBufferPointer { lengths in
        graph.edgeSeconds.withUnsafeBufferPointer { times in
            points[pointIndex] = coordinates[Int(nodes[0])]
            speeds[speedIndex] = departure.speed
            for step in 1..<nodes.count {
                let a = Int(nodes[step - 1]), b = nodes[step]
                var edge = Int(starts[a])
                let end = Int(starts[a + 1])
                while edge < end, targets[edge] != b { edge += 1 }
                precondition(edge < end, "a path's consecutive nodes are joined by an edge")
                let length = lengths[edge], time = times[edge]
                seconds += time
                metres += length
                points[pointIndex + step] = coordinates[Int(b)]
                speeds[speedIndex + step] = time > 0 ? length / time : 0
            }
        }}}}}
        return (seconds + arrival.seconds, metres)
    }

    /// A leg's travel time from `from`'s position to `to`'s as ``route(from:through:order:)`` plans
    /// it (off the street, along it, off it again), from the graph's least times from `from`'s
    /// departures (`graphTimes`, nil: not reached); nil when `to` cannot be reached.
    private func legSeconds(from: RoadJoin, to: RoadJoin, graphTimes: (Int32) -> Double?) -> Double? {
        let offRoad = Self.offRoadSpeed(mode)
        if from.isAtSamePoint(as: to) { return from.position.distance(to: to.position) / offRoad }
        var best = from.alongSegment(to: to)?.seconds
        for arrival in to.arrivals {
            guard let time = graphTimes(arrival.node) else { continue }
            best = min(best ?? .infinity, time + arrival.seconds)
        }
        return best.map { $0 + (from.distance + to.distance) / offRoad }
    }

    private mutating func fastestOrder(start: SegmentJoin, stops: [RouteStop], joins: [SegmentJoin], startName: String) -> Result<[Int], RoutingFailure> {
        let count = stops.count
        let graph = search.graph
        /// A join with its anchors.
        func anchored(_ join: SegmentJoin) -> RoadJoin {
            let anchors = RoadNetwork.anchors(of: segmentIndex.segments[join.segment], fraction: join.fraction, length: join.length, graph: graph, splits: splits)
            return RoadJoin(join, departures: anchors.departures, arrivals: anchors.arrivals)
        }
        let start = anchored(start), joins = joins.map(anchored)
        // times[i][j]: from stop i (index count: the start) to stop j.
        let arrivalNodes = Array(Set(joins.flatMap { $0.arrivals.map(\.node) })).sorted()
        var times: [[Double?]] = []
        for source in joins + [start] {
            let reached = search.fastestTimes(from: source.departures.map { RouteSearch.Endpoint(node: $0.node, seconds: $0.seconds) }, to: arrivalNodes)
            var byNode: [Int32: Double] = [:]
            for (node, time) in zip(arrivalNodes, reached) { if let time { byNode[node] = time } }
            times.append(joins.map { legSeconds(from: source, to: $0, graphTimes: { byNode[$0] }) })
        }
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
            return .failure(.unreachable(from: startName, to: stops[unreachable].name, mode: mode))
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
