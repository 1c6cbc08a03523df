import DeviceSimHAL
import Foundation

/// The road segments one mode may use (the straight pieces between consecutive nodes of its ways),
/// in a uniform grid of cells about 50 m high over the network's bounding box, for finding the
/// nearest point of the nearest street to a position.
///
/// Each segment joins two nodes `a < b` of the network (original OSM nodes, not the car graph's
/// turn copies) with its travel time each way (infinity: that way is closed).
///
/// ```swift
/// let index = SegmentIndex(coordinates: coordinates, segments: segments)
/// if let hit = index.nearest(to: position, within: 100, surfaceOnly: true) { print(hit.segment, hit.fraction, hit.distance) }
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
        /// Whether every way the mode may use along it is in a tunnel or on a bridge
        /// (``RoadRules/isOffTheSurface(_:)``).
        var isOffTheSurface = false
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

    /// Smallest cell height in degrees of latitude (about 56 m); larger when the box would need
    /// more than ``maximumCellCount`` cells.
    static let minimumCellDegrees = 0.0005
    static let maximumCellCount = 1 << 22
    let coordinates: [GeoCoordinate]
    let segments: [Segment]
    /// The grid: its south-west corner, cell size in degrees, rows and columns.
    private let south: Double, west: Double, cellLatitude: Double, cellLongitude: Double
    private let rows: Int, columns: Int
    /// Cell `row * columns + column` holds `cellSegments[cellStarts[cell]..<cellStarts[cell + 1]]`,
    /// ascending.
    private let cellStarts: [Int32]
    private let cellSegments: [Int32]

    /// The grid of an index as a prepared file stores it (``SegmentIndex/grid``), so that reading the
    /// file does not place every segment in its cells again.
    struct Grid: Sendable, Equatable {
        var south: Double, west: Double, cellLatitude: Double, cellLongitude: Double
        var rows: Int, columns: Int
        var cellStarts: [Int32]
        var cellSegments: [Int32]

        /// Whether this is a grid of `segmentCount` segments that ``SegmentIndex/nearest(to:within:surfaceOnly:)``
        /// can walk: positive finite cell sizes, one start per cell and one more, ascending from 0 to
        /// the end of `cellSegments`, and only indexes of segments.
        func isConsistent(segmentCount: Int) -> Bool {
            guard rows > 0, columns > 0, rows <= SegmentIndex.maximumCellCount, columns <= SegmentIndex.maximumCellCount,
                  rows * columns <= SegmentIndex.maximumCellCount, south.isFinite, west.isFinite,
                  cellLatitude.isFinite, cellLatitude > 0, cellLongitude.isFinite, cellLongitude > 0,
                  cellStarts.count == rows * columns + 1, cellStarts.first == 0, cellStarts.last.map(Int.init) == cellSegments.count else { return false }
            return zip(cellStarts, cellStarts.dropFirst()).allSatisfy { $0 <= $1 } && cellSegments.allSatisfy { $0 >= 0 && Int($0) < segmentCount }
        }
    }

    /// The grid, for a prepared file.
    var grid: Grid {
        Grid(south: south, west: west, cellLatitude: cellLatitude, cellLongitude: cellLongitude, rows: rows, columns: columns,
             cellStarts: cellStarts, cellSegments: cellSegments)
    }

    /// An index of `segments` with the grid built before (a prepared file; checked with
    /// ``Grid/isConsistent(segmentCount:)`` by the reader).
    init(coordinates: [GeoCoordinate], segments: [Segment], grid: Grid) {
        self.coordinates = coordinates
        self.segments = segments
        (south, west, cellLatitude, cellLongitude, rows, columns) = (grid.south, grid.west, grid.cellLatitude, grid.cellLongitude, grid.rows, grid.columns)
        cellStarts = grid.cellStarts
        cellSegments = grid.cellSegments
    }

    /// Indexes `segments` between `coordinates`.
    init(coordinates: [GeoCoordinate], segments: [Segment]) {
        self.coordinates = coordinates
        self.segments = segments
        var south = 90.0, north = -90.0, west = 180.0, east = -180.0
        for segment in segments {
            for node in [segment.a, segment.b] {
                let c = coordinates[Int(node)]
                south = min(south, c.latitude); north = max(north, c.latitude)
                west = min(west, c.longitude); east = max(east, c.longitude)
            }
        }
        if segments.isEmpty { (south, north, west, east) = (0, 0, 0, 0) }
        let middle = (south + north) / 2
        let widen = 1 / max(cos(middle * .pi / 180), 0.05)
        var height = Self.minimumCellDegrees
        while ((north - south) / height + 1) * ((east - west) / (height * widen) + 1) > Double(Self.maximumCellCount) { height *= 2 }
        let width = height * widen
        let rows = Int(((north - south) / height).rounded(.down)) + 1, columns = Int(((east - west) / width).rounded(.down)) + 1
        (self.south, self.west, cellLatitude, cellLongitude, self.rows, self.columns) = (south, west, height, width, rows, columns)
        func row(_ latitude: Double) -> Int { min(max(Int(((latitude - south) / height).rounded(.down)), 0), rows - 1) }
        func column(_ longitude: Double) -> Int { min(max(Int(((longitude - west) / width).rounded(.down)), 0), columns - 1) }
        // Each segment goes in every cell of its bounding box (one cell or a few on streets).
        var counts = [Int32](repeating: 0, count: rows * columns + 1)
        func cells(of segment: Segment, _ body: (Int) -> Void) {
            let p = coordinates[Int(segment.a)], q = coordinates[Int(segment.b)]
            for r in row(min(p.latitude, q.latitude))...row(max(p.latitude, q.latitude)) {
                for c in column(min(p.longitude, q.longitude))...column(max(p.longitude, q.longitude)) { body(r * columns + c) }
            }
        }
        for segment in segments { cells(of: segment) { counts[$0 + 1] += 1 } }
        for cell in 0..<rows * columns { counts[cell + 1] += counts[cell] }
        var fill = counts, entries = [Int32](repeating: 0, count: Int(counts[rows * columns]))
        for (index, segment) in segments.enumerated() {
            cells(of: segment) { cell in
                entries[Int(fill[cell])] = Int32(index)
                fill[cell] += 1
            }
        }
        cellStarts = counts
        cellSegments = entries
    }

    /// The nearest point of any segment to `position` (of a segment on the surface only, when
    /// `surfaceOnly`), if one is within `limit` metres (ties: the segment indexed first).
    func nearest(to position: GeoCoordinate, within limit: Double, surfaceOnly: Bool = false) -> Hit? {
        guard !segments.isEmpty, position.latitude.isFinite, position.longitude.isFinite, abs(position.latitude) < 89 else { return nil }
        let metresPerDegree = GeoCoordinate.earthRadius * .pi / 180
        let east = cos(position.latitude * .pi / 180) * metresPerDegree
        let latitudeMargin = limit / metresPerDegree, longitudeMargin = limit / max(east, 1)
        let firstRow = max(Int(((position.latitude - latitudeMargin - south) / cellLatitude).rounded(.down)), 0)
        let lastRow = min(Int(((position.latitude + latitudeMargin - south) / cellLatitude).rounded(.down)), rows - 1)
        let firstColumn = max(Int(((position.longitude - longitudeMargin - west) / cellLongitude).rounded(.down)), 0)
        let lastColumn = min(Int(((position.longitude + longitudeMargin - west) / cellLongitude).rounded(.down)), columns - 1)
        guard firstRow <= lastRow, firstColumn <= lastColumn, (lastRow - firstRow + 1) * (lastColumn - firstColumn + 1) <= 10_000 else { return nil }
        // Candidates are ranked by their distance in the flat local plane around the position, and the
        // great-circle distance (a haversine) is taken only for those that may still win. Over d metres
        // the plane's distance differs from the great circle's by less than a factor 1 ± k·d/R
        // (k = |tan latitude| + 1 covers the east scale changing with latitude and the curvature; taken
        // as 1 / cos latitude + 1, never less, from the cosine already at hand), so a candidate whose
        // plane distance is over `slack` times the best's so far (or over `slack` times the limit) is
        // farther on the great circle too, and the winner is the one the haversine of every candidate
        // would pick, ties included.
        let k = metresPerDegree / east + 1
        let slack = 1 + 4 * k * (limit + 1) / GeoCoordinate.earthRadius + 1e-9
        let limitInPlane = limit * slack
        // A segment's nearest point lies in one of its cells, so a cell whose own nearest point is
        // beyond what can still win holds no winner. The cells are visited ring by ring around the
        // position's own cell (its own, the 8 around it, the 16 around those...), each only if its
        // distance is within reach, and the rings stop at the first whose nearest row or column is
        // beyond reach (2-5 cells visited on Helsinki, of 17 or so within 100 m). Which candidates win
        // does not depend on the order: a candidate is only dropped when it is farther than one seen.
        let rowCount = lastRow - firstRow + 1, columnCount = lastColumn - firstColumn + 1
        let ownRow = min(max(Int(((position.latitude - south) / cellLatitude).rounded(.down)), firstRow), lastRow)
        let ownColumn = min(max(Int(((position.longitude - west) / cellLongitude).rounded(.down)), firstColumn), lastColumn)
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: rowCount + columnCount) { distances in
            // Each row's and each column's distance from the position, metres (0 for its own).
            for row in firstRow...lastRow {
                let low = south + Double(row) * cellLatitude
                distances[row - firstRow] = max(low - position.latitude, position.latitude - (low + cellLatitude), 0) * metresPerDegree
            }
            for column in firstColumn...lastColumn {
                let left = west + Double(column) * cellLongitude
                distances[rowCount + column - firstColumn] = max(left - position.longitude, position.longitude - (left + cellLongitude), 0) * east
            }
            return withUnsafeTemporaryAllocation(of: (inPlane: Double, segment: Int).self, capacity: Walk.slotCount) { waiting in
                segments.withUnsafeBufferPointer { segments in
                    coordinates.withUnsafeBufferPointer { coordinates in
                        cellStarts.withUnsafeBufferPointer { cellStarts in
                            cellSegments.withUnsafeBufferPointer { cellSegments in
                                var walk = Walk(segments: segments, coordinates: coordinates, cellStarts: cellStarts, cellSegments: cellSegments,
                                                waiting: waiting, position: position, east: east, north: metresPerDegree, limit: limit,
                                                limitInPlane: limitInPlane, slack: slack, surfaceOnly: surfaceOnly)
                                let rowDistances = UnsafeBufferPointer(rebasing: distances[..<rowCount])
                                let columnDistances = UnsafeBufferPointer(rebasing: distances[rowCount...])
                                /// Visits the cell at `row`, `column` (of the grid) if it is within reach.
                                func consider(row: Int, column: Int, walk: inout Walk) {
                                    let dy = rowDistances[row - firstRow], dx = columnDistances[column - firstColumn]
                                    guard walk.isWithinReach(squaredDistance: dx * dx + dy * dy) else { return }
                                    walk.visit(cell: row * columns + column)
                                }
                                let ringCount = max(ownRow - firstRow, lastRow - ownRow, ownColumn - firstColumn, lastColumn - ownColumn)
                                for ring in 0...ringCount {
                                    let top = ownRow - ring, bottom = ownRow + ring, leftmost = ownColumn - ring, rightmost = ownColumn + ring
                                    // The ring's nearest cell is no nearer than its nearest row or column.
                                    var nearest = Double.infinity
                                    if top >= firstRow { nearest = min(nearest, rowDistances[top - firstRow]) }
                                    if bottom <= lastRow { nearest = min(nearest, rowDistances[bottom - firstRow]) }
                                    if leftmost >= firstColumn { nearest = min(nearest, columnDistances[leftmost - firstColumn]) }
                                    if rightmost <= lastColumn { nearest = min(nearest, columnDistances[rightmost - firstColumn]) }
                                    guard walk.isWithinReach(squaredDistance: nearest * nearest) else { break }
                                    let columnRange = max(leftmost, firstColumn)...min(rightmost, lastColumn)
                                    if top >= firstRow { for column in columnRange { consider(row: top, column: column, walk: &walk) } }
                                    if ring > 0, bottom <= lastRow { for column in columnRange { consider(row: bottom, column: column, walk: &walk) } }
                                    if ring > 0, top + 1 <= bottom - 1 {
                                        let rowRange = max(top + 1, firstRow)...min(bottom - 1, lastRow)
                                        if leftmost >= firstColumn { for row in rowRange { consider(row: row, column: leftmost, walk: &walk) } }
                                        if rightmost <= lastColumn { for row in rowRange { consider(row: row, column: rightmost, walk: &walk) } }
                                    }
                                }
                                walk.settle()
                                return walk.best
                            }
                        }
                    }
                }
            }
        }
    }

    /// The walk of ``nearest(to:within:surfaceOnly:)`` over the cells it visits. Candidates are
    /// ranked in the plane; those that may still win wait in a few slots on the stack, and the
    /// great-circle distance is taken at the end for the ones still within `slack` of the best in the
    /// plane (one haversine for the winner, more only for near ties at different points). A candidate
    /// whose great-circle distance is over `limit` may lower the best in the plane: it only drops
    /// candidates farther still, which are over `limit` too.
    private struct Walk {
        /// Room for this many waiting candidates.
        static var slotCount: Int { 16 }
        let segments: UnsafeBufferPointer<Segment>, coordinates: UnsafeBufferPointer<GeoCoordinate>
        let cellStarts: UnsafeBufferPointer<Int32>, cellSegments: UnsafeBufferPointer<Int32>
        let waiting: UnsafeMutableBufferPointer<(inPlane: Double, segment: Int)>
        let position: GeoCoordinate, east: Double, north: Double
        let limit: Double, limitInPlane: Double, slack: Double, surfaceOnly: Bool
        var waitingCount = 0
        /// The least plane distance of any candidate so far.
        var bestInPlane = Double.infinity
        /// What follows from the best so far, taken again only when it is lowered: `slack` times
        /// it, the squared bound of the box test, and the squared reach of a cell.
        var bestWithSlack = Double.infinity, boxBoundSquared = Double.infinity, cellReachSquared = Double.infinity
        var best: Hit?
        /// The last point whose great-circle distance was taken, and that distance: candidates that
        /// share their nearest point (the segments meeting at a node) take the same haversine once.
        var lastPoint: (latitude: UInt64, longitude: UInt64) = (.max, .max)
        var lastDistance = Double.nan

        init(segments: UnsafeBufferPointer<Segment>, coordinates: UnsafeBufferPointer<GeoCoordinate>, cellStarts: UnsafeBufferPointer<Int32>,
             cellSegments: UnsafeBufferPointer<Int32>, waiting: UnsafeMutableBufferPointer<(inPlane: Double, segment: Int)>, position: GeoCoordinate,
             east: Double, north: Double, limit: Double, limitInPlane: Double, slack: Double, surfaceOnly: Bool) {
            (self.segments, self.coordinates, self.cellStarts, self.cellSegments, self.waiting) = (segments, coordinates, cellStarts, cellSegments, waiting)
            (self.position, self.east, self.north) = (position, east, north)
            (self.limit, self.limitInPlane, self.slack, self.surfaceOnly) = (limit, limitInPlane, slack, surfaceOnly)
            lower(bestInPlane: .infinity)
        }

        /// Sets the best plane distance so far to `best` (no more than it was) and what follows from it.
        @inline(__always)
        mutating func lower(bestInPlane best: Double) {
            bestInPlane = best
            bestWithSlack = best * slack
            let bound = min(limitInPlane, bestWithSlack) * (1 + 1e-9) + 1e-6
            boxBoundSquared = bound * bound
            let reach = min(limitInPlane * (1 + 1e-6), bestWithSlack * (1 + 1e-8))
            cellReachSquared = reach * reach
        }

        /// Whether a cell this far from the position (squared, in the plane) may hold the winner:
        /// within the limit and within `slack` of the best so far (widened well past rounding: a cell
        /// is only ever visited in vain, never left out).
        @inline(__always)
        func isWithinReach(squaredDistance: Double) -> Bool {
            squaredDistance <= cellReachSquared
        }

        /// Ranks the candidates of `cell` in the plane.
        @inline(__always)
        mutating func visit(cell: Int) {
            for entry in Int(cellStarts[cell])..<Int(cellStarts[cell + 1]) {
                let index = Int(cellSegments[entry])
                let segment = segments[index]
                if surfaceOnly, segment.isOffTheSurface { continue }
                let p = coordinates[Int(segment.a)], q = coordinates[Int(segment.b)]
                let px = (p.longitude - position.longitude) * east, py = (p.latitude - position.latitude) * north
                let qx = (q.longitude - position.longitude) * east, qy = (q.latitude - position.latitude) * north
                // Most candidates are dropped here, by the distance to the segment's box (no division,
                // no square root): never more than the distance to the segment, and the bound is
                // widened well past rounding, so a candidate dropped would fail the test below too.
                let boxX = SegmentIndex.gap(px, qx), boxY = SegmentIndex.gap(py, qy)
                guard boxX * boxX + boxY * boxY <= boxBoundSquared else { continue }
                let inPlane = SegmentIndex.planeDistance(px: px, py: py, qx: qx, qy: qy)
                guard inPlane <= limitInPlane, inPlane <= bestWithSlack else { continue }
                if inPlane < bestInPlane { lower(bestInPlane: inPlane) }
                if waitingCount == Self.slotCount {
                    // Make room: drop those the best has left behind, else settle them all.
                    var kept = 0
                    for slot in 0..<waitingCount where waiting[slot].inPlane <= bestWithSlack {
                        waiting[kept] = waiting[slot]
                        kept += 1
                    }
                    waitingCount = kept
                    if waitingCount == Self.slotCount { settle() }
                }
                waiting[waitingCount] = (inPlane, index)
                waitingCount += 1
            }
        }

        /// Takes the great-circle distance of the waiting candidates still within `slack` of the best
        /// in the plane, keeps the nearest within `limit` (ties: the lower index), and empties the slots.
        mutating func settle() {
            for slot in 0..<waitingCount where waiting[slot].inPlane <= bestWithSlack {
                let index = waiting[slot].segment
                let segment = segments[index]
                let (fraction, point) = SegmentIndex.pointNearest(from: coordinates[Int(segment.a)], to: coordinates[Int(segment.b)],
                                                                  to: position, east: east, north: north)
                let bits = (point.latitude.bitPattern, point.longitude.bitPattern)
                if bits != lastPoint {
                    lastPoint = bits
                    lastDistance = position.distance(to: point)
                }
                let distance = lastDistance
                guard distance <= limit else { continue }
                if let best, !(distance < best.distance || (distance == best.distance && index < best.segment)) { continue }
                best = Hit(segment: index, fraction: fraction, point: point, distance: distance)
            }
            waitingCount = 0
        }
    }

    /// How far 0 is from the interval between `a` and `b` (either may be the larger): what
    /// `max(min(a, b), -max(a, b), 0)` gives, in compares the compiler keeps branch-free.
    @inline(__always)
    private static func gap(_ a: Double, _ b: Double) -> Double {
        let low = a < b ? a : b, high = a < b ? b : a
        return low > 0 ? low : high < 0 ? -high : 0
    }

    /// The distance in the local plane around a position from the position to the nearest point of
    /// the segment from `(px, py)` to `(qx, qy)` (metres east and north of the position).
    @inline(__always)
    private static func planeDistance(px: Double, py: Double, qx: Double, qy: Double) -> Double {
        let dx = qx - px, dy = qy - py
        let squared = dx * dx + dy * dy
        let fraction = squared > 0 ? min(max(-(px * dx + py * dy) / squared, 0), 1) : 0
        let x = px + dx * fraction, y = py + dy * fraction
        return (x * x + y * y).squareRoot()
    }

    /// The nearest point of segment `index` to `position`, in the local plane around the position.
    func nearestPoint(of index: Int, to position: GeoCoordinate, east: Double, north: Double) -> Hit {
        let segment = segments[index]
        let (fraction, point) = Self.pointNearest(from: coordinates[Int(segment.a)], to: coordinates[Int(segment.b)], to: position, east: east, north: north)
        return Hit(segment: index, fraction: fraction, point: point, distance: position.distance(to: point))
    }

    /// The nearest point to `position` of the segment from `p` to `q`, in the local plane around the
    /// position (`east` and `north` metres a degree): where along it (0 at `p`, 1 at `q`) and the point.
    @inline(__always)
    private static func pointNearest(from p: GeoCoordinate, to q: GeoCoordinate, to position: GeoCoordinate, east: Double, north: Double) -> (fraction: Double, point: GeoCoordinate) {
        let px = (p.longitude - position.longitude) * east, py = (p.latitude - position.latitude) * north
        let qx = (q.longitude - position.longitude) * east, qy = (q.latitude - position.latitude) * north
        let dx = qx - px, dy = qy - py
        let squared = dx * dx + dy * dy
        let fraction = squared > 0 ? min(max(-(px * dx + py * dy) / squared, 0), 1) : 0
        let point: GeoCoordinate
        if fraction == 0 { point = p } else if fraction == 1 { point = q } else {
            point = GeoCoordinate(latitude: p.latitude + (q.latitude - p.latitude) * fraction, longitude: p.longitude + (q.longitude - p.longitude) * fraction)
        }
        return (fraction, point)
    }
}
