import DeviceSimHAL
import Foundation

/// The roads one ``TravelMode`` may use, as a directed graph in compressed sparse row form: node `n`'s
/// outgoing edges are `edgeTargets[edgeStarts[n]..<edgeStarts[n + 1]]`, each with its travel time in
/// seconds.
///
/// Nodes are shared by the modes of a ``RoadNetwork`` (the same index is the same OSM node); a
/// node a mode cannot use simply has no edges in that mode's graph.
///
/// ```swift
/// let graph = RoadGraph(mode: .foot, coordinates: [a, b], edges: [.init(from: 0, to: 1, seconds: 72)])
/// var search = RouteSearch(graph)
/// let route = search.fastestPath(from: 0, to: 1)   // 72 s, nodes [0, 1]
/// ```
public struct RoadGraph: Sendable {
    /// One directed edge, for building a graph.
    public struct Edge: Sendable, Hashable {
        /// Where it starts (node index).
        public var from: Int32
        /// Where it ends (node index).
        public var to: Int32
        /// Travel time, seconds (finite, >= 0).
        public var seconds: Double

        /// Creates an edge.
        public init(from: Int32, to: Int32, seconds: Double) {
            self.from = from
            self.to = to
            self.seconds = seconds
        }
    }

    /// The travel mode.
    public let mode: TravelMode
    /// Every node's position.
    public let coordinates: [GeoCoordinate]
    /// Every node's position as a point on the unit sphere (x, y, z interleaved), for the search's
    /// straight-line (chord) lower bound.
    let unitVectors: [Double]
    /// Where each node's edges begin in ``edgeTargets``; one more entry than nodes.
    public let edgeStarts: [Int32]
    /// Edge targets, grouped by source node.
    public let edgeTargets: [Int32]
    /// Edge travel times in seconds, parallel to ``edgeTargets``.
    public let edgeSeconds: [Double]
    /// Edge lengths in metres (the great-circle distance between the ends), parallel to
    /// ``edgeTargets``: a route's length without a haversine per edge.
    public let edgeMetres: [Double]
    /// The fastest speed of any edge, m/s (edge length over time; the search's heuristic divides by it;
    /// infinity when an edge of some length takes no time).
    public let maximumSpeed: Double
    /// Whether each node is in the graph's largest strongly connected component (where positions
    /// snap to).
    let isRoutable: [Bool]
    /// Each edge's exact cost for the searches (``RouteCost``: its time in fixed point and its
    /// tie-breaker), parallel to ``edgeTargets``.
    let edgeCosts: [RouteCost]
    /// The landmark table, computed on first use.
    let landmarkStore: LandmarkStore
    /// The contraction hierarchy, built on first use.
    let hierarchyStore: HierarchyStore

    /// Builds a graph; of parallel edges (same from and to) only the fastest is kept, loops are dropped.
    /// `landmarkCount` sets how many landmarks the search's bound uses (default
    /// ``LandmarkTable/defaultCount(nodeCount:)``; 0 for none); they are chosen on first use.
    public init(mode: TravelMode, coordinates: [GeoCoordinate], edges: [Edge], landmarkCount: Int? = nil) {
        self.mode = mode
        landmarkStore = LandmarkStore(count: landmarkCount ?? LandmarkTable.defaultCount(nodeCount: coordinates.count))
        hierarchyStore = HierarchyStore()
        self.coordinates = coordinates
        var vectors = [Double](repeating: 0, count: coordinates.count * 3)
        for (index, coordinate) in coordinates.enumerated() {
            let φ = coordinate.latitude * .pi / 180, λ = coordinate.longitude * .pi / 180
            vectors[3 * index] = cos(φ) * cos(λ)
            vectors[3 * index + 1] = cos(φ) * sin(λ)
            vectors[3 * index + 2] = sin(φ)
        }
        unitVectors = vectors
        let sorted = edges.filter { $0.from != $0.to }.sorted { ($0.from, $0.to, $0.seconds) < ($1.from, $1.to, $1.seconds) }
        var starts = [Int32](repeating: 0, count: coordinates.count + 1)
        var targets: [Int32] = [], seconds: [Double] = [], lengths: [Double] = []
        targets.reserveCapacity(sorted.count)
        seconds.reserveCapacity(sorted.count)
        lengths.reserveCapacity(sorted.count)
        var fastest = 0.0
        var previous: (Int32, Int32) = (-1, -1)
        for edge in sorted where (edge.from, edge.to) != previous {
            previous = (edge.from, edge.to)
            targets.append(edge.to)
            seconds.append(edge.seconds)
            starts[Int(edge.from) + 1] += 1
            let metres = coordinates[Int(edge.from)].distance(to: coordinates[Int(edge.to)])
            lengths.append(metres)
            // An edge of no time between two places makes the straight-line bound useless (infinite speed).
            if edge.seconds > 0 { fastest = max(fastest, metres / edge.seconds) } else if metres > 0 { fastest = .infinity }
        }
        for index in 0..<coordinates.count { starts[index + 1] += starts[index] }
        edgeStarts = starts
        edgeTargets = targets
        edgeSeconds = seconds
        edgeMetres = lengths
        edgeCosts = Self.costs(starts: starts, targets: targets, seconds: seconds)
        maximumSpeed = fastest
        isRoutable = StronglyConnectedComponents.largest(nodeCount: coordinates.count, starts: starts, targets: targets)
    }

