/// A contraction hierarchy of a ``RoadGraph``: its nodes ranked, and the shortcuts that keep every
/// least-cost path when lower-ranked nodes are taken out, so that a query only searches upward from
/// both ends (``HierarchySearch``).
///
/// Costs are ``RouteCost``s (exact sums, ties broken per edge), so the hierarchy keeps exactly the
/// paths ``RouteSearch`` finds. It is built node by node (Geisberger et al.; the order as OSRM
/// chooses it), see ``HierarchyContraction``. The car graph's turn restrictions are node copies
/// already (``TurnSplits``), so a node-based hierarchy keeps them.
///
/// The arrays are laid out by rank, not by the graph's node numbers (as RoutingKit lays them out):
/// arcs name their ends by rank, and the arcs of ranks `r` and `r + 1` lie side by side. Every query
/// climbs to the few hundred highest ranks, so those arcs stay in the processor's cache from one
/// query to the next; in the graph's order they are spread over the whole graph. Arcs are stored
/// per rank in two lists: `upArcs` (to higher ranks, searched forward from a source) and `downArcs`
/// (from higher ranks, searched backward from a target), each arc's end and time in one array
/// (``HierarchyArc``, what a query reads) and its tie-breaker and middle in a parallel one
/// (``HierarchyArcDetail``). A shortcut's `middle` is the rank it bypasses (-1: an edge of the
/// graph), so a path is unpacked by replacing each shortcut with its two halves.
/// The 128 highest ranks (the core, where foot queries spent most of their work: the pedestrian
/// squares make it dense) also have a table of their least costs between each other
/// (``HierarchyCoreTable``): a query stops climbing at the core and joins its two sides by the table.
/// A larger core makes foot queries faster still (256 ranks: 5.7 µs against 8.7 µs on Helsinki) but
/// its table (20 bytes a pair of ranks, for each mode) is read, checked and hashed at every cold start:
/// 256 ranks cost a Helsinki scenario's cold start about 10 %, 128 about 1 %.
///
/// ```swift
/// let hierarchy = ContractionHierarchy(network.graph(for: .car))
/// var search = HierarchySearch(graph: network.graph(for: .car), hierarchy: hierarchy)
/// let path = search.fastestPath(from: [.init(node: a)], to: [.init(node: b)])
/// ```
public struct ContractionHierarchy: Sendable {
    /// Each node's rank (the order of contraction; higher: contracted later).
    public let ranks: [Int32]
    /// The node of each rank (the inverse of ``ranks``; -1 where the ranks do not say, in an
    /// inconsistent file).
    let nodes: [Int32]
    /// Rank `r`'s arcs to higher ranks are `upArcs[upStarts[r]..<upStarts[r + 1]]`, the rest of
    /// each at the same index of `upDetails`.
    let upStarts: [Int32], upArcs: [HierarchyArc], upDetails: [HierarchyArcDetail]
    /// Rank `r`'s arcs from higher ranks are `downArcs[downStarts[r]..<downStarts[r + 1]]`, the
    /// rest of each at the same index of `downDetails`.
    let downStarts: [Int32], downArcs: [HierarchyArc], downDetails: [HierarchyArcDetail]
    /// The least costs among the highest ranks, where a query's two sides meet (``HierarchyCoreTable``).
    private(set) var core = HierarchyCoreTable.empty

    /// How many of the highest ranks ``core`` joins by default. Foot queries on Helsinki, one after
    /// the other (thread CPU a query): 23 µs without a core, 8.7 µs with 128 ranks, 5.7 µs with 256,
    /// 3.5 µs with 512; the table takes 20 bytes per pair of ranks (1.3 MB at 256).
    static let defaultCoreSize = 128

    /// The number of arcs (the graph's edges and the shortcuts), both lists together.
    public var arcCount: Int { upArcs.count + downArcs.count }

    /// Bytes held by the hierarchy's arrays.
    public var memoryFootprint: Int {
        (ranks.count + nodes.count + upStarts.count + downStarts.count) * 4
            + arcCount * (MemoryLayout<HierarchyArc>.stride + MemoryLayout<HierarchyArcDetail>.stride)
            + core.size * core.size * (2 * MemoryLayout<UInt64>.stride + MemoryLayout<Int32>.stride)
    }

    /// Contracts `graph`.
    public init(_ graph: RoadGraph) {
        self.init(graph, coreSize: Self.defaultCoreSize)
    }

    /// Contracts `graph`, with a table of the least costs among its `coreSize` highest ranks.
    init(_ graph: RoadGraph, coreSize: Int) {
        var contraction = HierarchyContraction(graph)
        let (ranks, up, down) = contraction.run()
        let nodes = Self.nodes(ofRanks: ranks)
        self.ranks = ranks
        self.nodes = nodes
        (upStarts, upArcs, upDetails) = Self.flatten(up, ranks: ranks, nodes: nodes)
        (downStarts, downArcs, downDetails) = Self.flatten(down, ranks: ranks, nodes: nodes)
        core = HierarchyCoreTable(self, size: coreSize)
    }

