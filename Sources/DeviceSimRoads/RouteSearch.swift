import DeviceSimHAL

/// Least-travel-time search on a ``RoadGraph``: A* with landmarks (ALT) for one pair, Dijkstra for
/// one-to-many.
///
/// **A\***: the priority of a node is its travel time from the source plus a lower bound of the rest,
/// the largest of two kinds of bound:
/// - the straight-line (chord) distance to the target divided by the graph's fastest edge speed (a
///   chord is never longer than the road, no edge is faster than ``RoadGraph/maximumSpeed``);
/// - the landmark bounds of ``RoadGraph/landmarks`` (``LandmarkTable``): by the triangle inequality,
///   `d(L, t) − d(L, v)` and `d(v, L) − d(t, L)` for a landmark `L`, with the stored times rounded so
///   that the bound only gets smaller. Each query uses the ``activeLandmarkCount`` landmarks that
///   give the best bound at its source. On road graphs these bounds are far tighter than the
///   straight line (they know about rivers, one-way streets and slow roads), so far fewer nodes are
///   settled. A node the landmarks prove cannot reach the target (bound about 1e30) is never
///   queued, so most unreachable targets are answered at once.
///
/// Paths are compared by their exact ``RouteCost`` (time in fixed point, then a per-edge
/// tie-breaker), as ``HierarchySearch`` compares them, so that both return the same path, also among
/// paths of equal time. The seconds returned are the path's edges' `Double` seconds summed in travel
/// order.
///
/// Both bounds never overestimate (admissible), so the first time the target leaves the queue its
/// time is the least. Exact potentials are also consistent; as the stored ones are rounded, a node
/// may be reached again with a smaller time after it was settled, in which case it is simply queued
/// again, so the result stays exact (not merely within the rounding).
///
/// The choice of unidirectional ALT over a bidirectional search: one search frontier keeps the
/// stopping rule trivial (stop when the target is settled) and the path reconstruction a single
/// parent chain, and with landmark bounds it already settles a fraction of the nodes the straight-line
/// bound does (a quarter at the median on the Helsinki foot graph, a sixth on a generated
/// million-node grid: Benchmarks' bench-roads).
///
/// A search keeps its scratch arrays between queries (only the nodes a query touched are reset), so
/// make one per thread and reuse it.
///
/// ```swift
/// var search = RouteSearch(network.graph(for: .car))
/// if let path = search.fastestPath(from: a, to: b) { print(path.seconds, path.nodes.count) }
/// ```
public struct RouteSearch {
    /// A path found by the search.
    public struct Path: Sendable, Hashable {
        /// Total travel time, seconds (with the chosen source's and target's own seconds).
        public var seconds: Double
        /// Node indices from source to target.
        public var nodes: [Int32]
        /// Which of the sources and targets it starts and ends at (0 for a single pair).
        public var source = 0, target = 0
    }

    /// A node a search starts or ends at, with seconds already spent getting to it (a source) or
    /// still to spend after it (a target): how a position joined to a segment enters the graph.
    public struct Endpoint: Sendable, Hashable {
        /// The graph node.
        public var node: Int32
        /// Seconds before (a source) or after (a target) the node.
        public var seconds: Double

        /// Creates an endpoint.
        public init(node: Int32, seconds: Double = 0) {
            self.node = node
            self.seconds = seconds
        }
    }

    /// The graph searched.
    public let graph: RoadGraph
    /// Each touched node's least cost found so far.
    private var costs: [RouteCost]
    private var parents: [Int32]
    private var touched: [Int32] = []
    private var heap = MinimumHeap<RouteCost>()
    /// The graph's edge costs, parallel to its edges.
    private let edgeCosts: [RouteCost]
    /// The landmark table of ``graph``.
    private let landmarks: LandmarkTable
    /// Each touched node's lower bound to the current targets.
    private var bounds: [RouteCost]
    /// For each landmark the current query uses: its offset in a node's row of the table; and per
    /// target (`target * active count + slot`) the target's time from it (rounded down) and to it
    /// (rounded up).
    private var activeOffsets: [Int] = [], targetFromLandmark: [Double] = [], targetToLandmark: [Double] = []
    /// How many landmarks one query's bound uses at most.
    static let activeLandmarkCount = 6
    /// Nodes taken from the queue by the last query (a measure of its work).
    public private(set) var settledCount = 0

