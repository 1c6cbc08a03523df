/// Least-cost paths on a ``RoadGraph`` through its ``ContractionHierarchy``: a bidirectional
/// Dijkstra that only goes up the hierarchy, forward from the sources and backward from the targets,
/// with stall-on-demand (a node reached more cheaply from above is not expanded); the path is then
/// unpacked into the graph's nodes.
///
/// Paths are compared by their exact ``RouteCost``, as ``RouteSearch`` compares them, so both find
/// the same path (also among paths of equal time). The seconds returned are summed along the
/// unpacked path from the source in travel order, edge by edge, as ``RouteSearch`` sums them.
///
/// A search keeps its scratch arrays between queries (only the nodes a query touched are reset), so
/// make one per thread and reuse it.
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

    /// One direction's arcs of the hierarchy, node by node: node `n`'s are `starts[n]..<starts[n + 1]`,
    /// each leading to `ends[arc]` at `costs[arc]` (the upward arcs, or the arcs from higher nodes).
    private struct Arcs {
        let starts: [Int32], ends: [Int32], costs: [RouteCost]
    }

    /// One direction's search state.
    private struct Side {
        var costs: [RouteCost]
        /// The arc (index into the direction's arc list) a node was reached by (-1: an endpoint).
        var parentArcs: [Int32]
        /// The endpoint (source or target index) a node's best cost starts from.
        var origins: [Int32]
        var touched: [Int32] = []
        var heap = MinimumHeap<RouteCost>()

        init(nodeCount: Int) {
            costs = [RouteCost](repeating: .infinity, count: nodeCount)
            parentArcs = [Int32](repeating: -1, count: nodeCount)
            origins = [Int32](repeating: -1, count: nodeCount)
        }

        mutating func reset() {
            for node in touched {
                costs[Int(node)] = .infinity
                parentArcs[Int(node)] = -1
            }
            touched.removeAll(keepingCapacity: true)
            heap.removeAll()
        }

        /// Starts from `endpoints` (of one node, the first of least cost counts, as in ``RouteSearch``).
        mutating func start(_ endpoints: [RouteSearch.Endpoint]) {
            for (index, endpoint) in endpoints.enumerated() {
                let cost = RouteCost(seconds: endpoint.seconds)
                guard cost < costs[Int(endpoint.node)] else { continue }
                if costs[Int(endpoint.node)] == .infinity { touched.append(endpoint.node) }
                costs[Int(endpoint.node)] = cost
                parentArcs[Int(endpoint.node)] = -1
                origins[Int(endpoint.node)] = Int32(index)
                heap.insert(endpoint.node, key: cost)
            }
        }

        /// Expands `node`, settled at `key`: nothing when a higher node reaches it more cheaply through
        /// `stallArcs` (stall-on-demand: no least-cost path goes up from it), else each of its
        /// `relaxArcs` relaxed.
        @inline(__always)
        mutating func expand(_ node: Int32, key: RouteCost, stallingOn stallArcs: Arcs, relaxing relaxArcs: Arcs) {
            for arc in Int(stallArcs.starts[Int(node)])..<Int(stallArcs.starts[Int(node) + 1]) {
                let above = costs[Int(stallArcs.ends[arc])]
                if above != .infinity, above + stallArcs.costs[arc] < key { return }
            }
            for arc in Int(relaxArcs.starts[Int(node)])..<Int(relaxArcs.starts[Int(node) + 1]) {
                let next = relaxArcs.ends[arc], candidate = key + relaxArcs.costs[arc]
                if candidate < costs[Int(next)] {
                    if costs[Int(next)] == .infinity { touched.append(next) }
                    costs[Int(next)] = candidate
                    parentArcs[Int(next)] = Int32(arc)
                    origins[Int(next)] = origins[Int(node)]
                    heap.insert(next, key: candidate)
                }
            }
        }

        /// The next node to settle (stale entries skipped); nil once the queue is empty or nothing
        /// left in it can beat `best`.
        @inline(__always)
        mutating func next(best: RouteCost) -> (node: Int32, key: RouteCost)? {
            while !heap.isEmpty {
                let (node, key) = heap.popMinimum()
                if key > costs[Int(node)] { continue }
                if key >= best { return nil }
                return (node, key)
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
        // Up from the source to the meeting node, then down to the target.
        var upward: [(from: Int32, to: Int32, middle: Int32)] = []
        var node = meeting.node
        while forward.parentArcs[Int(node)] >= 0 {
            let arc = Int(forward.parentArcs[Int(node)])
            let from = h.upSource(ofArc: arc)
            upward.append((from, node, h.upMiddles[arc]))
            node = from
        }
        let source = Int(forward.origins[Int(node)])
        var nodes: [Int32] = [node]
        for step in upward.reversed() { h.unpack(from: step.from, to: step.to, middle: step.middle, into: &nodes) }
        node = meeting.node
        while backward.parentArcs[Int(node)] >= 0 {
            let arc = Int(backward.parentArcs[Int(node)])
            let to = h.downTarget(ofArc: arc)
            h.unpack(from: node, to: to, middle: h.downMiddles[arc], into: &nodes)
            node = to
        }
        let target = Int(backward.origins[Int(node)])
        let seconds = graph.seconds(along: nodes, after: sources[source].seconds) + targets[target].seconds
        return RouteSearch.Path(seconds: seconds, nodes: nodes, source: source, target: target)
    }

    /// The bidirectional upward search: the meeting node of the least total cost.
    private mutating func search(from sources: [RouteSearch.Endpoint], to targets: [RouteSearch.Endpoint]) -> (cost: RouteCost, node: Int32)? {
        forward.reset()
        backward.reset()
        settledCount = 0
        guard !sources.isEmpty, !targets.isEmpty else { return nil }
        forward.start(sources)
        backward.start(targets)
        let h = hierarchy
        let upArcs = Arcs(starts: h.upStarts, ends: h.upTargets, costs: h.upCosts)
        let downArcs = Arcs(starts: h.downStarts, ends: h.downSources, costs: h.downCosts)
        var best = RouteCost.infinity, meeting: Int32 = -1
        var forwardDone = forward.heap.isEmpty, backwardDone = backward.heap.isEmpty
        var turnForward = true
        while !(forwardDone && backwardDone) {
            let isForward = backwardDone || (!forwardDone && turnForward)
            turnForward.toggle()
            if isForward {
                guard let (node, key) = forward.next(best: best) else { forwardDone = true; continue }
                settledCount += 1
                let other = backward.costs[Int(node)]
                if other != .infinity, key + other < best { best = key + other; meeting = node }
                forward.expand(node, key: key, stallingOn: downArcs, relaxing: upArcs)
            } else {
                guard let (node, key) = backward.next(best: best) else { backwardDone = true; continue }
                settledCount += 1
                let other = forward.costs[Int(node)]
                if other != .infinity, key + other < best { best = key + other; meeting = node }
                backward.expand(node, key: key, stallingOn: upArcs, relaxing: downArcs)
            }
        }
        return meeting >= 0 ? (best, meeting) : nil
    }
}
