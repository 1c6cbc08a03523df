import DeviceSimHAL
@testable import DeviceSimRoads
import DeviceSimTime
import Foundation
import Testing

@Suite struct RoutePlannerTests {
    let network = Helsinki.network

    /// A small graph: 0 -> 1 -> 2 one way, and node 3 unreachable from anywhere.
    static func lineGraph() -> RoadGraph {
        let base = GeoCoordinate(latitude: 60.17, longitude: 24.94)
        let coordinates = (0..<4).map { base.offsetBy(east: Double($0) * 100, north: 0) }
        return RoadGraph(mode: .car, coordinates: coordinates, edges: [
            .init(from: 0, to: 1, seconds: 10), .init(from: 1, to: 2, seconds: 10), .init(from: 0, to: 2, seconds: 25),
            .init(from: 0, to: 1, seconds: 12), .init(from: 3, to: 3, seconds: 1),
        ])
    }

    @Test func searchOnASmallGraph() {
        let graph = Self.lineGraph()
        #expect(graph.edgeCount == 3)  // The slower parallel edge and the loop are dropped.
        var search = RouteSearch(graph)
        #expect(search.fastestPath(from: 0, to: 2) == .init(seconds: 20, nodes: [0, 1, 2]))
        #expect(search.fastestPath(from: 2, to: 0) == nil)  // One way.
        #expect(search.fastestTime(from: 0, to: 3) == nil)
        #expect(search.fastestTime(from: 1, to: 1) == 0)
        #expect(search.fastestTimes(from: 0, to: [2, 3, 1]) == [20, nil, 10])
    }

    @Test func snappingFindsTheNearestRoutableNode() {
        let graph = network.foot
        var random = SeededRandomGenerator(seed: 7)
        let routable = graph.coordinates.indices.filter { graph.isRoutable[$0] }
        #expect(routable.count > graph.nodeCount / 2)
        for _ in 0..<200 {
            let position = GeoCoordinate(
                latitude: 60.160 + Double(random.next() % 10_000) / 10_000 * 0.024,
                longitude: 24.925 + Double(random.next() % 10_000) / 10_000 * 0.040)
            let snapped = network.nearestNode(to: position, for: .foot)!
            let best = routable.map { position.distance(to: graph.coordinates[$0]) }.min()!
            #expect(snapped.distance == best)
            #expect(graph.isRoutable[Int(snapped.node)])
        }
        // Far away: still the nearest node, not a crash.
        let berlin = GeoCoordinate(latitude: 52.52, longitude: 13.40)
        #expect(network.nearestNode(to: berlin, for: .car)!.distance > 1_000_000)
    }

    @Test func everySnappedPairIsConnected() {
        // Positions snap to each mode's largest strongly connected component, so any two connect.
        for mode in TravelMode.allCases {
            var planner = RoutePlanner(network: network, mode: mode)
            var random = SeededRandomGenerator(seed: 11)
            for _ in 0..<50 {
                let a = GeoCoordinate(latitude: 60.165 + Double(random.next() % 1000) / 1000 * 0.013, longitude: 24.936 + Double(random.next() % 1000) / 1000 * 0.016)
                let b = GeoCoordinate(latitude: 60.165 + Double(random.next() % 1000) / 1000 * 0.013, longitude: 24.936 + Double(random.next() % 1000) / 1000 * 0.016)
                switch planner.route(from: a, through: [RouteStop(name: "b", coordinate: b)]) {
                case .success: break
                case .failure(.noStreetNearby(let place, _, _)):
                    // Only where no segment of the mode is that near.
                    let position = place == "start" ? a : b
                    let segments = network.segments(for: mode)
                    let nearest = segments.segments.indices.map { segments.nearestPoint(of: $0, to: position, east: cos(position.latitude * .pi / 180) * 111_195, north: 111_195).distance }.min()!
                    #expect(nearest > RoutePlanner.maximumJoinDistance, "\(mode) \(position): a segment at \(nearest) m")
                case .failure(let failure): Issue.record("\(mode) \(a) -> \(b): \(failure)")
                }
            }
        }
    }

