/// Least-cost paths on a ``RoadGraph`` through its ``ContractionHierarchy``: a bidirectional
/// Dijkstra that only goes up the hierarchy, forward from the sources and backward from the targets,
/// with stall-on-demand (a node reached more cheaply from above is not expanded); the path is then
/// unpacked into the graph's nodes. Neither side searches the hierarchy's core (its highest ranks,
/// densely linked): the core ranks each side reaches are joined by the core's table of least costs
/// (``HierarchyCoreTable``), which takes a foot query on Helsinki from 123 ranks settled (100 of them
/// in the core) and ~1,700 arcs read to 30 ranks settled at the median.
///
/// Paths are compared by their exact ``RouteCost``, as ``RouteSearch`` compares them, so both find
/// the same path (also among paths of equal time). The seconds returned are summed along the
/// unpacked path from the source in travel order, edge by edge, as ``RouteSearch`` sums them.
///
/// It searches by rank (the hierarchy's layout: the ranks every query reaches lie together), and
/// compares times first: a cost's tie-breaker half is read only when two times are equal or a cost
/// is lowered (a sum of costs sums both halves apart, see ``RouteCost``). A search keeps its arrays
/// between queries (only the ranks a query touched are reset), so make one per thread and reuse it.
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
    /// The up arcs from the meeting rank down to the forward side's endpoint, as a path is unpacked
    /// (kept between queries).
    private var climbed: [(from: Int32, to: Int32, middle: Int32)] = []

    /// Nodes taken from the queues by the last query (a measure of its work).
    public private(set) var settledCount = 0

    /// A cost as the search compares it: ``RouteCost``'s two halves, time first.
    struct Key: Comparable {
        var time: UInt64
        var tieBreaker: UInt64

        static let infinity = Key(time: .max, tieBreaker: .max)

        @inline(__always)
        static func < (lhs: Key, rhs: Key) -> Bool {
            lhs.time < rhs.time || (lhs.time == rhs.time && lhs.tieBreaker < rhs.tieBreaker)
        }
    }

    /// One direction's search state by rank: each rank's least cost found (time `.max`: not
    /// reached) as times in one dense array, read by every stall check and relaxation, and
    /// tie-breakers in another; the arc each rank was reached by (-1: an endpoint) and the endpoint
    /// its cost starts from. Kept in memory the search reads through pointers (no bounds checks in
    /// its inner loops); a copy of the search copies it before its next query.
    private final class Side {
        let count: Int
        let times: UnsafeMutablePointer<UInt64>
        let tieBreakers: UnsafeMutablePointer<UInt64>
        let reachedBy: UnsafeMutablePointer<Int32>
        let origins: UnsafeMutablePointer<Int32>
        var touched: [Int32] = []
        /// The core ranks reached (``HierarchyCoreTable``): not searched further, joined by the table.
        var coreEntries: [Int32] = []
        var heap = MinimumHeap<Key>()

        init(count: Int) {
            self.count = count
            times = .allocate(capacity: count)
            times.initialize(repeating: .max, count: count)
            tieBreakers = .allocate(capacity: count)
            tieBreakers.initialize(repeating: .max, count: count)
            reachedBy = .allocate(capacity: count)
            reachedBy.initialize(repeating: -1, count: count)
            origins = .allocate(capacity: count)
            origins.initialize(repeating: -1, count: count)
        }

        deinit {
            times.deallocate()
            tieBreakers.deallocate()
            reachedBy.deallocate()
            origins.deallocate()
        }

        func copy() -> Side {
            let copy = Side(count: count)
            copy.times.update(from: times, count: count)
            copy.tieBreakers.update(from: tieBreakers, count: count)
            copy.reachedBy.update(from: reachedBy, count: count)
            copy.origins.update(from: origins, count: count)
            copy.touched = touched
            copy.coreEntries = coreEntries
            copy.heap = heap
            return copy
        }

        func reset() {
            for rank in touched { times[Int(rank)] = .max }
            touched.removeAll(keepingCapacity: true)
            coreEntries.removeAll(keepingCapacity: true)
            heap.removeAll()
        }

        /// Starts from `endpoints` (of one node, the first of least cost counts, as in ``RouteSearch``).
        func start(_ endpoints: [RouteSearch.Endpoint], ranks: [Int32], coreStart: Int) {
            for (index, endpoint) in endpoints.enumerated() {
                let rank = Int(ranks[Int(endpoint.node)]), cost = RouteCost(seconds: endpoint.seconds)
                let key = Key(time: cost.time, tieBreaker: cost.tieBreaker)
                if times[rank] != .max {
                    guard key < Key(time: times[rank], tieBreaker: tieBreakers[rank]) else { continue }
                } else {
                    touched.append(Int32(rank))
                    if rank >= coreStart { coreEntries.append(Int32(rank)) }
                }
                times[rank] = key.time
                tieBreakers[rank] = key.tieBreaker
                reachedBy[rank] = -1
                origins[rank] = Int32(index)
                if rank < coreStart { heap.insert(Int32(rank), key: key) }
            }
        }
    }

    /// A direction's state and the arc lists it searches, as pointers for one query.
    private struct Frontier {
        let times: UnsafeMutablePointer<UInt64>
        let tieBreakers: UnsafeMutablePointer<UInt64>
        let reachedBy: UnsafeMutablePointer<Int32>
        let origins: UnsafeMutablePointer<Int32>
        /// The arcs it relaxes (forward: up) and those it stalls on (forward: down).
        let relax: ContractionHierarchy.ArcList, stall: ContractionHierarchy.ArcList
        /// The lowest core rank: ranks from it on are reached but not searched.
        let coreStart: Int

        init(_ side: Side, relax: ContractionHierarchy.ArcList, stall: ContractionHierarchy.ArcList, coreStart: Int) {
            (times, tieBreakers, reachedBy, origins) = (side.times, side.tieBreakers, side.reachedBy, side.origins)
            (self.relax, self.stall, self.coreStart) = (relax, stall, coreStart)
        }

        /// The cost found for `rank` (`time` `.max`: not reached).
        @inline(__always)
        func key(of rank: Int) -> Key { Key(time: times[rank], tieBreaker: tieBreakers[rank]) }

        /// One step: settles the next rank below `best` (a meeting when the `other` direction has
        /// reached it for less in total), then expands it unless it is stalled. False when nothing is
        /// left below `best`.
        @inline(__always)
        func settleNext(heap: inout MinimumHeap<Key>, touched: inout [Int32], coreEntries: inout [Int32], other: Frontier, best: inout Key, meeting: inout Int32) -> Bool {
            var rank = 0, key = Key.infinity
            repeat {
                guard !heap.isEmpty else { return false }
                let (node, popped) = heap.popMinimum()
                rank = Int(node)
                key = popped
            } while key.time > times[rank] || (key.time == times[rank] && key.tieBreaker > tieBreakers[rank])  // stale entries
            guard key < best else { return false }
            if other.times[rank] != .max {
                let total = Key(time: key.time + other.times[rank], tieBreaker: key.tieBreaker + other.tieBreakers[rank])
                if total < best {
                    best = total
                    meeting = Int32(rank)
                }
            }
            guard !isStalled(rank, key: key) else { return true }
            expand(rank, key: key, heap: &heap, touched: &touched, coreEntries: &coreEntries, other: other, best: &best, meeting: &meeting)
            return true
        }

        /// Whether a higher rank reaches `rank` more cheaply than `key` through the stall arcs: then
        /// no least-cost path goes up from it (stall-on-demand).
        @inline(__always)
        func isStalled(_ rank: Int, key: Key) -> Bool {
            for arc in Int(stall.starts[rank])..<Int(stall.starts[rank + 1]) {
                let above = Int(stall.arcs[arc].end), aboveTime = times[above]
                guard aboveTime != .max else { continue }
                let time = aboveTime + stall.arcs[arc].time
                if time < key.time || (time == key.time && tieBreakers[above] + stall.details[arc].tieBreaker < key.tieBreaker) { return true }
            }
            return false
        }

        /// Relaxes each arc of `rank`, settled at `key`. A rank reached at `best` or more is left
        /// alone (no path through it can be the least), and a rank the other direction has reached
        /// is a meeting: `best` and `meeting` are lowered when the two costs together are less.
        @inline(__always)
        func expand(_ rank: Int, key: Key, heap: inout MinimumHeap<Key>, touched: inout [Int32], coreEntries: inout [Int32], other: Frontier, best: inout Key, meeting: inout Int32) {
            let origin = origins[rank]
            for arc in Int(relax.starts[rank])..<Int(relax.starts[rank + 1]) {
                let next = Int(relax.arcs[arc].end), time = key.time + relax.arcs[arc].time
                let currentTime = times[next]
                // Times first: the tie-breakers only when the times do not decide.
                guard time <= best.time, time <= currentTime else { continue }
                let candidate = Key(time: time, tieBreaker: key.tieBreaker + relax.details[arc].tieBreaker)
                guard candidate < best else { continue }
                if currentTime == .max {
                    touched.append(Int32(next))
                    if next >= coreStart { coreEntries.append(Int32(next)) }
                } else if !(candidate < Key(time: currentTime, tieBreaker: tieBreakers[next])) {
                    continue
                }
                times[next] = time
                tieBreakers[next] = candidate.tieBreaker
                reachedBy[next] = Int32(arc)
                origins[next] = origin
                if next < coreStart { heap.insert(Int32(next), key: candidate) }
                let acrossTime = other.times[next]
                if acrossTime != .max {
                    let total = Key(time: time + acrossTime, tieBreaker: candidate.tieBreaker + other.tieBreakers[next])
                    if total < best {
                        best = total
                        meeting = Int32(next)
                    }
                }
            }
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
        forward = Side(count: graph.nodeCount)
        backward = Side(count: graph.nodeCount)
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
        var nodes: [Int32] = []
        guard let ends = fastestPath(from: sources, to: targets, into: &nodes) else { return nil }
        let seconds = graph.seconds(along: nodes, after: sources[ends.source].seconds) + targets[ends.target].seconds
        return RouteSearch.Path(seconds: seconds, nodes: nodes, source: ends.source, target: ends.target)
    }

    /// The fastest path as ``fastestPath(from:to:)`` finds it, its nodes written over `nodes` (a
    /// buffer the caller keeps between queries), without summing its seconds (for a caller that
    /// walks the path's edges anyway); which of `sources` and `targets` it starts and ends at, nil
    /// (`nodes` emptied) when none of the targets can be reached.
    mutating func fastestPath(from sources: [RouteSearch.Endpoint], to targets: [RouteSearch.Endpoint], into nodes: inout [Int32]) -> (source: Int, target: Int)? {
        nodes.removeAll(keepingCapacity: true)
        guard let meeting = search(from: sources, to: targets) else { return nil }
        let h = hierarchy
        // Up from the source to the meeting rank, then down to the target.
        climbed.removeAll(keepingCapacity: true)
        var rank = meeting.rank
        while forward.reachedBy[Int(rank)] >= 0 {
            let arc = Int(forward.reachedBy[Int(rank)])
            let from = h.upSource(ofArc: arc)
            climbed.append((from, rank, h.upDetails[arc].middle))
            rank = from
        }
        let source = Int(forward.origins[Int(rank)])
        nodes.append(h.nodes[Int(rank)])
        for step in climbed.reversed() { h.unpack(from: step.from, to: step.to, middle: step.middle, into: &nodes) }
        // Through the core when the sides meet by its table.
        if meeting.exit != meeting.rank {
            for step in h.core.arcs(from: meeting.rank, to: meeting.exit, in: h) { h.unpack(from: step.from, to: step.to, middle: step.middle, into: &nodes) }
        }
        rank = meeting.exit
        while backward.reachedBy[Int(rank)] >= 0 {
            let arc = Int(backward.reachedBy[Int(rank)])
            let to = h.downTarget(ofArc: arc)
            h.unpack(from: rank, to: to, middle: h.downDetails[arc].middle, into: &nodes)
            rank = to
        }
        return (source, Int(backward.origins[Int(rank)]))
    }

    /// The bidirectional upward search: the least total cost, the rank where the forward side ends
    /// and the rank where the backward side begins (the same rank, or two core ranks the core's
    /// table joins).
    private mutating func search(from sources: [RouteSearch.Endpoint], to targets: [RouteSearch.Endpoint]) -> (cost: RouteCost, rank: Int32, exit: Int32)? {
        if !isKnownUniquelyReferenced(&forward) { forward = forward.copy() }
        if !isKnownUniquelyReferenced(&backward) { backward = backward.copy() }
        forward.reset()
        backward.reset()
        settledCount = 0
        guard !sources.isEmpty, !targets.isEmpty else { return nil }
        let core = hierarchy.core
        forward.start(sources, ranks: hierarchy.ranks, coreStart: core.coreStart)
        backward.start(targets, ranks: hierarchy.ranks, coreStart: core.coreStart)
        // The queues and touched lists move out of the sides for the query (no access checks on
        // class properties in the loop) and back in after it.
        var forwardHeap = forward.heap, backwardHeap = backward.heap
        var forwardTouched = forward.touched, backwardTouched = backward.touched
        var forwardCore = forward.coreEntries, backwardCore = backward.coreEntries
        (forward.heap, backward.heap, forward.touched, backward.touched) = (.init(), .init(), [], [])
        (forward.coreEntries, backward.coreEntries) = ([], [])
        let (forwardSide, backwardSide) = (forward, backward)
        var settled = 0
        let (best, meeting, exit) = hierarchy.withArcLists { up, down in
            // Forward: relax the arcs up, stall on the arcs from above (down); backward the reverse.
            let forward = Frontier(forwardSide, relax: up, stall: down, coreStart: core.coreStart)
            let backward = Frontier(backwardSide, relax: down, stall: up, coreStart: core.coreStart)
            var best = Key.infinity, meeting: Int32 = -1
            var forwardDone = forwardHeap.isEmpty, backwardDone = backwardHeap.isEmpty
            var turnForward = true
            while !(forwardDone && backwardDone) {
                let isForward = backwardDone || (!forwardDone && turnForward)
                turnForward.toggle()
                let stepped = isForward
                    ? forward.settleNext(heap: &forwardHeap, touched: &forwardTouched, coreEntries: &forwardCore, other: backward, best: &best, meeting: &meeting)
                    : backward.settleNext(heap: &backwardHeap, touched: &backwardTouched, coreEntries: &backwardCore, other: forward, best: &best, meeting: &meeting)
                if stepped {
                    settled += 1
                } else if isForward {
                    forwardDone = true
                } else {
                    backwardDone = true
                }
            }
            var exit = meeting
            core.join(forward: forwardCore, times: forwardSide.times, tieBreakers: forwardSide.tieBreakers,
                      backward: backwardCore, times: backwardSide.times, tieBreakers: backwardSide.tieBreakers,
                      best: &best, meeting: &meeting, exit: &exit)
            return (best, meeting, exit)
        }
        (forward.heap, backward.heap, forward.touched, backward.touched) = (forwardHeap, backwardHeap, forwardTouched, backwardTouched)
        (forward.coreEntries, backward.coreEntries) = (forwardCore, backwardCore)
        settledCount = settled
        return meeting >= 0 ? (RouteCost(time: best.time, tieBreaker: best.tieBreaker), meeting, exit) : nil
    }
}

extension ContractionHierarchy {
    /// One direction's arcs as pointers for a query: rank `r`'s are `starts[r]..<starts[r + 1]` of
    /// `arcs` and `details`.
    struct ArcList {
        let starts: UnsafeBufferPointer<Int32>
        let arcs: UnsafeBufferPointer<HierarchyArc>
        let details: UnsafeBufferPointer<HierarchyArcDetail>
    }

    /// Calls `body` with the up and down arc lists.
    func withArcLists<Result>(_ body: (_ up: ArcList, _ down: ArcList) -> Result) -> Result {
        upStarts.withUnsafeBufferPointer { upStarts in
            upArcs.withUnsafeBufferPointer { upArcs in
                upDetails.withUnsafeBufferPointer { upDetails in
                    downStarts.withUnsafeBufferPointer { downStarts in
                        downArcs.withUnsafeBufferPointer { downArcs in
                            downDetails.withUnsafeBufferPointer { downDetails in
                                body(ArcList(starts: upStarts, arcs: upArcs, details: upDetails),
                                     ArcList(starts: downStarts, arcs: downArcs, details: downDetails))
                            }
                        }
                    }
                }
            }
        }
    }
}
