import DeviceSimHAL
import Foundation

/// The road segments one mode may use (the straight pieces between consecutive nodes of its ways),
/// in a uniform grid of about 200 m cells, for finding the nearest point of the nearest street to a
/// position.
///
/// Each segment joins two nodes `a < b` of the network (original OSM nodes, not the car graph's
/// turn copies) with its travel time each way (infinity: that way is closed).
///
/// ```swift
/// let index = SegmentIndex(coordinates: coordinates, segments: segments)
/// if let hit = index.nearest(to: position, within: 100) { print(hit.segment, hit.fraction, hit.distance) }
/// ```
struct SegmentIndex: Sendable {
    /// One segment.
    struct Segment: Sendable, Hashable {
        var a: Int32
        var b: Int32
        /// Seconds from `a` to `b` (infinity: closed that way).
        var forward: Double
        /// Seconds from `b` to `a` (infinity: closed that way).
        var backward: Double
    }

    /// The nearest point of a segment to a position.
    struct Hit: Sendable, Hashable {
        /// The segment's index in ``segments``.
        var segment: Int
        /// Where the point is along it, from `a` (0) to `b` (1).
        var fraction: Double
        /// The point.
        var point: GeoCoordinate
        /// Metres from the position to the point.
        var distance: Double
    }

    /// Cell height in degrees of latitude (about 222 m).
    static let cellDegrees = 0.002
    let coordinates: [GeoCoordinate]
    let segments: [Segment]
    private let longitudeCellDegrees: Double
    /// (cell key, segment index), sorted.
    private let cellKeys: [Int64]
    private let cellSegments: [Int32]

    /// Indexes `segments` between `coordinates`.
    init(coordinates: [GeoCoordinate], segments: [Segment]) {
        self.coordinates = coordinates
        self.segments = segments
        let meanLatitude = coordinates.isEmpty ? 0 : coordinates.reduce(0.0) { $0 + $1.latitude } / Double(coordinates.count)
        let longitudeCell = Self.cellDegrees / max(cos(meanLatitude * .pi / 180), 0.05)
        longitudeCellDegrees = longitudeCell
        var pairs: [(Int64, Int32)] = []
        for (index, segment) in segments.enumerated() {
            let p = coordinates[Int(segment.a)], q = coordinates[Int(segment.b)]
            let rows = Self.cell(min(p.latitude, q.latitude), Self.cellDegrees)...Self.cell(max(p.latitude, q.latitude), Self.cellDegrees)
            let columns = Self.cell(min(p.longitude, q.longitude), longitudeCell)...Self.cell(max(p.longitude, q.longitude), longitudeCell)
            // A segment longer than a few cells is entered in every cell of its bounding box (rare on streets).
            for row in rows { for column in columns { pairs.append((Self.key(row, column), Int32(index))) } }
        }
        pairs.sort { ($0.0, $0.1) < ($1.0, $1.1) }
        cellKeys = pairs.map(\.0)
        cellSegments = pairs.map(\.1)
    }

    private static func cell(_ degrees: Double, _ size: Double) -> Int64 { Int64((degrees / size).rounded(.down)) }
    private static func key(_ row: Int64, _ column: Int64) -> Int64 { row << 32 | (column & 0xFFFF_FFFF) }

