/// The exact least costs between the highest ranks of a ``ContractionHierarchy`` (its core), so
/// that a query stops climbing where it enters the core and joins its two sides with a table look-up
/// instead of searching the core's dense arcs (a contraction hierarchy with a core, the core joined
/// by a full table of its least costs).
///
/// An up-down path's part above its first core rank stays in the core (every rank after it is
/// higher), so the least cost from a source to a target is the least of: a meeting below the core,
/// or forward cost to a core rank `a` + the core's least cost from `a` to `b` + backward cost from
/// `b`. The core's least costs are found by Dijkstra on the core's arcs (up and down), compared as
/// exact ``RouteCost``s, so the table holds the same costs, and unpacks to the same paths, as the
/// search through the core would. Each entry also keeps the arc that reaches it, to unpack a path.
///
/// ```swift
/// let table = HierarchyCoreTable(hierarchy, size: 128)
/// let steps = table.arcs(from: a, to: b, in: hierarchy)   // the core's arcs from rank a to rank b
/// ```
struct HierarchyCoreTable: Sendable {
    /// The lowest rank of the core (ranks `coreStart..<rankCount`); `rankCount` when empty.
    let coreStart: Int
    /// The number of core ranks.
    let size: Int
    /// The least cost's time from core rank `coreStart + i` to `coreStart + j` at `i * size + j`
    /// (`.max`: no path).
    let times: [UInt64]
    /// The least cost's tie-breaker, at the same index.
    let tieBreakers: [UInt64]
    /// The arc the least-cost path reaches `j` by, at the same index: an up arc's index `a` as `a`,
    /// a down arc's as `-a - 1` (`Int32.min`: `i` itself or no path).
    let lastArcs: [Int32]

    /// One arc of a core path: its ranks and the rank a shortcut bypasses (-1: an edge).
    struct Step: Equatable {
        var from: Int32, to: Int32, middle: Int32
    }

    /// No core (a hierarchy being built).
    static let empty = HierarchyCoreTable(rankCount: 0, size: 0, times: [], tieBreakers: [], lastArcs: [])

    /// A table from its arrays (a prepared file) for a hierarchy of `rankCount` ranks; check it with
    /// ``isConsistent(with:)``.
    init(rankCount: Int, size: Int, times: [UInt64], tieBreakers: [UInt64], lastArcs: [Int32]) {
        (coreStart, self.size, self.times, self.tieBreakers, self.lastArcs) = (rankCount - size, size, times, tieBreakers, lastArcs)
    }

    /// Whether the arrays fit `hierarchy` (a prepared file's check): the core within its ranks, every
    /// array of `size` x `size` entries, each entry's arc one of the hierarchy's arcs into that
    /// entry's rank, so that a path unpacks.
    func isConsistent(with hierarchy: ContractionHierarchy) -> Bool {
        let rankCount = hierarchy.ranks.count
        guard size >= 0, size <= rankCount, coreStart == rankCount - size, times.count == size * size, tieBreakers.count == times.count,
              lastArcs.count == times.count else { return false }
        for index in lastArcs.indices {
            let code = Int(lastArcs[index]), rank = coreStart + index % size
            if code == Int(Int32.min) { continue }
            if code >= 0 {
                guard code < hierarchy.upArcs.count, Int(hierarchy.upArcs[code].end) == rank else { return false }
            } else {
                guard Int(hierarchy.downStarts[rank]) <= -code - 1, -code - 1 < Int(hierarchy.downStarts[rank + 1]) else { return false }
            }
        }
        return true
    }

