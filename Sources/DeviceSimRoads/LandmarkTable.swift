import Foundation

/// Travel times between every node of a ``RoadGraph`` and a few landmark nodes, for the route
/// search's ALT lower bound (A*, Landmarks, Triangle inequality; Goldberg and Harrelson, 2005).
///
/// For a landmark `L` and any nodes `v` and `t`, the triangle inequality gives two lower bounds of
/// the travel time `d(v, t)`: `d(L, t) − d(L, v)` and `d(v, L) − d(t, L)`. The search takes the
/// largest of them over all landmarks (and the straight-line bound).
///
/// **Choosing landmarks**: farthest-point selection inside the graph's largest strongly connected
/// component. The first landmark is the node farthest (straight line) from the component's centre;
/// each next one is the node whose shortest round trip to any landmark chosen so far is longest.
/// Each landmark costs one forward and one backward Dijkstra search over the whole graph.
///
/// **Storage**: per node and landmark two `Float`s, the time from the landmark rounded *up* and the
/// time to it rounded *down*, so that in the bound the term subtracted for a node is never too small
/// and the term added never too large; the target's own terms (read once per query) are moved one
/// `Float` step the safe way. The bound therefore never exceeds the true time (admissible), whatever
/// the rounding. A time that does not exist (the node cannot be reached from, or cannot reach, the
/// landmark) is stored as ``unreachable``, a finite sentinel far above any real time: a difference
/// of two sentinels is 0 (no information), a sentinel minus a real time is about 1e30, which is
/// right, since then the node cannot reach the target at all (if `L` reaches `v` but not `t`, `v`
/// does not reach `t`; if `t` reaches `L` but `v` does not, `v` does not reach `t`).
///
/// ```swift
/// let table = graph.landmarks                     // computed on first use
/// let atLeast = table.lowerBound(from: a, to: b)  // seconds, never more than the fastest route
/// ```
public struct LandmarkTable: Sendable {
    /// The stored time of a node a landmark does not reach, or that does not reach the landmark.
    public static let unreachable: Float = 1e30
    /// Bounds at least this large mean the target cannot be reached from the node.
    static let unreachableBound = 1e29

    /// The landmarks' node indices, in the order chosen.
    public let nodes: [Int32]
    /// For node `v` and landmark `i`: at `2 * (v * count + i)` the time from the landmark to `v`
    /// rounded up, at the next index the time from `v` to the landmark rounded down (seconds).
    let times: [Float]

    /// The number of landmarks.
    public var count: Int { nodes.count }

    /// Bytes held by the table.
    public var memoryFootprint: Int { nodes.count * 4 + times.count * 4 }

    /// The landmark count used when none is given: 16 where the tables take at most 64 MiB, fewer for
    /// larger graphs (8 for a million nodes), never fewer than 4.
    public static func defaultCount(nodeCount: Int) -> Int {
        let affordable = (64 << 20) / max(1, 8 * nodeCount)
        return min(16, max(4, affordable))
    }

    /// Chooses up to `count` landmarks in `graph` and computes their travel times to and from every
    /// node (fewer when the largest strongly connected component has fewer distinct nodes).
    ///
    /// With `sharing`, each landmark's backward search is offered to threads that want the table
    /// meanwhile (see ``LandmarkSearchSharing``) while this thread runs the forward one; a search
    /// nobody has started by then runs here. The table is the same whoever runs which search.
    init(_ graph: RoadGraph, count: Int, sharing: LandmarkSearchSharing? = nil) {
        let nodeCount = graph.nodeCount
        let routable = (0..<nodeCount).filter { graph.isRoutable[$0] }
        guard count > 0, !routable.isEmpty else {
            nodes = []
            times = []
            return
        }
        let forward = CSR(starts: graph.edgeStarts, targets: graph.edgeTargets, seconds: graph.edgeSeconds)
        let backward = forward.reversed(nodeCount: nodeCount)
        sharing?.start(searching: backward)

        // The first landmark: the routable node farthest from the component's centre.
        let vectors = graph.unitVectors
        var centre = (0.0, 0.0, 0.0)
        for node in routable { centre = (centre.0 + vectors[3 * node], centre.1 + vectors[3 * node + 1], centre.2 + vectors[3 * node + 2]) }
        func chordSquared(_ node: Int) -> Double {
            let count = Double(routable.count)
            let dx = vectors[3 * node] - centre.0 / count, dy = vectors[3 * node + 1] - centre.1 / count, dz = vectors[3 * node + 2] - centre.2 / count
            return dx * dx + dy * dy + dz * dz
        }
        var next = routable.max { chordSquared($0) < chordSquared($1) }!

        var chosen: [Int32] = []
        // Filled column by column as landmarks are chosen (stride `count`), compacted if fewer are.
        var interleaved = [Float](repeating: Self.unreachable, count: 2 * nodeCount * count)
        var shortestRoundTrip = [Double](repeating: .infinity, count: nodeCount)
        var fromLandmark = [Double](repeating: .infinity, count: nodeCount)
        var scratch = DijkstraScratch(nodeCount: nodeCount)
        while chosen.count < count {
            let landmark = chosen.count
            chosen.append(Int32(next))
            sharing?.offerBackwardSearch(from: Int32(next))
            scratch.computeTimes(from: Int32(next), in: forward)
            for node in 0..<nodeCount { interleaved[2 * (node * count + landmark)] = Self.roundedUp(scratch.times[node]) }
            for node in routable { fromLandmark[node] = scratch.times[node] }
            let toLandmark: [Double]
            if let searched = sharing?.takeBackBackwardSearch() {
                toLandmark = searched
            } else {
                scratch.computeTimes(from: Int32(next), in: backward)
                toLandmark = scratch.times
            }
            for node in 0..<nodeCount { interleaved[2 * (node * count + landmark) + 1] = Self.roundedDown(toLandmark[node]) }
            // The next landmark: the routable node farthest (round trip) from every landmark so far.
            var farthest = -1, longest = 0.0
            for node in routable {
                let roundTrip = min(shortestRoundTrip[node], fromLandmark[node] + toLandmark[node])
                shortestRoundTrip[node] = roundTrip
                if roundTrip > longest {
                    farthest = node
                    longest = roundTrip
                }
            }
            guard farthest >= 0 else { break }  // Every node coincides with a landmark.
            next = farthest
        }
        if chosen.count < count {
            let chosenCount = chosen.count
            interleaved = (0..<(2 * nodeCount * chosenCount)).map { index in
                let node = index / (2 * chosenCount), rest = index % (2 * chosenCount)
                return interleaved[2 * node * count + rest]
            }
        }
        nodes = chosen
        times = interleaved
    }

