import DeviceSimHAL

/// The roads of an OpenStreetMap extract for every ``TravelMode``, with the named places.
///
/// Built from the extract's `highway` ways under ``RoadRules``: each way becomes edges between its
/// consecutive nodes (every node kept, so routes follow the streets' real shape), in the directions
/// and at the speed the rules give each mode. Walkable areas (squares) become edges across them
/// (``PedestrianAreas``). The car graph carries the turn restrictions as copies of the nodes where
/// they apply (``TurnSplits``), so its node indices past ``coordinates``' count are such copies.
/// Edge time is the great-circle length of the segment over the speed.
///
/// Positions join the network at the nearest point of the nearest segment a mode may use, one on
/// the surface before one in a tunnel or on a bridge (``join(_:for:within:)``).
///
/// ```swift
/// let network = try RoadNetwork(contentsOf: "Simulator/worlds/helsinki.osm.pbf")
/// var planner = RoutePlanner(network: network, mode: .foot)
/// let route = try planner.route(from: here, through: [RouteStop(network.places.place(named: "Kiasma")!)]).get()
/// ```
public struct RoadNetwork: Sendable {
    /// Every road node's position (shared by the modes' graphs; the car graph adds its turn copies).
    public let coordinates: [GeoCoordinate]
    /// Every road node's OSM id, parallel to ``coordinates``.
    public let osmNodeIDs: [Int64]
    /// The graphs, one per mode.
    public let foot: RoadGraph, bike: RoadGraph, car: RoadGraph
    /// Nearest nodes, one locator per mode.
    let footLocator: NodeLocator, bikeLocator: NodeLocator, carLocator: NodeLocator
    /// The segments positions join, one index per mode.
    let footSegments: SegmentIndex, bikeSegments: SegmentIndex, carSegments: SegmentIndex
    /// The car graph's turn copies.
    let carSplits: TurnSplits
    /// Named places: OSM nodes with a name, named ways and relations (buildings, squares), named
    /// streets, then addresses.
    public let places: PlaceIndex
    /// Walkable areas routed across.
    public let pedestrianAreaCount: Int
    /// Turn restrictions read, and left out (via ways, members outside the extract).
    public let turnRestrictionCount: Int, skippedTurnRestrictionCount: Int

    /// Reads the OSM PBF file at `path` and builds the network.
    /// An extract with nodes out of range (a latitude of 6e6 degrees) is refused: they are not
    /// OpenStreetMap's, and the roads through them would silently be missing.
    public init(contentsOf path: String) throws(OSMReadError) {
        let extract = try OSMPBFReader.read(contentsOf: path)
        guard extract.invalidNodeCount == 0 else {
            throw OSMReadError.malformed("\(path): \(extract.invalidNodeCount) node\(extract.invalidNodeCount == 1 ? " has" : "s have") a latitude beyond ±90° or a longitude beyond ±180° (or not a number): fix or re-export the extract")
        }
        self.init(extract)
    }