    /// The number of nodes.
    public var nodeCount: Int { coordinates.count }
    /// The number of directed edges.
    public var edgeCount: Int { edgeTargets.count }

    /// The outgoing edges of `node` as index range into ``edgeTargets`` and ``edgeSeconds``.
    @inline(__always)
    public func edges(of node: Int32) -> Range<Int> { Int(edgeStarts[Int(node)])..<Int(edgeStarts[Int(node) + 1]) }

    /// The edges' costs (``RouteCost``) from their ends and seconds.
    static func costs(starts: [Int32], targets: [Int32], seconds: [Double]) -> [RouteCost] {
        var costs: [RouteCost] = []
        costs.reserveCapacity(targets.count)
        for node in 0..<max(starts.count - 1, 0) {
            for edge in Int(starts[node])..<Int(starts[node + 1]) {
                costs.append(RouteCost(seconds: seconds[edge], from: Int32(node), to: targets[edge]))
            }
        }
        return costs
    }

    /// The seconds along `nodes` (consecutive nodes joined by edges), added one edge after another in
    /// travel order to `start`: how every search sums a path's time.
    func seconds(along nodes: [Int32], after start: Double) -> Double {
        var seconds = start
        for (a, b) in zip(nodes, nodes.dropFirst()) { seconds += edgeSeconds[edge(from: a, to: b)!] }
        return seconds
    }

    /// The travel time of the edge from `from` to `to`, if there is one.
    public func seconds(from: Int32, to: Int32) -> Double? { edge(from: from, to: to).map { edgeSeconds[$0] } }

    /// The index of the edge from `from` to `to` (into ``edgeTargets``, ``edgeSeconds`` and
    /// ``edgeMetres``), if there is one.
    @inline(__always)
    public func edge(from: Int32, to: Int32) -> Int? {
        for edge in edges(of: from) where edgeTargets[edge] == to { return edge }
        return nil
    }

    /// The landmarks of the route search's lower bound and their travel times to and from every node,
    /// computed on the first call (a few Dijkstra searches over the whole graph) and shared by copies
    /// of this graph.
    public var landmarks: LandmarkTable { landmarkStore.table(for: self) }

    /// The contraction hierarchy of the graph (``HierarchySearch``), built on the first call (a
    /// second on Helsinki's foot graph, with its squares) and shared by copies of this graph; a graph
    /// read from a prepared file has it already.
    public var hierarchy: ContractionHierarchy { hierarchyStore.hierarchy(for: self) }

    /// Whether the graph has its contraction hierarchy already (read from a prepared file, or built).
    public var hasHierarchy: Bool { hierarchyStore.computed != nil }

    /// Bytes held by the graph's arrays (coordinates included), and by its landmark table and
    /// contraction hierarchy once computed.
    public var memoryFootprint: Int {
        coordinates.count * MemoryLayout<GeoCoordinate>.stride + unitVectors.count * 8 + edgeStarts.count * 4
            + edgeTargets.count * 4 + edgeSeconds.count * 8 + edgeMetres.count * 8 + edgeCosts.count * MemoryLayout<RouteCost>.stride + isRoutable.count + (landmarkStore.computed?.memoryFootprint ?? 0)
            + (hierarchyStore.computed?.memoryFootprint ?? 0)
    }
}