    /// A search over `graph`.
    public init(_ graph: RoadGraph) {
        self.graph = graph
        landmarks = graph.landmarks
        edgeCosts = graph.edgeCosts
        bounds = [RouteCost](repeating: .zero, count: graph.nodeCount)
        costs = [RouteCost](repeating: .infinity, count: graph.nodeCount)
        parents = [Int32](repeating: -1, count: graph.nodeCount)
    }

    private mutating func reset() {
        for node in touched {
            costs[Int(node)] = .infinity
            parents[Int(node)] = -1
        }
        touched.removeAll(keepingCapacity: true)
        heap.removeAll()
        settledCount = 0
    }

    /// The fastest path from `source` to `target`, or nil when the target cannot be reached.
    public mutating func fastestPath(from source: Int32, to target: Int32) -> Path? {
        fastestPath(from: [Endpoint(node: source)], to: [Endpoint(node: target)])
    }

    /// The least travel time from `source` to `target` in seconds, or nil when it cannot be reached.
    public mutating func fastestTime(from source: Int32, to target: Int32) -> Double? {
        fastestTime(from: [Endpoint(node: source)], to: [Endpoint(node: target)])
    }

    /// The fastest path from any of `sources` to any of `targets`, counting each endpoint's own
    /// seconds; nil when none of the targets can be reached (or either list is empty).
    public mutating func fastestPath(from sources: [Endpoint], to targets: [Endpoint]) -> Path? {
        guard let (source, target, node) = search(from: sources, to: targets) else { return nil }
        let nodes = chain(to: node)
        return Path(seconds: graph.seconds(along: nodes, after: sources[source].seconds) + targets[target].seconds, nodes: nodes, source: source, target: target)
    }

    /// The least travel time from any of `sources` to any of `targets` (each endpoint's own seconds
    /// counted), without the path; nil when none of the targets can be reached.
    public mutating func fastestTime(from sources: [Endpoint], to targets: [Endpoint]) -> Double? {
        guard let (source, target, node) = search(from: sources, to: targets) else { return nil }
        return secondsBack(from: node, startingWith: sources[source].seconds) + targets[target].seconds
    }

    /// The seconds from the start of `node`'s parent chain to `node`, summed in travel order after
    /// `start` (as ``RoadGraph/seconds(along:after:)`` sums them).
    private func secondsBack(from node: Int32, startingWith start: Double) -> Double {
        graph.seconds(along: chain(to: node), after: start)
    }

    /// The nodes of `node`'s parent chain, from its start to `node`.
    private func chain(to node: Int32) -> [Int32] {
        var nodes: [Int32] = [node]
        var current = node
        while parents[Int(current)] >= 0 {
            current = parents[Int(current)]
            nodes.append(current)
        }
        nodes.reverse()
        return nodes
    }

