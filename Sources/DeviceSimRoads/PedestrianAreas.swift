import DeviceSimHAL
import Foundation

/// Walkable areas (a square mapped as `highway=pedestrian` + `area=yes`, or as a multipolygon
/// relation tagged `highway=pedestrian`) as edges across them, the way routing engines route over
/// squares: the outline's edges, plus a straight edge between every two outline nodes that see each
/// other across the area (the segment between them stays inside it: it crosses no outline edge and
/// its middle is inside).
///
/// An area of more than ``maximumFullyConnectedNodes`` outline nodes is crossed only from its
/// entrances (outline nodes that other highways also use) to every node they see, which bounds the
/// edges at about that number squared per area.
///
/// ```swift
/// for area in PedestrianAreas.areas(of: extract) {
///     for (a, b) in PedestrianAreas.crossings(of: area, entrances: entrances, position: position) { ... }
/// }
/// ```
enum PedestrianAreas {
    /// The highway classes whose areas are walkable.
    static let classes: Set<String> = ["pedestrian", "footway"]
    /// Above this many outline nodes, an area is crossed from its entrances only.
    static let maximumFullyConnectedNodes = 200

    /// A walkable area: its rings (closed node lists, first == last) and the tags its edges take.
    struct Area {
        var id: Int64
        var rings: [[Int64]]
        var tags: [String: String]
    }

    /// The walkable areas of `extract`: closed ways and multipolygon relations of ``classes``. The
    /// edges' tags are the area's, without `area=yes`.
    static func areas(of extract: OSMExtract) -> [Area] {
        var areas: [Area] = []
        for way in extract.highways where way.tags["area"] == "yes" && classes.contains(way.tags["highway"] ?? "") {
            guard way.nodeIDs.count >= 4, way.nodeIDs.first == way.nodeIDs.last else { continue }
            var tags = way.tags
            tags["area"] = nil
            areas.append(Area(id: way.id, rings: [way.nodeIDs], tags: tags))
        }
        for relation in extract.areaRelations where classes.contains(relation.tags["highway"] ?? "") {
            let ways = relation.members.filter { $0.kind == .way && ($0.role == "outer" || $0.role == "inner" || $0.role.isEmpty) }.compactMap { extract.nodeIDs(ofWay: $0.id) }
            let rings = assembleRings(ways)
            guard !rings.isEmpty else { continue }
            var tags = relation.tags
            tags["area"] = nil
            areas.append(Area(id: relation.id, rings: rings, tags: tags))
        }
        return areas
    }

    /// Closed rings from way pieces joined end to end (pieces that close no ring are dropped).
    static func assembleRings(_ pieces: [[Int64]]) -> [[Int64]] {
        var open = pieces.filter { $0.count >= 2 }
        var rings: [[Int64]] = []
        while let first = open.first {
            open.removeFirst()
            var ring = first
            var grown = true
            while ring.first != ring.last, grown {
                grown = false
                for (index, piece) in open.enumerated() {
                    if piece.first == ring.last { ring += piece.dropFirst() } else if piece.last == ring.last { ring += piece.reversed().dropFirst() } else { continue }
                    open.remove(at: index)
                    grown = true
                    break
                }
            }
            if ring.count >= 4, ring.first == ring.last { rings.append(ring) }
        }
        return rings
    }

    /// The pairs of outline nodes of `area` joined by an edge: consecutive ring nodes, and pairs that
    /// see each other across the area. `position` gives a node's coordinate (nil: not in the
    /// extract; rings with such nodes are left out); `isEntrance` whether other highways use it.
    static func edges(of area: Area, position: (Int64) -> GeoCoordinate?, isEntrance: (Int64) -> Bool) -> [(Int64, Int64)] {
        let rings = area.rings.filter { ring in ring.allSatisfy { position($0) != nil } }
        guard let origin = rings.first.flatMap({ position($0[0]) }) else { return [] }
        // Local plane, metres east and north of the first node.
        let metresPerDegree = GeoCoordinate.earthRadius * .pi / 180
        let east = cos(origin.latitude * .pi / 180) * metresPerDegree
        func point(_ id: Int64) -> (x: Double, y: Double) {
            let c = position(id)!
            return ((c.longitude - origin.longitude) * east, (c.latitude - origin.latitude) * metresPerDegree)
        }
        var outline: [((x: Double, y: Double), (x: Double, y: Double))] = []
        var pairs: [(Int64, Int64)] = []
        var nodes: [Int64] = []
        var seen = Set<Int64>()
        for ring in rings {
            for (a, b) in zip(ring, ring.dropFirst()) where a != b {
                outline.append((point(a), point(b)))
                pairs.append((a, b))
            }
            for node in ring where seen.insert(node).inserted { nodes.append(node) }
        }
        let points = nodes.map(point)
        let entrances = nodes.map(isEntrance)
        let allPairs = nodes.count <= maximumFullyConnectedNodes
        for i in nodes.indices {
            for j in (i + 1)..<nodes.count where allPairs || entrances[i] || entrances[j] {
                if sees(points[i], points[j], outline) { pairs.append((nodes[i], nodes[j])) }
            }
        }
        return pairs
    }

    /// Whether the segment p-q lies inside the area whose outline edges are `outline`: it properly
    /// crosses no outline edge, and its middle is inside (even-odd over every ring).
    static func sees(_ p: (x: Double, y: Double), _ q: (x: Double, y: Double), _ outline: [((x: Double, y: Double), (x: Double, y: Double))]) -> Bool {
        func cross(_ o: (x: Double, y: Double), _ a: (x: Double, y: Double), _ b: (x: Double, y: Double)) -> Double { (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x) }
        let epsilon = 1e-9
        for (a, b) in outline {
            let d1 = cross(p, q, a), d2 = cross(p, q, b), d3 = cross(a, b, p), d4 = cross(a, b, q)
            if ((d1 > epsilon && d2 < -epsilon) || (d1 < -epsilon && d2 > epsilon)) && ((d3 > epsilon && d4 < -epsilon) || (d3 < -epsilon && d4 > epsilon)) { return false }
        }
        let middle = ((p.x + q.x) / 2, (p.y + q.y) / 2)
        var inside = false
        for (a, b) in outline where (a.y > middle.1) != (b.y > middle.1) {
            let x = a.x + (middle.1 - a.y) / (b.y - a.y) * (b.x - a.x)
            if x > middle.0 { inside.toggle() }
        }
        return inside
    }
}