    @Test func routeThroughStopsAddsUpItsLegs() throws {
        var planner = RoutePlanner(network: network, mode: .foot)
        let start = GeoCoordinate(latitude: 60.1710, longitude: 24.9414)
        let stops = [RouteStop(name: "a", coordinate: GeoCoordinate(latitude: 60.1682, longitude: 24.9420)),
                     RouteStop(name: "b", coordinate: GeoCoordinate(latitude: 60.1695, longitude: 24.9523))]
        let route = try planner.route(from: start, through: stops).get()
        #expect(route.stops.map(\.name) == ["a", "b"])
        #expect(route.points.first == start && route.points.last == stops[1].coordinate)
        #expect(route.points.contains(stops[0].coordinate))
        #expect(route.speeds.count == route.points.count - 1)
        // Segment lengths over speeds give the total time; lengths give the total length.
        var seconds = 0.0, metres = 0.0
        for (index, speed) in route.speeds.enumerated() {
            let length = route.points[index].distance(to: route.points[index + 1])
            metres += length
            if length > 0 { seconds += length / speed }
        }
        #expect(abs(seconds - route.seconds) < 1e-6 * route.seconds)
        #expect(abs(metres - route.metres) < 1e-6 * route.metres)
        // Each leg is at least the straight line at walking pace.
        #expect(route.legs[1].metres >= stops[0].coordinate.distance(to: stops[1].coordinate))
    }

    @Test func fastestOrderIsTheBestPermutation() throws {
        let coordinates = [
            (60.1682, 24.9420), (60.1695, 24.9523), (60.1719, 24.9368), (60.1660, 24.9370), (60.1700, 24.9442),
        ].map { GeoCoordinate(latitude: $0.0, longitude: $0.1) }
        let stops = coordinates.enumerated().map { RouteStop(name: "s\($0.offset)", coordinate: $0.element) }
        let start = GeoCoordinate(latitude: 60.1710, longitude: 24.9414)
        for mode in TravelMode.allCases {
            var planner = RoutePlanner(network: network, mode: mode)
            let best = try planner.route(from: start, through: stops, order: .fastest).get()
            var fastest = Double.infinity
            for permutation in permutations(Array(stops.indices)) {
                let route = try planner.route(from: start, through: permutation.map { stops[$0] }).get()
                fastest = min(fastest, route.seconds)
            }
            #expect(abs(best.seconds - fastest) <= 1e-9 * fastest, "\(mode): \(best.seconds) s, best permutation \(fastest) s")
            #expect(Set(best.stops) == Set(stops))
        }
    }

    @Test func failuresAreResultsNotCrashes() {
        var planner = RoutePlanner(network: network, mode: .car)
        let here = GeoCoordinate(latitude: 60.1710, longitude: 24.9414)
        #expect(planner.route(from: here, through: []) == .failure(.noStops))
        let nine = (0..<9).map { RouteStop(name: "s\($0)", coordinate: here.offsetBy(east: Double($0) * 50, north: 0)) }
        #expect(planner.route(from: here, through: nine, order: .fastest) == .failure(.tooManyStopsToReorder(count: 9, limit: 8)))
        let empty = RoadNetwork(OSMExtract())
        var nowhere = RoutePlanner(network: empty, mode: .foot)
        #expect(nowhere.route(from: here, through: [nine[0]]) == .failure(.noRoads(.foot)))
        #expect(RoutingFailure.unreachable(from: "start", to: "Kiasma", mode: .car).description == "'Kiasma' cannot be reached from 'start' by car")
    }

    @Test func placesFromOSMAreSearchable() throws {
        #expect(network.places.search("senaatintori").first?.name == "Senaatintori")
        #expect(network.places.search("mannerheim", limit: 100).contains { $0.name == "Mannerheimintie" && $0.source == .street })
        #expect(network.places.search("ateneum").first?.name.hasPrefix("Ateneum") == true)
        #expect(network.places.search("zzzz-nothing").isEmpty)
        #expect(network.places.place(named: "SENAATINTORI")?.name == "Senaatintori")
        let index = PlaceIndex([Place(name: "Café Ekberg", coordinate: .init(latitude: 60.16, longitude: 24.94), source: .world)])
        #expect(index.search("cafe").count == 1)
    }
}

private func permutations(_ items: [Int]) -> [[Int]] {
    guard items.count > 1 else { return [items] }
    return items.indices.flatMap { index in
        var rest = items
        let first = rest.remove(at: index)
        return permutations(rest).map { [first] + $0 }
    }
}