    /// A* from the sources to the targets: the source and target of the least total cost, and the
    /// target's node (its parent chain leads back to the source).
    private mutating func search(from sources: [Endpoint], to targets: [Endpoint]) -> (source: Int, target: Int, node: Int32)? {
        reset()
        guard !sources.isEmpty, !targets.isEmpty else { return nil }
        let vectors = graph.unitVectors
        let targetCount = targets.count
        var targetVectors: [Double] = []
        for target in targets { let t = Int(target.node) * 3; targetVectors += [vectors[t], vectors[t + 1], vectors[t + 2]] }
        // Metres per unit of chord over the fastest speed, shaved by a millionth against rounding.
        let scale = graph.maximumSpeed > 0 ? GeoCoordinate.earthRadius / graph.maximumSpeed * (1 - 1e-6) : 0
        chooseLandmarks(source: sources[0].node, targets: targets.map(\.node))
        let table = landmarks.times, stride = 2 * landmarks.count
        let offsets = activeOffsets, fromLandmark = targetFromLandmark, toLandmark = targetToLandmark
        let activeCount = offsets.count
        let extras = targets.map(\.seconds)
        let extraCosts = extras.map(RouteCost.init(seconds:))
        /// The bound as a cost, nil when it proves the targets cannot be reached.
        @inline(__always) func boundCost(_ node: Int32) -> RouteCost? {
            let seconds = bound(node)
            return seconds < LandmarkTable.unreachableBound ? RouteCost.lowerBound(seconds: seconds) : nil
        }
        @inline(__always) func bound(_ node: Int32) -> Double {
            let i = Int(node) * 3
            let x = vectors[i], y = vectors[i + 1], z = vectors[i + 2]
            let base = Int(node) * stride
            var least = Double.infinity
            for target in 0..<targetCount {
                let dx = x - targetVectors[3 * target], dy = y - targetVectors[3 * target + 1], dz = z - targetVectors[3 * target + 2]
                var best = (dx * dx + dy * dy + dz * dz).squareRoot() * scale
                let terms = target * activeCount
                for slot in 0..<activeCount {
                    let entry = base + offsets[slot]
                    let viaFrom = fromLandmark[terms + slot] - Double(table[entry])
                    let viaTo = Double(table[entry + 1]) - toLandmark[terms + slot]
                    if viaFrom > best { best = viaFrom }
                    if viaTo > best { best = viaTo }
                }
                least = min(least, best + extras[target])
            }
            return least
        }
        var sourceOf: [Int32: Int] = [:]
        for (index, source) in sources.enumerated() {
            let cost = RouteCost(seconds: source.seconds)
            guard cost < costs[Int(source.node)], let sourceBound = boundCost(source.node) else { continue }
            if costs[Int(source.node)] == .infinity { touched.append(source.node) }
            costs[Int(source.node)] = cost
            bounds[Int(source.node)] = sourceBound
            sourceOf[source.node] = index
            heap.insert(source.node, key: cost + sourceBound)
        }
        var best: (cost: RouteCost, target: Int, node: Int32)?
        let starts = graph.edgeStarts, edgeTargets = graph.edgeTargets, edgeCosts = edgeCosts
        while !heap.isEmpty {
            let (node, key) = heap.popMinimum()
            let cost = costs[Int(node)]
            if key > cost + bounds[Int(node)] { continue }  // A stale entry.
            if let best, key >= best.cost { break }  // Nothing left can do better.
            settledCount += 1
            for target in 0..<targetCount where targets[target].node == node {
                let total = cost + extraCosts[target]
                if best == nil || total < best!.cost { best = (total, target, node) }
            }
            if targetCount == 1, best != nil { break }
            for edge in Int(starts[Int(node)])..<Int(starts[Int(node) + 1]) {
                let next = edgeTargets[edge]
                let candidate = cost + edgeCosts[edge]
                let previous = costs[Int(next)]
                if candidate < previous {
                    if previous == .infinity {
                        touched.append(next)
                        // A node whose bound says it cannot reach the targets is never queued.
                        bounds[Int(next)] = boundCost(next) ?? .infinity
                    }
                    costs[Int(next)] = candidate
                    parents[Int(next)] = node
                    let rest = bounds[Int(next)]
                    if rest != .infinity { heap.insert(next, key: candidate + rest) }
                }
            }
        }
        guard let best else { return nil }
        // The source the path starts at: the end of the parent chain.
        var first = best.node
        while parents[Int(first)] >= 0 { first = parents[Int(first)] }
        return (sourceOf[first] ?? 0, best.target, best.node)
    }

