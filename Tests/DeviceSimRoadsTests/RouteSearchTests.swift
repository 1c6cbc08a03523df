import DeviceSimHAL
@testable import DeviceSimRoads
import DeviceSimTime
import Testing

/// The route search (A* with landmarks) against a plain Dijkstra written here, on random graphs with
/// one-way edges, unreachable parts, parallel edges and edges of no length or no time.
@Suite struct RouteSearchTests {
    /// A random graph: nodes scattered over a few kilometres (some at the same spot), edges mostly
    /// between near nodes at 3-60 km/h over their length (some slower), one way or both ways,
    /// parallel edges, loops, zero-length and zero-time edges, and a few nodes without edges.
    struct RandomGraph {
        var coordinates: [GeoCoordinate]
        var edges: [RoadGraph.Edge]

        init(seed: UInt64, nodeCount: Int, zeroTimeEdges: Bool) {
            var random = SeededRandomGenerator(seed: seed)
            func uniform() -> Double { Double(random.next() % 1_000_000) / 1_000_000 }
            let base = GeoCoordinate(latitude: 60.17, longitude: 24.94)
            var coordinates: [GeoCoordinate] = []
            for index in 0..<nodeCount {
                if index > 0, random.next() % 10 == 0 {
                    coordinates.append(coordinates[Int(random.next() % UInt64(index))])  // Same spot as another node.
                } else {
                    coordinates.append(base.offsetBy(east: uniform() * 3_000, north: uniform() * 3_000))
                }
            }
            var edges: [RoadGraph.Edge] = []
            let isolated = Set((0..<nodeCount / 10).map { _ in Int32(random.next() % UInt64(nodeCount)) })
            for _ in 0..<(nodeCount * 3) {
                let from = Int32(random.next() % UInt64(nodeCount))
                // Mostly a near node (index distance up to 5), sometimes any node.
                let offset = Int(random.next() % 11) - 5
                let to = random.next() % 8 == 0 ? Int32(random.next() % UInt64(nodeCount)) : Int32(min(max(0, Int(from) + offset), nodeCount - 1))
                guard !isolated.contains(from), !isolated.contains(to) else { continue }
                let metres = coordinates[Int(from)].distance(to: coordinates[Int(to)])
                let kmh = 3 + uniform() * 57
                var seconds = metres / (kmh / 3.6) * (random.next() % 5 == 0 ? 1 + uniform() * 3 : 1)
                if zeroTimeEdges, random.next() % 25 == 0 { seconds = 0 }
                edges.append(.init(from: from, to: to, seconds: seconds))
                if random.next() % 3 != 0 { edges.append(.init(from: to, to: from, seconds: seconds)) }  // A third one way.
            }
            self.coordinates = coordinates
            self.edges = edges
        }

        /// Least travel times from `source` to every node by a textbook Dijkstra over the edge list
        /// (infinity: unreachable).
        func referenceTimes(from source: Int) -> [Double] {
            var times = [Double](repeating: .infinity, count: coordinates.count)
            var done = [Bool](repeating: false, count: coordinates.count)
            times[source] = 0
            while let node = times.indices.filter({ !done[$0] && times[$0].isFinite }).min(by: { times[$0] < times[$1] }) {
                done[node] = true
                for edge in edges where Int(edge.from) == node {
                    times[Int(edge.to)] = min(times[Int(edge.to)], times[node] + edge.seconds)
                }
            }
            return times
        }
    }

    static func close(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= 1e-9 * max(abs(b), 1e-300) }

