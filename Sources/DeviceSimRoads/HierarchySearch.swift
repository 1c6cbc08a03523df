/// Least-cost paths on a ``RoadGraph`` through its ``ContractionHierarchy``: a bidirectional
/// Dijkstra that only goes up the hierarchy, forward from the sources and backward from the targets,
/// with stall-on-demand (a node reached more cheaply from above is not expanded); the path is then
/// unpacked into the graph's nodes.
///
/// Paths are compared by their exact ``RouteCost``, as ``RouteSearch`` compares them, so both find
/// the same path (also among paths of equal time). The seconds returned are summed along the
/// unpacked path from the source in travel order, edge by edge, as ``RouteSearch`` sums them.
///
/// It searches by rank (the hierarchy's layout: the ranks every query reaches lie together). A
/// search keeps its arrays between queries (only the ranks a query touched are reset), so make one
/// per thread and reuse it.
///
/// ```swift
/// var search = HierarchySearch(network.graph(for: .car))
/// if let path = search.fastestPath(from: [.init(node: a)], to: [.init(node: b)]) { print(path.seconds, path.nodes) }
/// ```
public struct HierarchySearch {
    /// The graph searched.
    public let graph: RoadGraph
    /// Its hierarchy.
    public let hierarchy: ContractionHierarchy
    private var forward: Side, backward: Side

    /// Nodes taken from the queues by the last query (a measure of its work).
    public private(set) var settledCount = 0

    /// How one direction reached a rank.
    private struct Parent {
        /// The arc (index into the direction's arc list) the rank was reached by (-1: an endpoint).
        var arc: Int32
        /// The endpoint (source or target index) the rank's cost starts from.
        var origin: Int32
    }

    /// One direction's search state, by rank: each rank's least cost found (infinity: not reached)
    /// in one dense array, read by every stall check and relaxation, and how it was reached in
    /// another, written only when the cost is lowered.
    private struct Side {
        var costs: [RouteCost]
        var parents: [Parent]
        var touched: [Int32] = []
        var heap = MinimumHeap<RouteCost>()

        init(nodeCount: Int) {
            costs = [RouteCost](repeating: .infinity, count: nodeCount)
            parents = [Parent](repeating: Parent(arc: -1, origin: -1), count: nodeCount)
        }

        mutating func reset() {
            for rank in touched { costs[Int(rank)] = .infinity }
            touched.removeAll(keepingCapacity: true)
            heap.removeAll()
        }

        /// Starts from `endpoints` (of one node, the first of least cost counts, as in ``RouteSearch``).
        mutating func start(_ endpoints: [RouteSearch.Endpoint], ranks: [Int32]) {
            for (index, endpoint) in endpoints.enumerated() {
                let rank = ranks[Int(endpoint.node)], cost = RouteCost(seconds: endpoint.seconds)
                guard cost < costs[Int(rank)] else { continue }
                if costs[Int(rank)] == .infinity { touched.append(rank) }
                costs[Int(rank)] = cost
                parents[Int(rank)] = Parent(arc: -1, origin: Int32(index))
                heap.insert(rank, key: cost)
            }
        }

        /// Whether a higher rank reaches `rank` more cheaply than `key` through `stallArcs` (its
        /// arcs `starts[rank]..<starts[rank + 1]`): then no least-cost path goes up from it
        /// (stall-on-demand).
        @inline(__always)
        func isStalled(_ rank: Int32, key: RouteCost, starts: [Int32], stallArcs: [HierarchyArc]) -> Bool {
            let range = Int(starts[Int(rank)])..<Int(starts[Int(rank) + 1])
            return costs.withUnsafeBufferPointer { costs in
                stallArcs.withUnsafeBufferPointer { arcs in
                    for arc in range {
                        let above = costs[Int(arcs[arc].end)]
                        if above != .infinity, above + arcs[arc].cost < key { return true }
                    }
                    return false
                }
            }
        }

        /// Expands `rank`, settled at `key`: nothing when it is stalled (``isStalled(_:key:starts:stallArcs:)``),
        /// else each of its `relaxArcs` relaxed. Arc lists by rank: `starts[r]..<starts[r + 1]`.
        ///
        /// A rank reached at `best` or more is left alone (no path through it can be the least), and
        /// a rank the other direction (`other`) has reached is a meeting: `best` and `meeting` are
        /// lowered when the two costs together are less.
        @inline(__always)
        mutating func expand(_ rank: Int32, key: RouteCost, stallStarts: [Int32], stallArcs: [HierarchyArc], relaxStarts: [Int32], relaxArcs: [HierarchyArc],
                             other: [RouteCost], best: inout RouteCost, meeting: inout Int32) {
            guard !isStalled(rank, key: key, starts: stallStarts, stallArcs: stallArcs) else { return }
            let origin = parents[Int(rank)].origin
            for arc in Int(relaxStarts[Int(rank)])..<Int(relaxStarts[Int(rank) + 1]) {
                let next = relaxArcs[arc].end, candidate = key + relaxArcs[arc].cost
                guard candidate < best else { continue }
                let current = costs[Int(next)]
                if candidate < current {
                    if current == .infinity { touched.append(next) }
                    costs[Int(next)] = candidate
                    parents[Int(next)] = Parent(arc: Int32(arc), origin: origin)
                    heap.insert(next, key: candidate)
                    let across = other[Int(next)]
                    if across != .infinity, candidate + across < best {
                        best = candidate + across
                        meeting = next
                    }
                }
            }
        }