    /// Picks the landmarks this query's bound uses: the ``activeLandmarkCount`` giving the best bound
    /// from the source to the first target (any subset keeps the bound admissible; fewer make each
    /// node's bound cheaper; a landmark proving the target unreachable ranks first). Reads each
    /// target's terms, each moved one `Float` step the safe way (see ``LandmarkTable``).
    private mutating func chooseLandmarks(source: Int32, targets: [Int32]) {
        activeOffsets.removeAll(keepingCapacity: true)
        targetFromLandmark.removeAll(keepingCapacity: true)
        targetToLandmark.removeAll(keepingCapacity: true)
        let k = landmarks.count, table = landmarks.times
        guard k > 0, let target = targets.first else { return }
        var ranked: [(bound: Double, landmark: Int)] = []
        ranked.reserveCapacity(k)
        for landmark in 0..<k {
            let t = 2 * (Int(target) * k + landmark), s = 2 * (Int(source) * k + landmark)
            let viaFrom = Double(table[t].nextDown) - Double(table[s]), viaTo = Double(table[s + 1]) - Double(table[t + 1].nextUp)
            ranked.append((max(viaFrom, viaTo), landmark))
        }
        ranked.sort { ($0.bound, $1.landmark) > ($1.bound, $0.landmark) }
        let chosen = ranked.prefix(Self.activeLandmarkCount).map(\.landmark)
        for landmark in chosen { activeOffsets.append(2 * landmark) }
        for target in targets {
            for landmark in chosen {
                let t = 2 * (Int(target) * k + landmark)
                targetFromLandmark.append(Double(table[t].nextDown))
                targetToLandmark.append(Double(table[t + 1].nextUp))
            }
        }
    }

    /// The least travel times from `source` to each of `targets` (nil: unreachable), by Dijkstra's
    /// search stopped once every target is settled.
    public mutating func fastestTimes(from source: Int32, to targets: [Int32]) -> [Double?] {
        fastestTimes(from: [Endpoint(node: source)], to: targets)
    }

    /// The least travel times from any of `sources` (with their own seconds) to each of `targets`
    /// (nil: unreachable), by Dijkstra's search stopped once every target is settled. Each time is
    /// that of the path ``fastestPath(from:to:)-(_,[Endpoint])`` finds to the target alone (the same
    /// ``RouteCost`` order), summed the same way.
    public mutating func fastestTimes(from sources: [Endpoint], to targets: [Int32]) -> [Double?] {
        reset()
        var remaining = Set(targets)
        var sourceOf: [Int32: Int] = [:]
        for (index, source) in sources.enumerated() {
            let cost = RouteCost(seconds: source.seconds)
            guard cost < costs[Int(source.node)] else { continue }
            if costs[Int(source.node)] == .infinity { touched.append(source.node) }
            costs[Int(source.node)] = cost
            sourceOf[source.node] = index
            heap.insert(source.node, key: cost)
        }
        let starts = graph.edgeStarts, edgeTargets = graph.edgeTargets, edgeCosts = edgeCosts
        while !heap.isEmpty, !remaining.isEmpty {
            let (node, key) = heap.popMinimum()
            if key > costs[Int(node)] { continue }
            settledCount += 1
            remaining.remove(node)
            for edge in Int(starts[Int(node)])..<Int(starts[Int(node) + 1]) {
                let next = edgeTargets[edge]
                let candidate = key + edgeCosts[edge]
                if candidate < costs[Int(next)] {
                    if costs[Int(next)] == .infinity { touched.append(next) }
                    costs[Int(next)] = candidate
                    parents[Int(next)] = node
                    heap.insert(next, key: candidate)
                }
            }
        }
        return targets.map { target in
            guard costs[Int(target)] != .infinity else { return nil }
            var first = target
            while parents[Int(first)] >= 0 { first = parents[Int(first)] }
            return secondsBack(from: target, startingWith: sources[sourceOf[first] ?? 0].seconds)
        }
    }
}
