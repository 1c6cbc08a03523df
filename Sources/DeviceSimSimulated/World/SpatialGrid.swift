import DeviceSimHAL
import Foundation

/// A uniform grid over the ground, so that "what is within r metres of here" looks only at the cells
/// around here: a world of 10,000 emitters costs a query about what a world of ten does, when the
/// emitters near the device are the same.
///
/// Coordinates are projected onto a local plane (equirectangular around the grid's origin), exact
/// enough for cells of hundreds of metres in worlds of tens of kilometres; distances are then checked
/// on the sphere.
///
/// ```swift
/// var grid = SpatialGrid<Int>(origin: centre, cellSize: 500)
/// grid.insert(7, at: beacon)
/// grid.forEach(within: 120, of: here) { index, distance in ... }
/// ```
public struct SpatialGrid<Element: Sendable>: Sendable {
    /// A cell of the grid.
    public struct Cell: Hashable, Sendable {
        var x: Int32
        var y: Int32
    }

    /// The projection's origin.
    public let origin: GeoCoordinate
    /// Cell edge, metres.
    public let cellSize: Double
    private let metresPerDegreeLongitude: Double
    private static var metresPerDegreeLatitude: Double { 111_195 }
    private var cells: [Cell: [(element: Element, position: GeoCoordinate)]] = [:]
    /// The cells laid out in one array once ``pack()`` was called (nil before, after an insert, and
    /// for a grid whose occupied cells span too many cells to lay out).
    private var packed: PackedCells?

    /// The cells of the rectangle around the occupied ones, row by row: every entry in one array,
    /// ordered by cell (row, then column) and within a cell by insertion, and where each cell's
    /// entries start. A query reads a row of cells as one run of entries, with no hashing.
    private struct PackedCells: Sendable {
        let minimumX: Int
        let minimumY: Int
        let width: Int
        let height: Int
        /// Where the entries of cell (x, y) start in `entries`: at `starts[(y - minimumY) * width + (x - minimumX)]`;
        /// the last element is `entries.count`.
        let starts: [Int32]
        let entries: [(element: Element, position: GeoCoordinate)]
    }

    /// The most cells a packed grid lays out (a world of scattered emitters keeps its table of cells).
    private static var maximumPackedCells: Int { 1 << 20 }

    /// Creates an empty grid.
    public init(origin: GeoCoordinate, cellSize: Double) {
        precondition(cellSize > 0, "a grid needs a positive cell size")
        self.origin = origin
        self.cellSize = cellSize
        self.metresPerDegreeLongitude = Self.metresPerDegreeLatitude * max(cos(origin.latitude * .pi / 180), 0.01)
    }

    /// The cell `coordinate` lies in.
    public func cell(_ coordinate: GeoCoordinate) -> Cell {
        let east = (coordinate.longitude - origin.longitude) * metresPerDegreeLongitude
        let north = (coordinate.latitude - origin.latitude) * Self.metresPerDegreeLatitude
        return Cell(x: Int32(clamping: Int((east / cellSize).rounded(.down))), y: Int32(clamping: Int((north / cellSize).rounded(.down))))
    }

    /// The coordinates that certainly lie in `cell`: its box in degrees, shrunk by a millionth of
    /// a cell on each side, far beyond what rounding in ``cell(_:)`` can move a coordinate across.
    /// Nil for a cell more than a million cells from the origin (there the margin would not be
    /// beyond rounding, and the outermost cells hold every coordinate beyond them).
    func interior(of cell: Cell) -> CellInterior? {
        let limit: Int32 = 1 << 20
        guard cell.x > -limit, cell.x < limit, cell.y > -limit, cell.y < limit else { return nil }
        let margin = 1e-6
        let degreesLongitude = cellSize / metresPerDegreeLongitude, degreesLatitude = cellSize / Self.metresPerDegreeLatitude
        return CellInterior(
            minimumLatitude: origin.latitude + (Double(cell.y) + margin) * degreesLatitude,
            maximumLatitude: origin.latitude + (Double(cell.y) + 1 - margin) * degreesLatitude,
            minimumLongitude: origin.longitude + (Double(cell.x) + margin) * degreesLongitude,
            maximumLongitude: origin.longitude + (Double(cell.x) + 1 - margin) * degreesLongitude)
    }

    /// Adds `element` at `position`.
    public mutating func insert(_ element: Element, at position: GeoCoordinate) {
        cells[cell(position), default: []].append((element, position))
        packed = nil
    }