    /// A hierarchy from its arrays and its core's table (a prepared file); check it with
    /// ``isConsistent(nodeCount:)``.
    init(ranks: [Int32], upStarts: [Int32], upArcs: [HierarchyArc], upDetails: [HierarchyArcDetail],
         downStarts: [Int32], downArcs: [HierarchyArc], downDetails: [HierarchyArcDetail], core: HierarchyCoreTable) {
        self.ranks = ranks
        nodes = Self.nodes(ofRanks: ranks)
        (self.upStarts, self.upArcs, self.upDetails) = (upStarts, upArcs, upDetails)
        (self.downStarts, self.downArcs, self.downDetails) = (downStarts, downArcs, downDetails)
        self.core = core
    }

    /// The node of each rank (-1 for a rank no node has; ranks out of range are left out).
    private static func nodes(ofRanks ranks: [Int32]) -> [Int32] {
        var nodes = [Int32](repeating: -1, count: ranks.count)
        for (node, rank) in ranks.enumerated() where rank >= 0 && Int(rank) < ranks.count { nodes[Int(rank)] = Int32(node) }
        return nodes
    }

    /// Per-node arc lists (by node number) as arrays by rank, each rank's arcs ascending by their
    /// other end's rank.
    private static func flatten(_ lists: [[HierarchyContraction.Arc]], ranks: [Int32], nodes: [Int32])
        -> (starts: [Int32], arcs: [HierarchyArc], details: [HierarchyArcDetail]) {
        var starts = [Int32](repeating: 0, count: lists.count + 1)
        var arcs: [HierarchyArc] = [], details: [HierarchyArcDetail] = []
        let count = lists.reduce(0) { $0 + $1.count }
        arcs.reserveCapacity(count)
        details.reserveCapacity(count)
        for (rank, node) in nodes.enumerated() {
            let ranked = lists[Int(node)].map { (end: ranks[Int($0.node)], middle: $0.middle >= 0 ? ranks[Int($0.middle)] : -1, cost: $0.cost) }
            for arc in ranked.sorted(by: { $0.end < $1.end }) {
                arcs.append(HierarchyArc(end: arc.end, time: arc.cost.time))
                details.append(HierarchyArcDetail(tieBreaker: arc.cost.tieBreaker, middle: arc.middle))
            }
            starts[rank + 1] = Int32(arcs.count)
        }
        return (starts, arcs, details)
    }

    /// Whether the arrays are a hierarchy of `nodeCount` nodes (a prepared file's check): the ranks
    /// a permutation, every arc going up to a higher rank and every shortcut bypassing a lower one
    /// (so that unpacking ends).
    func isConsistent(nodeCount: Int) -> Bool {
        func valid(_ starts: [Int32], _ arcs: [HierarchyArc], _ details: [HierarchyArcDetail]) -> Bool {
            guard starts.count == nodeCount + 1, starts.first == 0, starts.last.map(Int.init) == arcs.count, details.count == arcs.count,
                  zip(starts, starts.dropFirst()).allSatisfy({ $0 <= $1 }) else { return false }
            for rank in 0..<nodeCount {
                for index in Int(starts[rank])..<Int(starts[rank + 1]) {
                    let end = arcs[index].end, middle = details[index].middle
                    guard end > rank, Int(end) < nodeCount, middle >= -1, middle < rank else { return false }
                }
            }
            return true
        }
        return ranks.count == nodeCount && nodes.allSatisfy { $0 >= 0 } && valid(upStarts, upArcs, upDetails) && valid(downStarts, downArcs, downDetails)
            && core.isConsistent(with: self)
    }

    /// Appends the graph's nodes along the arc `from → to` (ranks; a shortcut bypassing the rank
    /// `middle`, or an edge of the graph when `middle` is -1), without `from`.
    func unpack(from: Int32, to: Int32, middle: Int32, into path: inout [Int32]) {
        guard middle >= 0 else {
            path.append(nodes[Int(to)])
            return
        }
        // `middle` ranks below both ends: `from → middle` is one of its down arcs, `middle → to` one of its up arcs.
        let m = Int(middle)
        var arc = Int(downStarts[m])
        while arc < Int(downStarts[m + 1]), downArcs[arc].end != from { arc += 1 }
        unpack(from: from, to: middle, middle: downDetails[arc].middle, into: &path)
        arc = Int(upStarts[m])
        while arc < Int(upStarts[m + 1]), upArcs[arc].end != to { arc += 1 }
        unpack(from: middle, to: to, middle: upDetails[arc].middle, into: &path)
    }

    /// The rank an up arc leaves (the arc lists store only the other end).
    func upSource(ofArc arc: Int) -> Int32 { Self.owner(of: arc, starts: upStarts) }
    /// The rank a down arc enters.
    func downTarget(ofArc arc: Int) -> Int32 { Self.owner(of: arc, starts: downStarts) }

    /// The rank whose range of `starts` holds `arc` (binary search; empty ranges skipped).
    private static func owner(of arc: Int, starts: [Int32]) -> Int32 {
        var low = 0, high = starts.count - 1  // starts[low] <= arc < starts[high]
        while high - low > 1 {
            let middle = (low + high) / 2
            if Int(starts[middle]) <= arc { low = middle } else { high = middle }
        }
        return Int32(low)
    }
}
