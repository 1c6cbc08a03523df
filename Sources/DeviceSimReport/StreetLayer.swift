import DeviceSimHAL
import DeviceSimRoads
import Foundation

/// The streets a report's maps draw under the tracks: the road network of a world built from an
/// OpenStreetMap extract, cut to a box (what the report's maps show, with a margin for panning),
/// chained into polylines and simplified to `tolerance` metres, so that the whole of it stays a small
/// part of one offline file. Roads a car may use and paths (foot and bike only) are drawn apart.
///
/// Coordinates are whole hundred-thousandths of a degree east and north of ``origin`` (about a metre),
/// written as SVG path data with relative moves: one report shares one layer among all the maps of a
/// world, each map placing it with a transform of its own.
///
/// ```swift
/// let layer = StreetLayer(network: roads, south: 60.165, west: 24.93, north: 60.178, east: 24.96)
/// layer.roads      // "M1200 830l5 -3 8 2…"
/// ```
struct StreetLayer {
    /// The units of the path data: degrees times this.
    static let unitsPerDegree = 100_000.0

    /// The south-west corner that the path data's coordinates count from.
    let origin: GeoCoordinate
    /// SVG path data of the roads cars may use.
    private(set) var roads = ""
    /// SVG path data of the paths (foot and bike only).
    private(set) var paths = ""
    /// How many points the path data has.
    private(set) var pointCount = 0
    /// The simplification used, metres.
    private(set) var tolerance: Double

    /// The layer of `network` within the box, simplified to `tolerance` metres, or more (doubling it)
    /// until it has at most `maximumPoints` points.
    init(network: RoadNetwork, origin: GeoCoordinate, south: Double, west: Double, north: Double, east: Double, tolerance: Double = 1.5, maximumPoints: Int = 25_000) {
        self.origin = origin
        self.tolerance = tolerance
        let coordinates = network.coordinates
        func inside(_ node: Int32) -> Bool {
            let c = coordinates[Int(node)]
            return c.latitude >= south && c.latitude <= north && c.longitude >= west && c.longitude <= east
        }
        // Undirected edges with an end in the box: roads (in the car graph) and paths (in another only).
        var roadEdges = Set<UInt64>(), pathEdges = Set<UInt64>()
        func key(_ a: Int32, _ b: Int32) -> UInt64 { UInt64(UInt32(min(a, b))) << 32 | UInt64(UInt32(max(a, b))) }
        // The car graph also has copies of road nodes (where turn restrictions apply) past the
        // network's nodes: each is drawn as the node it copies (the first at its coordinate).
        var nodeAt: [GeoCoordinate: Int32] = [:]
        for (index, coordinate) in coordinates.enumerated() where nodeAt[coordinate] == nil { nodeAt[coordinate] = Int32(index) }
        for (graph, isRoad) in [(network.car, true), (network.foot, false), (network.bike, false)] {
            func drawn(_ node: Int32) -> Int32? {
                Int(node) < coordinates.count ? node : nodeAt[graph.coordinates[Int(node)]]
            }
            for graphNode in 0..<Int32(graph.nodeCount) {
                guard let node = drawn(graphNode) else { continue }
                for edge in graph.edges(of: graphNode) {
                    guard let target = drawn(graph.edgeTargets[edge]), target != node else { continue }
                    guard inside(node) || inside(target) else { continue }
                    let pair = key(node, target)
                    if isRoad { roadEdges.insert(pair) } else if !roadEdges.contains(pair) { pathEdges.insert(pair) }
                }
            }
        }
        let roadLines = Self.polylines(roadEdges, coordinates: coordinates), pathLines = Self.polylines(pathEdges, coordinates: coordinates)
        // Metres east and north of the origin, for the simplification.
        let metresPerDegree = GeoCoordinate.earthRadius * .pi / 180
        let east = metresPerDegree * max(cos(origin.latitude * .pi / 180), 0.01)
        func metres(_ node: Int32) -> (Double, Double) {
            let c = coordinates[Int(node)]
            return ((c.longitude - origin.longitude) * east, (c.latitude - origin.latitude) * metresPerDegree)
        }
        func units(_ node: Int32) -> (Int, Int) {
            let c = coordinates[Int(node)]
            return (Int(((c.longitude - origin.longitude) * Self.unitsPerDegree).rounded()), Int(((c.latitude - origin.latitude) * Self.unitsPerDegree).rounded()))
        }
        var tolerance = tolerance
        while true {
            var count = 0
            func path(_ lines: [[Int32]]) -> String {
                var out = ""
                for line in lines {
                    let inMetres = line.map(metres)
                    // A line shorter than the tolerance every way is not drawn.
                    let xs = inMetres.map(\.0), ys = inMetres.map(\.1)
                    guard max(xs.max()! - xs.min()!, ys.max()! - ys.min()!) >= tolerance else { continue }
                    let kept = Self.simplified(inMetres, tolerance: tolerance).map { line[$0] }
                    var start = "", steps: [String] = []
                    var previous: (Int, Int)?
                    for node in kept {
                        let (x, y) = units(node)
                        if let (px, py) = previous {
                            guard x != px || y != py else { continue }
                            steps.append("\(x - px) \(py - y)")   // y grows southwards in SVG
                        } else {
                            start = "M\(x) \(-y)"
                        }
                        previous = (x, y)
                    }
                    guard !steps.isEmpty else { continue }
                    out += start + "l" + steps.joined(separator: " ")
                    count += steps.count + 1
                }
                return out
            }
            let roads = path(roadLines), paths = path(pathLines)
            if count <= maximumPoints || tolerance > 100_000 {
                self.roads = roads
                self.paths = paths
                self.pointCount = count
                self.tolerance = tolerance
                return
            }
            tolerance *= 2
        }
    }