    /// Builds the network of `extract`.
    public init(_ extract: OSMExtract) {
        var index: [Int64: Int32] = [:]
        var coordinates: [GeoCoordinate] = []
        var ids: [Int64] = []
        var edges: [TravelMode: [RoadGraph.Edge]] = [.foot: [], .bike: [], .car: []]
        /// Per mode, the segments (`a < b`, as ``segmentKey(_:_:)``) it may use on a way on the surface.
        var surface: [TravelMode: Set<Int64>] = [.foot: [], .bike: [], .car: []]
        var streets: [Place] = []
        func node(_ id: Int64) -> Int32? {
            if let known = index[id] { return known }
            guard let coordinate = extract.coordinate(ofNode: id) else { return nil }
            let new = Int32(coordinates.count)
            index[id] = new
            coordinates.append(coordinate)
            ids.append(id)
            return new
        }
        /// Adds the edges of a way piece between nodes `a` and `b` under `tags`.
        func addEdges(_ a: Int32, _ b: Int32, _ rules: [(TravelMode, forward: Double?, backward: Double?)], onSurface: Bool) {
            let metres = coordinates[Int(a)].distance(to: coordinates[Int(b)])
            for (mode, forward, backward) in rules {
                if onSurface, a != b { surface[mode]!.insert(Self.segmentKey(a, b)) }
                if let forward { edges[mode]!.append(.init(from: a, to: b, seconds: metres / forward)) }
                if let backward { edges[mode]!.append(.init(from: b, to: a, seconds: metres / backward)) }
            }
        }
        var entrances = Set<Int64>()
        for way in extract.highways {
            let rules = Self.rules(for: way.tags), onSurface = !RoadRules.isOffTheSurface(way.tags)
            guard !rules.isEmpty else { continue }
            entrances.formUnion(way.nodeIDs)
            let nodes = way.nodeIDs.map(node)
            if let name = way.tags["name"], let middle = nodes[nodes.count / 2] {
                streets.append(Place(name: name, coordinate: coordinates[Int(middle)], source: .street))
            }
            for (a, b) in zip(nodes, nodes.dropFirst()) {
                guard let a, let b else { continue }  // A node outside the extract cuts the way.
                addEdges(a, b, rules, onSurface: onSurface)
            }
        }
        let areas = PedestrianAreas.areas(of: extract)
        for area in areas {
            let rules = Self.rules(for: area.tags)
            guard !rules.isEmpty else { continue }
            for (a, b) in PedestrianAreas.edges(of: area, position: extract.coordinate(ofNode:), isEntrance: entrances.contains) {
                guard let a = node(a), let b = node(b) else { continue }
                addEdges(a, b, rules, onSurface: !RoadRules.isOffTheSurface(area.tags))
            }
        }
        pedestrianAreaCount = areas.count
        self.coordinates = coordinates
        osmNodeIDs = ids

        // Turn restrictions: a copy of each via node per restricted arrival with a car edge.
        let restrictions = TurnRestrictions(extract)
        var copies: [Int64: Int32] = [:], originals: [Int32] = [], arrivals: [Int32] = []
        let carEdges = edges[.car]!
        var carArrivals: [Int32: Set<Int32>] = [:]
        for edge in carEdges { carArrivals[edge.to, default: []].insert(edge.from) }
        for via in 0..<Int32(coordinates.count) where restrictions.restricts(ids[Int(via)]) {
            let restricted = restrictions.restrictedArrivals(at: ids[Int(via)])
            for from in (carArrivals[via] ?? []).sorted() where restricted.contains(ids[Int(from)]) {
                copies[TurnSplits.key(via: via, from: from)] = Int32(coordinates.count + originals.count)
                originals.append(via)
                arrivals.append(from)
            }
        }
        let splits = TurnSplits(originalCount: coordinates.count, originals: originals, copies: copies)
        var splitEdges: [RoadGraph.Edge] = []
        for edge in carEdges {
            for source in splits.representatives(of: edge.from) {
                if source != edge.from {
                    let from = arrivals[Int(source) - coordinates.count]
                    guard restrictions.allows(from: ids[Int(from)], via: ids[Int(edge.from)], to: ids[Int(edge.to)]) else { continue }
                }
                splitEdges.append(.init(from: source, to: splits.entry(to: edge.to, from: edge.from), seconds: edge.seconds))
            }
        }
        carSplits = splits
        turnRestrictionCount = extract.restrictionRelations.count - restrictions.skippedCount
        skippedTurnRestrictionCount = restrictions.skippedCount

        foot = RoadGraph(mode: .foot, coordinates: coordinates, edges: edges[.foot]!)
        bike = RoadGraph(mode: .bike, coordinates: coordinates, edges: edges[.bike]!)
        car = RoadGraph(mode: .car, coordinates: coordinates + originals.map { coordinates[Int($0)] }, edges: splitEdges)
        footLocator = NodeLocator(foot)
        bikeLocator = NodeLocator(bike)
        carLocator = NodeLocator(car)
        footSegments = Self.segments(edges[.foot]!, surface: surface[.foot]!, coordinates: coordinates, graph: foot, splits: TurnSplits(originalCount: coordinates.count))
        bikeSegments = Self.segments(edges[.bike]!, surface: surface[.bike]!, coordinates: coordinates, graph: bike, splits: TurnSplits(originalCount: coordinates.count))
        carSegments = Self.segments(carEdges, surface: surface[.car]!, coordinates: coordinates, graph: car, splits: splits)
        // Named nodes first, then named ways and relations, then streets, then addresses.
        let features = extract.features.compactMap(Place.init)
        let order: [Place.Source] = [.osmNode, .osmArea, .street, .address]
        places = PlaceIndex(order.flatMap { source in (features + streets).filter { $0.source == source } })
    }