    /// A lower bound of the travel time from `node` to `target` in seconds (0 when the landmarks
    /// know nothing; about 1e30 when `target` cannot be reached from `node`).
    public func lowerBound(from node: Int32, to target: Int32) -> Double {
        var best = 0.0
        let k = count
        for landmark in 0..<k {
            let t = 2 * (Int(target) * k + landmark), v = 2 * (Int(node) * k + landmark)
            best = max(best, Double(times[t].nextDown) - Double(times[v]), Double(times[v + 1]) - Double(times[t + 1].nextUp))
        }
        return best
    }

    /// `time` as the least `Float` not below it (``unreachable`` for infinity).
    static func roundedUp(_ time: Double) -> Float {
        guard time.isFinite else { return unreachable }
        let rounded = Float(time)
        return Double(rounded) < time ? rounded.nextUp : rounded
    }

    /// `time` as the greatest `Float` not above it (``unreachable`` for infinity).
    static func roundedDown(_ time: Double) -> Float {
        guard time.isFinite else { return unreachable }
        let rounded = Float(time)
        return Double(rounded) > time ? rounded.nextDown : rounded
    }
}

/// A graph's edges in compressed sparse row form, for the landmark searches.
struct CSR: Sendable {
    var starts: [Int32]
    var targets: [Int32]
    var seconds: [Double]

    /// The same graph with every edge turned around.
    func reversed(nodeCount: Int) -> CSR {
        var reverseStarts = [Int32](repeating: 0, count: nodeCount + 1)
        for target in targets { reverseStarts[Int(target) + 1] += 1 }
        for index in 0..<nodeCount { reverseStarts[index + 1] += reverseStarts[index] }
        var fill = reverseStarts
        var reverseTargets = [Int32](repeating: 0, count: targets.count)
        var reverseSeconds = [Double](repeating: 0, count: targets.count)
        for node in 0..<nodeCount {
            for edge in Int(starts[node])..<Int(starts[node + 1]) {
                let target = Int(targets[edge])
                reverseTargets[Int(fill[target])] = Int32(node)
                reverseSeconds[Int(fill[target])] = seconds[edge]
                fill[target] += 1
            }
        }
        return CSR(starts: reverseStarts, targets: reverseTargets, seconds: reverseSeconds)
    }
}

/// Dijkstra's search over a whole graph, reusing its heap.
struct DijkstraScratch {
    var times: [Double]
    var heap = MinimumHeap<Double>()

    init(nodeCount: Int) { times = [Double](repeating: .infinity, count: nodeCount) }

    /// Sets ``times`` to the least travel time from `source` to every node (infinity: unreachable).
    mutating func computeTimes(from source: Int32, in graph: CSR) {
        for index in times.indices { times[index] = .infinity }
        heap.removeAll()
        times[Int(source)] = 0
        heap.insert(source, key: 0)
        while !heap.isEmpty {
            let (node, key) = heap.popMinimum()
            if key > times[Int(node)] { continue }
            for edge in Int(graph.starts[Int(node)])..<Int(graph.starts[Int(node) + 1]) {
                let next = Int(graph.targets[edge])
                let candidate = key + graph.seconds[edge]
                if candidate < times[next] {
                    times[next] = candidate
                    heap.insert(Int32(next), key: candidate)
                }
            }
        }
    }
}