    /// The edges as few polylines: each walks on from a node along the unused edge that turns least,
    /// so streets go on through their crossings, starting from dead ends first.
    static func polylines(_ edges: Set<UInt64>, coordinates: [GeoCoordinate]) -> [[Int32]] {
        var neighbours: [Int32: [Int32]] = [:]
        for pair in edges.sorted() {
            let a = Int32(truncatingIfNeeded: pair >> 32), b = Int32(truncatingIfNeeded: pair & 0xFFFF_FFFF)
            neighbours[a, default: []].append(b)
            neighbours[b, default: []].append(a)
        }
        var used = Set<UInt64>()
        func key(_ a: Int32, _ b: Int32) -> UInt64 { UInt64(UInt32(min(a, b))) << 32 | UInt64(UInt32(max(a, b))) }
        func heading(_ a: Int32, _ b: Int32) -> (Double, Double) {
            let p = coordinates[Int(a)], q = coordinates[Int(b)]
            let x = (q.longitude - p.longitude) * cos(p.latitude * .pi / 180), y = q.latitude - p.latitude
            let length = (x * x + y * y).squareRoot()
            return length > 0 ? (x / length, y / length) : (0, 0)
        }
        var lines: [[Int32]] = []
        func walk(from start: Int32, to next: Int32) {
            var line = [start, next]
            used.insert(key(start, next))
            var previous = start, here = next
            while true {
                let (hx, hy) = heading(previous, here)
                let onward = neighbours[here]!.filter { !used.contains(key(here, $0)) }.max { a, b in
                    let (ax, ay) = heading(here, a), (bx, by) = heading(here, b)
                    return (ax * hx + ay * hy, -a) < (bx * hx + by * hy, -b)
                }
                guard let onward else { break }
                used.insert(key(here, onward))
                line.append(onward)
                previous = here
                here = onward
            }
            lines.append(line)
        }
        let nodes = neighbours.keys.sorted()
        for node in nodes where neighbours[node]!.count % 2 == 1 {
            for next in neighbours[node]! where !used.contains(key(node, next)) { walk(from: node, to: next) }
        }
        for node in nodes {
            for next in neighbours[node]! where !used.contains(key(node, next)) { walk(from: node, to: next) }
        }
        return lines
    }

    /// The indices of `points` that Douglas-Peucker keeps at `tolerance` (the first and last always).
    static func simplified(_ points: [(Double, Double)], tolerance: Double) -> [Int] {
        guard points.count > 2 else { return Array(points.indices) }
        var keep = [Bool](repeating: false, count: points.count)
        keep[0] = true
        keep[points.count - 1] = true
        var stack = [(0, points.count - 1)]
        while let (a, b) = stack.popLast() {
            let best = PlanarChord.farthest(in: points, from: a, to: b)
            if best.distance > tolerance {
                keep[best.index] = true
                stack.append((a, best.index))
                stack.append((best.index, b))
            }
        }
        return points.indices.filter { keep[$0] }
    }
}
