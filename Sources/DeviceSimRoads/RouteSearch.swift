import DeviceSimHAL

/// Least-travel-time search on a ``RoadGraph``: A* for one pair, Dijkstra for one-to-many.
///
/// **A\***: the priority of a node is its travel time from the source plus a lower bound of the rest:
/// the straight-line (chord) distance to the target divided by the graph's fastest edge speed. A
/// chord is never longer than the great-circle distance, which is never longer than the road, and
/// no edge is faster than ``RoadGraph/maximumSpeed``, so the bound never overestimates (admissible)
/// and never drops by more than an edge's time along an edge (consistent): the first time the target
/// leaves the queue its time is the least. Nodes may still be reached again with a smaller time
/// (floating-point rounding), in which case they are simply queued again, so the result stays exact.
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
        /// Total travel time, seconds.
        public var seconds: Double
        /// Node indices from source to target.
        public var nodes: [Int32]
    }

    /// The graph searched.
    public let graph: RoadGraph
    private var times: [Double]
    private var parents: [Int32]
    private var touched: [Int32] = []
    private var heap = MinimumHeap()
    /// Nodes taken from the queue by the last query (a measure of its work).
    public private(set) var settledCount = 0

    /// A search over `graph`.
    public init(_ graph: RoadGraph) {
        self.graph = graph
        times = [Double](repeating: .infinity, count: graph.nodeCount)
        parents = [Int32](repeating: -1, count: graph.nodeCount)
    }

    private mutating func reset() {
        for node in touched {
            times[Int(node)] = .infinity
            parents[Int(node)] = -1
        }
        touched.removeAll(keepingCapacity: true)
        heap.removeAll()
        settledCount = 0
    }

    /// The fastest path from `source` to `target`, or nil when the target cannot be reached.
    public mutating func fastestPath(from source: Int32, to target: Int32) -> Path? {
        guard let seconds = fastestTime(from: source, to: target) else { return nil }
        var nodes: [Int32] = [target]
        var node = target
        while node != source {
            node = parents[Int(node)]
            nodes.append(node)
        }
        return Path(seconds: seconds, nodes: nodes.reversed())
    }

    /// The least travel time from `source` to `target` in seconds, or nil when it cannot be reached.
    public mutating func fastestTime(from source: Int32, to target: Int32) -> Double? {
        reset()
        let vectors = graph.unitVectors
        let t = Int(target) * 3
        let tx = vectors[t], ty = vectors[t + 1], tz = vectors[t + 2]
        // Metres per unit of chord over the fastest speed, shaved by a millionth against rounding.
        let scale = graph.maximumSpeed > 0 ? GeoCoordinate.earthRadius / graph.maximumSpeed * (1 - 1e-6) : 0
        @inline(__always) func bound(_ node: Int32) -> Double {
            let i = Int(node) * 3
            let dx = vectors[i] - tx, dy = vectors[i + 1] - ty, dz = vectors[i + 2] - tz
            return (dx * dx + dy * dy + dz * dz).squareRoot() * scale
        }
        times[Int(source)] = 0
        touched.append(source)
        heap.insert(source, key: bound(source))
        let starts = graph.edgeStarts, targets = graph.edgeTargets, seconds = graph.edgeSeconds
        while !heap.isEmpty {
            let (node, key) = heap.popMinimum()
            let time = times[Int(node)]
            if key > time + bound(node) { continue }  // A stale entry.
            settledCount += 1
            if node == target { return time }
            for edge in Int(starts[Int(node)])..<Int(starts[Int(node) + 1]) {
                let next = targets[edge]
                let candidate = time + seconds[edge]
                if candidate < times[Int(next)] {
                    if times[Int(next)] == .infinity { touched.append(next) }
                    times[Int(next)] = candidate
                    parents[Int(next)] = node
                    heap.insert(next, key: candidate + bound(next))
                }
            }
        }
        return nil
    }

    /// The least travel times from `source` to each of `targets` (nil: unreachable), by Dijkstra's
    /// search stopped once every target is settled.
    public mutating func fastestTimes(from source: Int32, to targets: [Int32]) -> [Double?] {
        reset()
        var remaining = Set(targets)
        times[Int(source)] = 0
        touched.append(source)
        heap.insert(source, key: 0)
        let starts = graph.edgeStarts, edgeTargets = graph.edgeTargets, seconds = graph.edgeSeconds
        while !heap.isEmpty, !remaining.isEmpty {
            let (node, key) = heap.popMinimum()
            if key > times[Int(node)] { continue }
            settledCount += 1
            remaining.remove(node)
            for edge in Int(starts[Int(node)])..<Int(starts[Int(node) + 1]) {
                let next = edgeTargets[edge]
                let candidate = key + seconds[edge]
                if candidate < times[Int(next)] {
                    if times[Int(next)] == .infinity { touched.append(next) }
                    times[Int(next)] = candidate
                    parents[Int(next)] = node
                    heap.insert(next, key: candidate)
                }
            }
        }
        return targets.map { times[Int($0)].isFinite ? times[Int($0)] : nil }
    }
}
