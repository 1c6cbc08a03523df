import DeviceSimHAL

/// The roads of an OpenStreetMap extract for every ``TravelMode``, with the named places.
///
/// Built from the extract's `highway` ways under ``RoadRules``: each way becomes edges between its
/// consecutive nodes (every node kept, so routes follow the streets' real shape), in the directions
/// and at the speed the rules give each mode. Edge time is the great-circle length of the segment
/// over the speed.
///
/// ```swift
/// let network = try RoadNetwork(contentsOf: "Simulator/worlds/helsinki.osm.pbf")
/// var planner = RoutePlanner(network: network, mode: .foot)
/// let route = try planner.route(from: here, through: [network.places.place(named: "Kiasma")!]).get()
/// ```
public struct RoadNetwork: Sendable {
    /// Every road node's position (shared by the modes' graphs).
    public let coordinates: [GeoCoordinate]
    /// Every road node's OSM id, parallel to ``coordinates``.
    public let osmNodeIDs: [Int64]
    /// The graphs, one per mode.
    public let foot: RoadGraph, bike: RoadGraph, car: RoadGraph
    /// Positions snap to these, one per mode.
    let footLocator: NodeLocator, bikeLocator: NodeLocator, carLocator: NodeLocator
    /// Named places: OSM nodes with a name, then named streets.
    public let places: PlaceIndex

    /// Reads the OSM PBF file at `path` and builds the network.
    public init(contentsOf path: String) throws(OSMReadError) {
        self.init(try OSMPBFReader.read(contentsOf: path))
    }

    /// Builds the network of `extract`.
    public init(_ extract: OSMExtract) {
        var index: [Int64: Int32] = [:]
        var coordinates: [GeoCoordinate] = []
        var ids: [Int64] = []
        var edges: [TravelMode: [RoadGraph.Edge]] = [.foot: [], .bike: [], .car: []]
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
        for way in extract.highways {
            var rules: [(TravelMode, metresPerSecond: Double, RoadRules.Directions)] = []
            for mode in TravelMode.allCases {
                if let speed = RoadRules.speed(of: mode, tags: way.tags) { rules.append((mode, speed / 3.6, RoadRules.directions(of: mode, tags: way.tags))) }
            }
            guard !rules.isEmpty else { continue }
            let nodes = way.nodeIDs.map(node)
            if let name = way.tags["name"], let middle = nodes[nodes.count / 2] {
                streets.append(Place(name: name, coordinate: coordinates[Int(middle)], source: .street))
            }
            for (a, b) in zip(nodes, nodes.dropFirst()) {
                guard let a, let b else { continue }  // A node outside the extract cuts the way.
                let metres = coordinates[Int(a)].distance(to: coordinates[Int(b)])
                for (mode, speed, directions) in rules {
                    if directions.forward { edges[mode]!.append(.init(from: a, to: b, seconds: metres / speed)) }
                    if directions.backward { edges[mode]!.append(.init(from: b, to: a, seconds: metres / speed)) }
                }
            }
        }
        self.coordinates = coordinates
        osmNodeIDs = ids
        foot = RoadGraph(mode: .foot, coordinates: coordinates, edges: edges[.foot]!)
        bike = RoadGraph(mode: .bike, coordinates: coordinates, edges: edges[.bike]!)
        car = RoadGraph(mode: .car, coordinates: coordinates, edges: edges[.car]!)
        footLocator = NodeLocator(foot)
        bikeLocator = NodeLocator(bike)
        carLocator = NodeLocator(car)
        let named = extract.namedNodes.map { Place(name: $0.name, coordinate: $0.coordinate, source: .osmNode) }
        places = PlaceIndex(named + streets)
    }

    /// The graph of `mode`.
    public func graph(for mode: TravelMode) -> RoadGraph {
        switch mode {
        case .foot: foot
        case .bike: bike
        case .car: car
        }
    }

    /// The node of `mode`'s graph nearest `position` (in its largest strongly connected component, so that routes between snapped positions exist), and its
    /// distance in metres; nil when the mode has no roads at all.
    public func nearestNode(to position: GeoCoordinate, for mode: TravelMode) -> (node: Int32, distance: Double)? {
        switch mode {
        case .foot: footLocator.nearestNode(to: position)
        case .bike: bikeLocator.nearestNode(to: position)
        case .car: carLocator.nearestNode(to: position)
        }
    }
}