    /// Lays the cells out in one array for queries (see ``PackedCells``), once every element is in:
    /// queries then find the same elements in the same order without hashing a cell each. A grid
    /// whose occupied cells span more than a million cells stays as it is.
    ///
    /// ```swift
    /// for (index, beacon) in beacons.enumerated() { grid.insert(index, at: beacon.position) }
    /// grid.pack()
    /// ```
    public mutating func pack() {
        packed = nil
        guard let first = cells.keys.first else { return }
        var (minimumX, maximumX, minimumY, maximumY) = (Int(first.x), Int(first.x), Int(first.y), Int(first.y))
        for cell in cells.keys {
            minimumX = min(minimumX, Int(cell.x))
            maximumX = max(maximumX, Int(cell.x))
            minimumY = min(minimumY, Int(cell.y))
            maximumY = max(maximumY, Int(cell.y))
        }
        let width = maximumX - minimumX + 1
        let height = maximumY - minimumY + 1
        let count = cells.values.reduce(0) { $0 + $1.count }
        guard width <= Self.maximumPackedCells / height, count < Int(Int32.max) else { return }
        var starts: [Int32] = []
        starts.reserveCapacity(width * height + 1)
        var entries: [(element: Element, position: GeoCoordinate)] = []
        entries.reserveCapacity(count)
        for y in minimumY...maximumY {
            for x in minimumX...maximumX {
                starts.append(Int32(entries.count))
                if let cellEntries = cells[Cell(x: Int32(x), y: Int32(y))] { entries.append(contentsOf: cellEntries) }
            }
        }
        starts.append(Int32(entries.count))
        packed = PackedCells(minimumX: minimumX, minimumY: minimumY, width: width, height: height, starts: starts, entries: entries)
    }

    /// Calls `body` with every element within `radius` metres of `center` and its distance, in a fixed
    /// order (by cell, then insertion), whatever was inserted elsewhere.
    public func forEach(within radius: Double, of center: GeoCoordinate, _ body: (Element, Double) -> Void) {
        forEachCandidate(within: radius, ofCell: cell(center)) { element, position in
            let distance = center.distance(to: position)
            if distance <= radius { body(element, distance) }
        }
    }

    /// Calls `body` with every element that may lie within `radius` metres of a point of `middle`,
    /// and its position, in the order of ``forEach(within:of:_:)``. A caller that queries often from
    /// the same cell can keep these candidates and check only their distances.
    public func forEachCandidate(within radius: Double, ofCell middle: Cell, _ body: (Element, GeoCoordinate) -> Void) {
        let reach = Int32(clamping: Int((radius / cellSize).rounded(.up)))
        if let packed {
            // The columns of the query's rows that lie in the packed rectangle: each row's cells are
            // one run of entries.
            let lowestX = max(Int(middle.x) - Int(reach), packed.minimumX) - packed.minimumX
            let highestX = min(Int(middle.x) + Int(reach), packed.minimumX + packed.width - 1) - packed.minimumX
            let lowestY = max(Int(middle.y) - Int(reach), packed.minimumY) - packed.minimumY
            let highestY = min(Int(middle.y) + Int(reach), packed.minimumY + packed.height - 1) - packed.minimumY
            guard lowestX <= highestX, lowestY <= highestY else { return }
            packed.starts.withUnsafeBufferPointer { starts in
                packed.entries.withUnsafeBufferPointer { entries in
                    for row in lowestY...highestY {
                        let first = row * packed.width
                        for position in Int(starts[first + lowestX])..<Int(starts[first + highestX + 1]) {
                            body(entries[position].element, entries[position].position)
                        }
                    }
                }
            }
            return
        }
        for y in (middle.y &- reach)...(middle.y &+ reach) {
            for x in (middle.x &- reach)...(middle.x &+ reach) {
                guard let entries = cells[Cell(x: x, y: y)] else { continue }
                for entry in entries { body(entry.element, entry.position) }
            }
        }
    }
}

/// The coordinates that certainly lie in one cell of a ``SpatialGrid`` (see ``SpatialGrid/interior(of:)``):
/// a caller that asks about the same cell again checks a point against it without projecting it.
struct CellInterior: Sendable {
    let minimumLatitude: Double
    let maximumLatitude: Double
    let minimumLongitude: Double
    let maximumLongitude: Double

    /// Whether `coordinate` is inside (never for a coordinate that is not a number).
    func contains(_ coordinate: GeoCoordinate) -> Bool {
        coordinate.latitude > minimumLatitude && coordinate.latitude < maximumLatitude
            && coordinate.longitude > minimumLongitude && coordinate.longitude < maximumLongitude
    }
}
