/// A contraction hierarchy of a ``RoadGraph``: its nodes ranked, and the shortcuts that keep every
/// least-cost path when lower-ranked nodes are taken out, so that a query only searches upward from
/// both ends (``HierarchySearch``).
///
/// Costs are ``RouteCost``s (exact sums, ties broken per edge), so the hierarchy keeps exactly the
/// paths ``RouteSearch`` finds. It is built node by node (Geisberger et al.; the order as OSRM
/// chooses it), see ``HierarchyContraction``. The car graph's turn restrictions are node copies
/// already (``TurnSplits``), so a node-based hierarchy keeps them.
///
/// Arcs are stored per node in two lists: `up` (the node's arcs to higher-ranked nodes, searched
/// forward from a source) and `down` (arcs from higher-ranked nodes into the node, searched backward
/// from a target). A shortcut's `middle` is the node it bypasses (-1: an edge of the graph), so a
/// path is unpacked by replacing each shortcut with its two halves.
///
/// ```swift
/// let hierarchy = ContractionHierarchy(network.graph(for: .car))
/// var search = HierarchySearch(graph: network.graph(for: .car), hierarchy: hierarchy)
/// let path = search.fastestPath(from: [.init(node: a)], to: [.init(node: b)])
/// ```
public struct ContractionHierarchy: Sendable {
    /// Each node's rank (the order of contraction; higher: contracted later).
    public let ranks: [Int32]
    /// Node `n`'s upward arcs are `upTargets[upStarts[n]..<upStarts[n + 1]]`.
    let upStarts: [Int32], upTargets: [Int32], upCosts: [RouteCost], upMiddles: [Int32]
    /// Node `n`'s arcs from higher-ranked nodes are `downSources[downStarts[n]..<downStarts[n + 1]]`.
    let downStarts: [Int32], downSources: [Int32], downCosts: [RouteCost], downMiddles: [Int32]

    /// The number of arcs (the graph's edges and the shortcuts), both lists together.
    public var arcCount: Int { upTargets.count + downSources.count }

    /// Bytes held by the hierarchy's arrays.
    public var memoryFootprint: Int {
        ranks.count * 4 + (upStarts.count + downStarts.count) * 4 + arcCount * (4 + MemoryLayout<RouteCost>.stride + 4)
    }

    /// Contracts `graph`.
    public init(_ graph: RoadGraph) {
        var contraction = HierarchyContraction(graph)
        let (ranks, up, down) = contraction.run()
        self.ranks = ranks
        (upStarts, upTargets, upCosts, upMiddles) = Self.flatten(up)
        (downStarts, downSources, downCosts, downMiddles) = Self.flatten(down)
    }

    /// A hierarchy from its arrays (a prepared file).
    init(ranks: [Int32], upStarts: [Int32], upTargets: [Int32], upCosts: [RouteCost], upMiddles: [Int32],
         downStarts: [Int32], downSources: [Int32], downCosts: [RouteCost], downMiddles: [Int32]) {
        self.ranks = ranks
        (self.upStarts, self.upTargets, self.upCosts, self.upMiddles) = (upStarts, upTargets, upCosts, upMiddles)
        (self.downStarts, self.downSources, self.downCosts, self.downMiddles) = (downStarts, downSources, downCosts, downMiddles)
    }

    /// Per-node arc lists as arrays (each node's arcs ascending by their other end).
    private static func flatten(_ lists: [[HierarchyContraction.Arc]]) -> (starts: [Int32], nodes: [Int32], costs: [RouteCost], middles: [Int32]) {
        var starts = [Int32](repeating: 0, count: lists.count + 1)
        let total = lists.reduce(0) { $0 + $1.count }
        var nodes: [Int32] = [], costs: [RouteCost] = [], middles: [Int32] = []
        nodes.reserveCapacity(total)
        costs.reserveCapacity(total)
        middles.reserveCapacity(total)
        for (index, list) in lists.enumerated() {
            for arc in list.sorted(by: { $0.node < $1.node }) {
                nodes.append(arc.node)
                costs.append(arc.cost)
                middles.append(arc.middle)
            }
            starts[index + 1] = Int32(nodes.count)
        }
        return (starts, nodes, costs, middles)
    }

    /// Whether the arrays are a hierarchy of `nodeCount` nodes (a prepared file's check).
    func isConsistent(nodeCount: Int) -> Bool {
        func valid(_ starts: [Int32], _ nodes: [Int32], _ costs: [RouteCost], _ middles: [Int32]) -> Bool {
            starts.count == nodeCount + 1 && starts.first == 0 && starts.last.map(Int.init) == nodes.count
                && zip(starts, starts.dropFirst()).allSatisfy { $0 <= $1 } && nodes.count == costs.count && nodes.count == middles.count
                && nodes.allSatisfy { $0 >= 0 && Int($0) < nodeCount } && middles.allSatisfy { $0 >= -1 && Int($0) < nodeCount }
        }
        return ranks.count == nodeCount && valid(upStarts, upTargets, upCosts, upMiddles) && valid(downStarts, downSources, downCosts, downMiddles)
    }

    /// Appends the graph's nodes along the arc `from → to` (a shortcut bypassing `middle`, or an edge
    /// of the graph when `middle` is -1), without `from`.
    func unpack(from: Int32, to: Int32, middle: Int32, into nodes: inout [Int32]) {
        guard middle >= 0 else {
            nodes.append(to)
            return
        }
        // `middle` ranks below both ends: `from → middle` is one of its down arcs, `middle → to` one of its up arcs.
        let m = Int(middle)
        for arc in Int(downStarts[m])..<Int(downStarts[m + 1]) where downSources[arc] == from {
            unpack(from: from, to: middle, middle: downMiddles[arc], into: &nodes)
            break
        }
        for arc in Int(upStarts[m])..<Int(upStarts[m + 1]) where upTargets[arc] == to {
            unpack(from: middle, to: to, middle: upMiddles[arc], into: &nodes)
            break
        }
    }

    /// The node an up arc leaves (the arc lists store only the other end).
    func upSource(ofArc arc: Int) -> Int32 { Self.owner(of: arc, starts: upStarts) }
    /// The node a down arc enters.
    func downTarget(ofArc arc: Int) -> Int32 { Self.owner(of: arc, starts: downStarts) }

    /// The node whose range of `starts` holds `arc` (binary search; empty ranges skipped).
    private static func owner(of arc: Int, starts: [Int32]) -> Int32 {
        var low = 0, high = starts.count - 1  // starts[low] <= arc < starts[high]
        while high - low > 1 {
            let middle = (low + high) / 2
            if Int(starts[middle]) <= arc { low = middle } else { high = middle }
        }
        return Int32(low)
    }
}