        /// One step of this direction: settles its next rank below `best` (a meeting when the `other`
        /// direction has reached it for less in total), then expands it. False when nothing is left
        /// below `best`.
        @inline(__always)
        mutating func settleNext(stallStarts: [Int32], stallArcs: [HierarchyArc], relaxStarts: [Int32], relaxArcs: [HierarchyArc],
                                 other: [RouteCost], best: inout RouteCost, meeting: inout Int32) -> Bool {
            guard let (rank, key) = next(best: best) else { return false }
            let across = other[Int(rank)]
            if across != .infinity, key + across < best {
                best = key + across
                meeting = rank
            }
            expand(rank, key: key, stallStarts: stallStarts, stallArcs: stallArcs, relaxStarts: relaxStarts, relaxArcs: relaxArcs,
                   other: other, best: &best, meeting: &meeting)
            return true
        }

        /// The next rank to settle (stale entries skipped); nil once the queue is empty or nothing
        /// left in it can beat `best`.
        @inline(__always)
        mutating func next(best: RouteCost) -> (rank: Int32, key: RouteCost)? {
            while !heap.isEmpty {
                let (rank, key) = heap.popMinimum()
                if key > costs[Int(rank)] { continue }
                if key >= best { return nil }
                return (rank, key)
            }
            return nil
        }
    }

    /// A search over `graph` with its hierarchy (built on first use, or read from a prepared file).
    public init(_ graph: RoadGraph) {
        self.init(graph: graph, hierarchy: graph.hierarchy)
    }

    /// A search over `graph` with `hierarchy` (which must be `graph`'s).
    public init(graph: RoadGraph, hierarchy: ContractionHierarchy) {
        self.graph = graph
        self.hierarchy = hierarchy
        forward = Side(nodeCount: graph.nodeCount)
        backward = Side(nodeCount: graph.nodeCount)
    }

    /// The least travel time from any of `sources` to any of `targets` (each endpoint's own seconds
    /// counted), without the path; nil when none of the targets can be reached.
    public mutating func fastestTime(from sources: [RouteSearch.Endpoint], to targets: [RouteSearch.Endpoint]) -> Double? {
        fastestPath(from: sources, to: targets)?.seconds
    }

    /// The search alone, nothing unpacked (what a benchmark of the query times): the least cost's
    /// time in seconds (fixed point, within nanoseconds of ``fastestTime(from:to:)``); nil when no
    /// target can be reached.
    public mutating func searchedTime(from sources: [RouteSearch.Endpoint], to targets: [RouteSearch.Endpoint]) -> Double? {
        search(from: sources, to: targets)?.cost.seconds
    }

    /// The fastest path from any of `sources` to any of `targets`, counting each endpoint's own
    /// seconds; nil when none of the targets can be reached (or either list is empty).
    public mutating func fastestPath(from sources: [RouteSearch.Endpoint], to targets: [RouteSearch.Endpoint]) -> RouteSearch.Path? {
        guard let meeting = search(from: sources, to: targets) else { return nil }
        let h = hierarchy
        // Up from the source to the meeting rank, then down to the target.
        var upward: [(from: Int32, to: Int32, middle: Int32)] = []
        var rank = meeting.rank
        while forward.parents[Int(rank)].arc >= 0 {
            let arc = Int(forward.parents[Int(rank)].arc)
            let from = h.upSource(ofArc: arc)
            upward.append((from, rank, h.upArcs[arc].middle))
            rank = from
        }
        let source = Int(forward.parents[Int(rank)].origin)
        var nodes: [Int32] = [h.nodes[Int(rank)]]
        for step in upward.reversed() { h.unpack(from: step.from, to: step.to, middle: step.middle, into: &nodes) }
        rank = meeting.rank
        while backward.parents[Int(rank)].arc >= 0 {
            let arc = Int(backward.parents[Int(rank)].arc)
            let to = h.downTarget(ofArc: arc)
            h.unpack(from: rank, to: to, middle: h.downArcs[arc].middle, into: &nodes)
            rank = to
        }
        let target = Int(backward.parents[Int(rank)].origin)
        let seconds = graph.seconds(along: nodes, after: sources[source].seconds) + targets[target].seconds
        return RouteSearch.Path(seconds: seconds, nodes: nodes, source: source, target: target)
    }

    /// The bidirectional upward search: the meeting rank of the least total cost.
    private mutating func search(from sources: [RouteSearch.Endpoint], to targets: [RouteSearch.Endpoint]) -> (cost: RouteCost, rank: Int32)? {
        forward.reset()
        backward.reset()
        settledCount = 0
        guard !sources.isEmpty, !targets.isEmpty else { return nil }
        let h = hierarchy
        forward.start(sources, ranks: h.ranks)
        backward.start(targets, ranks: h.ranks)
        var best = RouteCost.infinity, meeting: Int32 = -1
        var forwardDone = forward.heap.isEmpty, backwardDone = backward.heap.isEmpty
        var turnForward = true
        while !(forwardDone && backwardDone) {
            let isForward = backwardDone || (!forwardDone && turnForward)
            turnForward.toggle()
            // Forward: stall on the arcs from above (down), relax the arcs onward (up); backward the reverse.
            let settled = isForward
                ? forward.settleNext(stallStarts: h.downStarts, stallArcs: h.downArcs, relaxStarts: h.upStarts, relaxArcs: h.upArcs,
                                     other: backward.costs, best: &best, meeting: &meeting)
                : backward.settleNext(stallStarts: h.upStarts, stallArcs: h.upArcs, relaxStarts: h.downStarts, relaxArcs: h.downArcs,
                                      other: forward.costs, best: &best, meeting: &meeting)
            if settled {
                settledCount += 1
            } else if isForward {
                forwardDone = true
            } else {
                backwardDone = true
            }
        }
        return meeting >= 0 ? (best, meeting) : nil
    }
}