    /// The nearest point of any segment to `position`, if one is within `limit` metres (ties: the
    /// segment indexed first).
    func nearest(to position: GeoCoordinate, within limit: Double) -> Hit? {
        guard !segments.isEmpty, position.latitude.isFinite, position.longitude.isFinite, abs(position.latitude) < 89 else { return nil }
        let metresPerDegree = GeoCoordinate.earthRadius * .pi / 180
        let east = cos(position.latitude * .pi / 180) * metresPerDegree
        let latitudeMargin = limit / metresPerDegree, longitudeMargin = limit / max(east, 1)
        let rows = Self.cell(position.latitude - latitudeMargin, Self.cellDegrees)...Self.cell(position.latitude + latitudeMargin, Self.cellDegrees)
        let columns = Self.cell(position.longitude - longitudeMargin, longitudeCellDegrees)...Self.cell(position.longitude + longitudeMargin, longitudeCellDegrees)
        guard rows.count * columns.count <= 10_000 else { return nil }
        // Candidates are ranked by their distance in the flat local plane around the position, and the
        // great-circle distance (a haversine) is taken only for those that may still win. Over d metres
        // the plane's distance differs from the great circle's by less than a factor 1 ± k·d/R
        // (k = |tan latitude| + 1 covers the east scale changing with latitude and the curvature), so a
        // candidate whose plane distance is over `slack` times the best's so far (or over `slack` times
        // the limit) is farther on the great circle too, and the winner is the one the haversine of
        // every candidate would pick, ties included.
        let k = abs(tan(position.latitude * .pi / 180)) + 1
        let slack = 1 + 4 * k * (limit + 1) / GeoCoordinate.earthRadius + 1e-9
        let limitInPlane = limit * slack
        var bestInPlane = Double.infinity
        var best: Hit?
        for row in rows {
            for column in columns {
                let key = Self.key(row, column)
                var low = 0, high = cellKeys.count
                while low < high {
                    let mid = (low + high) >> 1
                    if cellKeys[mid] < key { low = mid + 1 } else { high = mid }
                }
                while low < cellKeys.count, cellKeys[low] == key {
                    let index = Int(cellSegments[low])
                    low += 1
                    let inPlane = planeDistance(of: index, to: position, east: east, north: metresPerDegree)
                    guard inPlane <= limitInPlane, inPlane <= bestInPlane * slack else { continue }
                    let hit = nearestPoint(of: index, to: position, east: east, north: metresPerDegree)
                    guard hit.distance <= limit else { continue }
                    bestInPlane = min(bestInPlane, inPlane)
                    if best == nil || hit.distance < best!.distance || (hit.distance == best!.distance && index < best!.segment) { best = hit }
                }
            }
        }
        return best
    }

    /// The distance in the local plane around `position` (metres `east` and `north` per degree) from
    /// the position to the nearest point of segment `index`.
    private func planeDistance(of index: Int, to position: GeoCoordinate, east: Double, north: Double) -> Double {
        let segment = segments[index]
        let p = coordinates[Int(segment.a)], q = coordinates[Int(segment.b)]
        let px = (p.longitude - position.longitude) * east, py = (p.latitude - position.latitude) * north
        let qx = (q.longitude - position.longitude) * east, qy = (q.latitude - position.latitude) * north
        let dx = qx - px, dy = qy - py
        let squared = dx * dx + dy * dy
        let fraction = squared > 0 ? min(max(-(px * dx + py * dy) / squared, 0), 1) : 0
        let x = px + dx * fraction, y = py + dy * fraction
        return (x * x + y * y).squareRoot()
    }

    /// The nearest point of segment `index` to `position`, in the local plane around the position.
    func nearestPoint(of index: Int, to position: GeoCoordinate, east: Double, north: Double) -> Hit {
        let segment = segments[index]
        let p = coordinates[Int(segment.a)], q = coordinates[Int(segment.b)]
        let px = (p.longitude - position.longitude) * east, py = (p.latitude - position.latitude) * north
        let qx = (q.longitude - position.longitude) * east, qy = (q.latitude - position.latitude) * north
        let dx = qx - px, dy = qy - py
        let squared = dx * dx + dy * dy
        let fraction = squared > 0 ? min(max(-(px * dx + py * dy) / squared, 0), 1) : 0
        let point: GeoCoordinate
        if fraction == 0 { point = p } else if fraction == 1 { point = q } else {
            point = GeoCoordinate(latitude: p.latitude + (q.latitude - p.latitude) * fraction, longitude: p.longitude + (q.longitude - p.longitude) * fraction)
        }
        return Hit(segment: index, fraction: fraction, point: point, distance: position.distance(to: point))
    }
}