    /// The table of `hierarchy`'s `size` highest ranks (all of them when it has fewer).
    init(_ hierarchy: ContractionHierarchy, size requested: Int) {
        let rankCount = hierarchy.ranks.count
        let size = max(0, min(requested, rankCount))
        let coreStart = rankCount - size
        self.coreStart = coreStart
        self.size = size
        // Each core rank's outgoing arcs inside the core: its up arcs, and the down arcs of lower
        // core ranks that leave it.
        var counts = [Int32](repeating: 0, count: size + 1)
        for local in 0..<size {
            let rank = coreStart + local
            counts[local + 1] += hierarchy.upStarts[rank + 1] - hierarchy.upStarts[rank]
            for arc in Int(hierarchy.downStarts[rank])..<Int(hierarchy.downStarts[rank + 1]) {
                counts[Int(hierarchy.downArcs[arc].end) - coreStart + 1] += 1
            }
        }
        for local in 0..<size { counts[local + 1] += counts[local] }
        var fill = counts
        var heads = [Int32](repeating: 0, count: Int(counts[size])), codes = heads
        var arcTimes = [UInt64](repeating: 0, count: heads.count), arcTieBreakers = arcTimes
        for local in 0..<size {
            let rank = coreStart + local
            for arc in Int(hierarchy.upStarts[rank])..<Int(hierarchy.upStarts[rank + 1]) {
                let slot = Int(fill[local])
                fill[local] += 1
                (heads[slot], codes[slot]) = (hierarchy.upArcs[arc].end - Int32(coreStart), Int32(arc))
                (arcTimes[slot], arcTieBreakers[slot]) = (hierarchy.upArcs[arc].time, hierarchy.upDetails[arc].tieBreaker)
            }
            for arc in Int(hierarchy.downStarts[rank])..<Int(hierarchy.downStarts[rank + 1]) {
                let owner = Int(hierarchy.downArcs[arc].end) - coreStart, slot = Int(fill[owner])
                fill[owner] += 1
                (heads[slot], codes[slot]) = (Int32(local), Int32(-arc - 1))
                (arcTimes[slot], arcTieBreakers[slot]) = (hierarchy.downArcs[arc].time, hierarchy.downDetails[arc].tieBreaker)
            }
        }
        var times = [UInt64](repeating: .max, count: size * size), tieBreakers = times
        var lastArcs = [Int32](repeating: .min, count: size * size)
        var heap = MinimumHeap<HierarchySearch.Key>()
        for source in 0..<size {
            let row = source * size
            times[row + source] = 0
            tieBreakers[row + source] = 0
            heap.insert(Int32(source), key: .init(time: 0, tieBreaker: 0))
            while !heap.isEmpty {
                let (node, key) = heap.popMinimum()
                let here = Int(node)
                guard key.time == times[row + here], key.tieBreaker == tieBreakers[row + here] else { continue }  // stale
                for slot in Int(counts[here])..<Int(counts[here + 1]) {
                    let next = Int(heads[slot])
                    let candidate = HierarchySearch.Key(time: key.time + arcTimes[slot], tieBreaker: key.tieBreaker + arcTieBreakers[slot])
                    guard candidate < HierarchySearch.Key(time: times[row + next], tieBreaker: tieBreakers[row + next]) else { continue }
                    times[row + next] = candidate.time
                    tieBreakers[row + next] = candidate.tieBreaker
                    lastArcs[row + next] = codes[slot]
                    heap.insert(Int32(next), key: candidate)
                }
            }
        }
        (self.times, self.tieBreakers, self.lastArcs) = (times, tieBreakers, lastArcs)
    }

    /// Lowers `best` to the least cost through the core: from a `forward` core rank (its cost in
    /// `forwardTimes` and `forwardTieBreakers`, by rank) through the table to a `backward` one;
    /// `meeting` and `exit` become the two ranks when it does.
    func join(forward: [Int32], times forwardTimes: UnsafeMutablePointer<UInt64>, tieBreakers forwardTieBreakers: UnsafeMutablePointer<UInt64>,
              backward: [Int32], times backwardTimes: UnsafeMutablePointer<UInt64>, tieBreakers backwardTieBreakers: UnsafeMutablePointer<UInt64>,
              best: inout HierarchySearch.Key, meeting: inout Int32, exit: inout Int32) {
        guard !forward.isEmpty, !backward.isEmpty else { return }
        times.withUnsafeBufferPointer { table in
            for a in forward {
                let aTime = forwardTimes[Int(a)]
                guard aTime <= best.time else { continue }
                let row = table.baseAddress! + (Int(a) - coreStart) * size
                for b in backward {
                    let between = row[Int(b) - coreStart]
                    guard between != .max else { continue }
                    let time = aTime + between + backwardTimes[Int(b)]
                    guard time <= best.time else { continue }
                    let index = (Int(a) - coreStart) * size + Int(b) - coreStart
                    let total = HierarchySearch.Key(time: time, tieBreaker: forwardTieBreakers[Int(a)] + tieBreakers[index] + backwardTieBreakers[Int(b)])
                    if total < best {
                        best = total
                        (meeting, exit) = (a, b)
                    }
                }
            }
        }
    }

    /// The arcs of the least-cost path from core rank `from` to core rank `to`, in travel order.
    func arcs(from: Int32, to: Int32, in hierarchy: ContractionHierarchy) -> [Step] {
        let row = (Int(from) - coreStart) * size
        var steps: [Step] = [], rank = to
        while rank != from {
            precondition(steps.count <= size, "The core table's path from rank \(from) to \(to) does not end: delete the prepared road network file to rebuild it.")
            let code = Int(lastArcs[row + Int(rank) - coreStart])
            if code >= 0 {
                let source = hierarchy.upSource(ofArc: code)
                steps.append(Step(from: source, to: rank, middle: hierarchy.upDetails[code].middle))
                rank = source
            } else {
                let arc = -code - 1, source = hierarchy.downArcs[arc].end
                steps.append(Step(from: source, to: rank, middle: hierarchy.downDetails[arc].middle))
                rank = source
            }
        }
        return steps.reversed()
    }
}