    /// Each mode's speeds (m/s) forward and backward along a way with `tags` (nil: closed that way);
    /// modes closed both ways are left out.
    private static func rules(for tags: [String: String]) -> [(TravelMode, forward: Double?, backward: Double?)] {
        var rules: [(TravelMode, forward: Double?, backward: Double?)] = []
        for mode in TravelMode.allCases {
            let directions = RoadRules.directions(of: mode, tags: tags)
            let forward = directions.forward ? RoadRules.speed(of: mode, tags: tags, direction: .forward).map { $0 / 3.6 } : nil
            let backward = directions.backward ? RoadRules.speed(of: mode, tags: tags, direction: .backward).map { $0 / 3.6 } : nil
            if forward != nil || backward != nil { rules.append((mode, forward, backward)) }
        }
        return rules
    }

    /// The key of the segment between nodes `a` and `b` (either order).
    static func segmentKey(_ a: Int32, _ b: Int32) -> Int64 { Int64(min(a, b)) << 32 | Int64(max(a, b)) }

    /// The segments of `edges` (original nodes) that a position may join: both ways' fastest times,
    /// kept where the join can be left and reached within the graph's largest strongly connected
    /// component; off the surface unless a way on the surface (its key in `surface`) gives it too.
    private static func segments(_ edges: [RoadGraph.Edge], surface: Set<Int64>, coordinates: [GeoCoordinate], graph: RoadGraph, splits: TurnSplits) -> SegmentIndex {
        var times: [Int64: (forward: Double, backward: Double)] = [:]
        for edge in edges where edge.from != edge.to {
            let a = min(edge.from, edge.to)
            let key = segmentKey(edge.from, edge.to)
            var entry = times[key] ?? (.infinity, .infinity)
            if edge.from == a { entry.forward = min(entry.forward, edge.seconds) } else { entry.backward = min(entry.backward, edge.seconds) }
            times[key] = entry
        }
        var segments: [SegmentIndex.Segment] = []
        for (key, time) in times.sorted(by: { $0.key < $1.key }) {
            let segment = SegmentIndex.Segment(a: Int32(key >> 32), b: Int32(key & 0xFFFF_FFFF), forward: time.forward, backward: time.backward,
                                               isOffTheSurface: !surface.contains(key))
            let anchors = Self.anchors(of: segment, fraction: 0.5, length: 0, graph: graph, splits: splits)
            if !anchors.departures.isEmpty, !anchors.arrivals.isEmpty { segments.append(segment) }
        }
        return SegmentIndex(coordinates: coordinates, segments: segments)
    }

    /// Where a point at `fraction` along `segment` (of `length` metres) leaves to and is reached
    /// from in the graph, with the time and length of the piece of segment between; only nodes of
    /// the graph's largest strongly connected component.
    static func anchors(of segment: SegmentIndex.Segment, fraction: Double, length: Double, graph: RoadGraph, splits: TurnSplits) -> (departures: [RoadJoin.Anchor], arrivals: [RoadJoin.Anchor]) {
        var departures: [RoadJoin.Anchor] = [], arrivals: [RoadJoin.Anchor] = []
        forEachAnchor(of: segment, fraction: fraction, length: length, graph: graph, splits: splits, departing: true) { departures.append($0) }
        forEachAnchor(of: segment, fraction: fraction, length: length, graph: graph, splits: splits, departing: false) { arrivals.append($0) }
        return (departures, arrivals)
    }

    /// Calls `body` with each departure (`departing`) or each arrival that
    /// ``anchors(of:fraction:length:graph:splits:)`` lists, in its order, without making the list.
    @inline(__always)
    static func forEachAnchor(
        of segment: SegmentIndex.Segment, fraction: Double, length: Double, graph: RoadGraph, splits: TurnSplits, departing: Bool,
        _ body: (RoadJoin.Anchor) -> Void
    ) {
        /// The anchors of travel along the segment from `from` to `to` (`share` of it behind the point).
        func add(from: Int32, to: Int32, seconds: Double, share: Double) {
            guard seconds.isFinite else { return }
            let entered = splits.entry(to: to, from: from), speed = seconds > 0 ? length / seconds : 0
            if departing {
                if graph.isRoutable[Int(entered)] { body(.init(node: entered, seconds: (1 - share) * seconds, metres: (1 - share) * length, speed: speed)) }
            } else {
                splits.forEachRepresentative(of: from) { source in
                    guard graph.isRoutable[Int(source)], graph.edge(from: source, to: entered) != nil else { return }
                    body(.init(node: source, seconds: share * seconds, metres: share * length, speed: speed))
                }
            }
        }
        add(from: segment.a, to: segment.b, seconds: segment.forward, share: fraction)
        add(from: segment.b, to: segment.a, seconds: segment.backward, share: 1 - fraction)
    }

