import DeviceSimHAL
@testable import DeviceSimRoads
import DeviceSimTime
import Testing

/// The contraction hierarchy's query (``HierarchySearch``) against A* with landmarks
/// (``RouteSearch``): the same path, node for node, and the same seconds to the last bit, also where
/// many paths take exactly the same time (a grid of equal blocks), so that the planner may use
/// either.
@Suite struct ContractionHierarchyTests {
    /// A grid of `side` x `side` nodes 100 m apart, every block taking `seconds` each way (so most
    /// pairs have many paths of equal time), a few one-way streets and a zero-time edge between two
    /// nodes at one spot.
    static func grid(side: Int, seconds: Double) -> RoadGraph {
        let base = GeoCoordinate(latitude: 60.17, longitude: 24.94)
        var coordinates: [GeoCoordinate] = []
        for row in 0..<side {
            for column in 0..<side { coordinates.append(base.offsetBy(east: Double(column) * 100, north: Double(row) * 100)) }
        }
        coordinates.append(coordinates[0])  // A second node where node 0 is.
        var edges: [RoadGraph.Edge] = [.init(from: 0, to: Int32(side * side), seconds: 0), .init(from: Int32(side * side), to: 0, seconds: 0)]
        for row in 0..<side {
            for column in 0..<side {
                let node = Int32(row * side + column)
                if column + 1 < side {
                    edges.append(.init(from: node, to: node + 1, seconds: seconds))
                    if row % 3 != 1 { edges.append(.init(from: node + 1, to: node, seconds: seconds)) }  // Every third row one way.
                }
                if row + 1 < side {
                    edges.append(.init(from: node, to: node + Int32(side), seconds: seconds))
                    edges.append(.init(from: node + Int32(side), to: node, seconds: seconds))
                }
            }
        }
        return RoadGraph(mode: .foot, coordinates: coordinates, edges: edges)
    }

    /// Every pair: the same path (nodes, seconds, endpoints) from both searches, or nil from both.
    static func expectSamePaths(_ graph: RoadGraph, hierarchy built: ContractionHierarchy? = nil) -> (routed: Int, unrouted: Int) {
        var alt = RouteSearch(graph), hierarchy = HierarchySearch(graph: graph, hierarchy: built ?? graph.hierarchy)
        var routed = 0, unrouted = 0
        for source in 0..<Int32(graph.nodeCount) {
            for target in 0..<Int32(graph.nodeCount) {
                let expected = alt.fastestPath(from: source, to: target)
                let found = hierarchy.fastestPath(from: [.init(node: source)], to: [.init(node: target)])
                #expect(found == expected, "\(source) -> \(target): A* \(expected.map { "\($0.seconds) s \($0.nodes)" } ?? "none"), hierarchy \(found.map { "\($0.seconds) s \($0.nodes)" } ?? "none")")
                if expected == nil { unrouted += 1 } else { routed += 1 }
            }
        }
        return (routed, unrouted)
    }

    @Test func sameEqualTimePathsOnAGrid() {
        let graph = Self.grid(side: 9, seconds: 72)
        let (routed, _) = Self.expectSamePaths(graph)
        #expect(routed == graph.nodeCount * graph.nodeCount)
    }

    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func samePathsOnRandomGraphs(seed: UInt64) {
        let random = RouteSearchTests.RandomGraph(seed: seed, nodeCount: 70, zeroTimeEdges: seed % 2 == 0)
        let graph = RoadGraph(mode: .car, coordinates: random.coordinates, edges: random.edges)
        let (routed, unrouted) = Self.expectSamePaths(graph)
        // Both kinds of pair occur (a graph of only one kind would prove little).
        #expect(routed > 500 && unrouted > 100, "\(routed) routed, \(unrouted) not")
        // And the times are the least: as a textbook Dijkstra finds them.
        var hierarchy = HierarchySearch(graph)
        for source in 0..<graph.nodeCount {
            let reference = random.referenceTimes(from: source)
            for target in 0..<graph.nodeCount {
                let found = hierarchy.fastestTime(from: [.init(node: Int32(source))], to: [.init(node: Int32(target))])
                if reference[target].isFinite {
                    #expect(found.map { RouteSearchTests.close($0, reference[target]) } == true, "\(source) -> \(target): \(String(describing: found)) s, Dijkstra \(reference[target]) s")
                } else {
                    #expect(found == nil)
                }
            }
        }
    }