    @Test(arguments: [(1, 0), (2, 1), (3, 3), (4, nil), (5, 16), (6, nil), (7, 40)] as [(UInt64, Int?)])
    func searchMatchesDijkstraOnRandomGraphs(seed: UInt64, landmarkCount: Int?) throws {
        let random = RandomGraph(seed: seed, nodeCount: 60, zeroTimeEdges: seed % 2 == 0)
        let graph = RoadGraph(mode: .car, coordinates: random.coordinates, edges: random.edges, landmarkCount: landmarkCount)
        var search = RouteSearch(graph)
        var reachable = 0, unreachable = 0
        for source in 0..<graph.nodeCount {
            let reference = random.referenceTimes(from: source)
            let all = search.fastestTimes(from: Int32(source), to: (0..<Int32(graph.nodeCount)).map { $0 })
            for target in 0..<graph.nodeCount {
                let expected = reference[target]
                let found = search.fastestPath(from: Int32(source), to: Int32(target))
                if expected.isInfinite {
                    unreachable += 1
                    #expect(found == nil, "\(source) -> \(target): unreachable, found \(found!.seconds) s")
                    #expect(all[target] == nil)
                    continue
                }
                reachable += 1
                let path = try #require(found, "\(source) -> \(target): \(expected) s, found no path")
                #expect(Self.close(path.seconds, expected), "\(source) -> \(target): \(path.seconds) s, Dijkstra \(expected) s")
                #expect(search.fastestTime(from: Int32(source), to: Int32(target)) == path.seconds)
                #expect(Self.close(try #require(all[target]), expected))
                // The path is a chain of the graph's edges from source to target adding up to its time.
                #expect(path.nodes.first == Int32(source) && path.nodes.last == Int32(target))
                var sum = 0.0
                for (a, b) in zip(path.nodes, path.nodes.dropFirst()) { sum += try #require(graph.seconds(from: a, to: b)) }
                #expect(Self.close(sum, expected))
            }
        }
        // Both kinds of pair occur in each graph (a graph of only one kind would prove little).
        #expect(reachable > 500 && unreachable > 100, "\(reachable) reachable, \(unreachable) unreachable pairs")
    }

    @Test(arguments: [11, 12, 13] as [UInt64])
    func landmarkBoundNeverExceedsTheTrueTime(seed: UInt64) {
        let random = RandomGraph(seed: seed, nodeCount: 80, zeroTimeEdges: true)
        let graph = RoadGraph(mode: .car, coordinates: random.coordinates, edges: random.edges, landmarkCount: 8)
        let table = graph.landmarks
        #expect(table.count == 8)
        #expect(Set(table.nodes).count == table.count)
        #expect(table.nodes.allSatisfy { graph.isRoutable[Int($0)] })
        var informative = 0, provedUnreachable = 0
        for source in 0..<graph.nodeCount {
            let reference = random.referenceTimes(from: source)
            for target in 0..<graph.nodeCount {
                let bound = table.lowerBound(from: Int32(source), to: Int32(target))
                #expect(bound <= reference[target], "\(source) -> \(target): bound \(bound) s, true time \(reference[target]) s")
                if bound > 0, reference[target].isFinite { informative += 1 }
                if bound >= LandmarkTable.unreachableBound { provedUnreachable += 1 }
            }
        }
        // The bound says something for most reachable pairs, and proves some pairs unreachable.
        #expect(informative > graph.nodeCount * graph.nodeCount / 4)
        #expect(provedUnreachable > 0)
    }

    @Test func landmarkTimesAreRoundedTheSafeWay() {
        for time in [0, 1e-3, 0.1, 1, 123.456789, 98_765.4321, 1e7 + 0.3] {
            #expect(Double(LandmarkTable.roundedUp(time)) >= time)
            #expect(Double(LandmarkTable.roundedDown(time)) <= time)
        }
        #expect(LandmarkTable.roundedUp(.infinity) == LandmarkTable.unreachable)
        #expect(LandmarkTable.roundedDown(.infinity) == LandmarkTable.unreachable)
    }

    @Test func graphsWithoutRoutesHaveNoLandmarks() {
        let empty = RoadGraph(mode: .foot, coordinates: [], edges: [])
        #expect(empty.landmarks.count == 0)
        let lonely = RoadGraph(mode: .foot, coordinates: [GeoCoordinate(latitude: 60, longitude: 24)], edges: [])
        var search = RouteSearch(lonely)
        #expect(search.fastestTime(from: 0, to: 0) == 0)
        #expect(RoadGraph(mode: .foot, coordinates: [], edges: [], landmarkCount: 0).memoryFootprint == empty.memoryFootprint)
    }

    @Test func landmarksCutTheWorkOnHelsinki() {
        // Not a timing: the number of nodes settled for the same 300 queries, with and without
        // landmarks, and the same answers.
        let graph = Helsinki.network.foot
        var edges: [RoadGraph.Edge] = []
        for node in 0..<Int32(graph.nodeCount) {
            for edge in graph.edges(of: node) { edges.append(.init(from: node, to: graph.edgeTargets[edge], seconds: graph.edgeSeconds[edge])) }
        }
        let straightLine = RoadGraph(mode: .foot, coordinates: graph.coordinates, edges: edges, landmarkCount: 0)
        #expect(straightLine.landmarks.count == 0)
        #expect(graph.landmarks.count == 16)
        #expect(graph.memoryFootprint > straightLine.memoryFootprint + graph.nodeCount * 16 * 8)
        var withLandmarks = RouteSearch(graph), without = RouteSearch(straightLine)
        var random = SeededRandomGenerator(seed: 5)
        let routable = (0..<Int32(graph.nodeCount)).filter { graph.isRoutable[Int($0)] }
        var settledWith = 0, settledWithout = 0
        for _ in 0..<300 {
            let source = routable[Int(random.next() % UInt64(routable.count))], target = routable[Int(random.next() % UInt64(routable.count))]
            let a = withLandmarks.fastestTime(from: source, to: target), b = without.fastestTime(from: source, to: target)
            #expect(a != nil && Self.close(a!, b!))
            settledWith += withLandmarks.settledCount
            settledWithout += without.settledCount
        }
        #expect(settledWith * 3 < settledWithout, "settled with landmarks \(settledWith), without \(settledWithout)")
    }
}