    /// Builds each mode's contraction hierarchy now (if it was not read from a prepared file), so
    /// that planners made afterwards route legs through it (``RoutePlanner``): the same routes, found
    /// faster. A prepared file keeps them.
    ///
    /// ```swift
    /// let network = try RoadNetwork(contentsOf: "Simulator/worlds/helsinki.osm.pbf")
    /// network.buildHierarchies()
    /// ```
    public func buildHierarchies() {
        for graph in [foot, bike, car] { _ = graph.hierarchy }
    }

    /// The graph of `mode`.
    public func graph(for mode: TravelMode) -> RoadGraph {
        switch mode {
        case .foot: foot
        case .bike: bike
        case .car: car
        }
    }

    func segments(for mode: TravelMode) -> SegmentIndex {
        switch mode {
        case .foot: footSegments
        case .bike: bikeSegments
        case .car: carSegments
        }
    }

    func splits(for mode: TravelMode) -> TurnSplits { mode == .car ? carSplits : TurnSplits(originalCount: coordinates.count) }

    /// Where `position` joins the streets `mode` may use: the nearest point of the nearest segment
    /// within `limit` metres that routes can leave and reach, on the surface if one is within
    /// `limit`, else in a tunnel or on a bridge (``RoadRules/isOffTheSurface(_:)``); nil when there
    /// is none.
    public func join(_ position: GeoCoordinate, for mode: TravelMode, within limit: Double) -> RoadJoin? {
        let index = segments(for: mode), graph = graph(for: mode), splits = splits(for: mode)
        guard let join = Self.join(position, to: index, within: limit, graph: graph, splits: splits) else { return nil }
        let anchors = Self.anchors(of: index.segments[join.segment], fraction: join.fraction, length: join.length, graph: graph, splits: splits)
        return RoadJoin(join, departures: anchors.departures, arrivals: anchors.arrivals)
    }

    /// Where `position` joins the segments of `index` (``join(_:for:within:)`` without the anchors),
    /// on `graph` with its turn copies `splits`.
    static func join(_ position: GeoCoordinate, to index: SegmentIndex, within limit: Double, graph: RoadGraph, splits: TurnSplits) -> SegmentJoin? {
        guard let hit = index.nearest(to: position, within: limit, surfaceOnly: true) ?? index.nearest(to: position, within: limit) else { return nil }
        let segment = index.segments[hit.segment]
        return SegmentJoin(position: position, point: hit.point, distance: hit.distance, segment: hit.segment, fraction: hit.fraction,
                           length: length(of: segment, coordinates: index.coordinates, graph: graph, splits: splits),
                           forwardSeconds: segment.forward, backwardSeconds: segment.backward)
    }

    /// The length of `segment`, metres: the haversine from its first node to its last, read from
    /// the graph's edge along it (the same haversine, taken when the graph was built: from `a` when
    /// the mode may go that way, else from `b`, the haversine giving the same bits both ways), or
    /// taken again if the graph has no such edge.
    @inline(__always)
    static func length(of segment: SegmentIndex.Segment, coordinates: [GeoCoordinate], graph: RoadGraph, splits: TurnSplits) -> Double {
        let edge = segment.forward.isFinite ? graph.edge(from: segment.a, to: splits.entry(to: segment.b, from: segment.a))
            : segment.backward.isFinite ? graph.edge(from: segment.b, to: splits.entry(to: segment.a, from: segment.b)) : nil
        guard let edge else { return coordinates[Int(segment.a)].distance(to: coordinates[Int(segment.b)]) }
        return graph.edgeMetres[edge]
    }

    /// The node of `mode`'s graph nearest `position` (in its largest strongly connected component),
    /// and its distance in metres; nil when the mode has no roads at all.
    public func nearestNode(to position: GeoCoordinate, for mode: TravelMode) -> (node: Int32, distance: Double)? {
        switch mode {
        case .foot: footLocator.nearestNode(to: position)
        case .bike: bikeLocator.nearestNode(to: position)
        case .car: carLocator.nearestNode(to: position)
        }
    }
}