    /// The core's table joins the two sides as a search through the core would: the same paths
    /// with no core, small ones, and one of every rank (each query then only a table look-up).
    @Test(arguments: [0, 1, 8, 30, 1000])
    func samePathsForEveryCoreSize(coreSize: Int) {
        let random = RouteSearchTests.RandomGraph(seed: 5, nodeCount: 60, zeroTimeEdges: true)
        for graph in [Self.grid(side: 8, seconds: 72), RoadGraph(mode: .car, coordinates: random.coordinates, edges: random.edges)] {
            let hierarchy = ContractionHierarchy(graph, coreSize: coreSize)
            #expect(hierarchy.core.size == min(coreSize, graph.nodeCount))
            #expect(hierarchy.isConsistent(nodeCount: graph.nodeCount))
            let (routed, _) = Self.expectSamePaths(graph, hierarchy: hierarchy)
            #expect(routed > graph.nodeCount)
        }
    }

    /// A core table whose arcs do not enter their entries' ranks (a damaged file) is refused.
    @Test func coreTableWithAWrongArcIsInconsistent() throws {
        let graph = Self.grid(side: 6, seconds: 40)
        let hierarchy = ContractionHierarchy(graph, coreSize: 12)
        let core = hierarchy.core
        let index = try #require(core.lastArcs.firstIndex { $0 >= 0 })
        var arcs = core.lastArcs
        arcs[index] = Int32(try #require(hierarchy.upArcs.firstIndex { Int($0.end) != core.coreStart + index % core.size }))
        let damaged = HierarchyCoreTable(rankCount: graph.nodeCount, size: core.size, times: core.times, tieBreakers: core.tieBreakers, lastArcs: arcs)
        #expect(core.isConsistent(with: hierarchy))
        #expect(!damaged.isConsistent(with: hierarchy))
    }

    @Test(arguments: [0, 10, 1000])
    func sameChoiceAmongSeveralSourcesAndTargets(coreSize: Int) {
        let graph = Self.grid(side: 7, seconds: 30)
        var alt = RouteSearch(graph), hierarchy = HierarchySearch(graph: graph, hierarchy: ContractionHierarchy(graph, coreSize: coreSize))
        var random = SeededRandomGenerator(seed: 8)
        for _ in 0..<300 {
            func endpoints() -> [RouteSearch.Endpoint] {
                // Two endpoints, their seconds multiples of 15 so that ties between them are common.
                (0..<2).map { _ in RouteSearch.Endpoint(node: Int32(random.next() % UInt64(graph.nodeCount)), seconds: Double(random.next() % 4) * 15) }
            }
            let sources = endpoints(), targets = endpoints()
            let expected = alt.fastestPath(from: sources, to: targets)
            #expect(hierarchy.fastestPath(from: sources, to: targets) == expected, "\(sources) -> \(targets)")
            #expect(alt.fastestTimes(from: sources, to: targets.map(\.node)).compactMap { $0 }.count == 2)
        }
    }

    @Test func costsAddExactlyAndBreakTiesBelowTheTime() {
        let a = RouteCost(seconds: 0.1, from: 1, to: 2), b = RouteCost(seconds: 0.2, from: 2, to: 3), c = RouteCost(seconds: 0.3, from: 3, to: 4)
        #expect((a + b) + c == a + (b + c))
        // Equal times differ only in their tie-breakers; a nanosecond more outweighs any tie-breaker.
        let one = RouteCost(seconds: 10, from: 1, to: 2), other = RouteCost(seconds: 10, from: 2, to: 1)
        #expect(one != other && one.seconds == other.seconds)
        #expect(RouteCost(seconds: 10) < one && one < RouteCost(seconds: 10 + 1e-9))
        #expect((1...1000).allSatisfy { RouteCost.tieBreaker(from: Int32($0), to: Int32($0 &* 7)) <= 1 << 40 && RouteCost.tieBreaker(from: Int32($0), to: 0) >= 1 })
        // A lower bound stays at or below the cost of a path of that time.
        #expect(RouteCost.lowerBound(seconds: 10) <= RouteCost(seconds: 10))
    }
}
