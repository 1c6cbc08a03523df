import DeviceSimHAL
import Foundation

/// Finds the road node nearest a position (snapping a position off the road onto the graph): a
/// uniform grid of about 200 m cells over the nodes, searched in growing rings until no closer node
/// can lie further out.
///
/// ```swift
/// let locator = NodeLocator(graph)
/// let node = locator.nearestNode(to: GeoCoordinate(latitude: 60.1699, longitude: 24.9384))
/// ```
public struct NodeLocator: Sendable {
    /// Cell height in degrees of latitude (about 222 m).
    static let cellDegrees = 0.002
    private let coordinates: [GeoCoordinate]
    private let cellKeys: [Int64]
    private let cellNodes: [Int32]
    private let longitudeCellDegrees: Double
    private let rowRange: ClosedRange<Int64>
    private let columnRange: ClosedRange<Int64>

    /// The grid of a locator as a prepared file stores it (``NodeLocator/grid``), so that reading the
    /// file does not sort the nodes into their cells again.
    struct Grid: Sendable, Equatable {
        var cellKeys: [Int64]
        var cellNodes: [Int32]
        var longitudeCellDegrees: Double
        var rows: ClosedRange<Int64>
        var columns: ClosedRange<Int64>

        /// Whether this is a grid of nodes below `nodeCount` that ``NodeLocator/nearestNode(to:)`` can
        /// search: one node per key, ascending by key and then node, and a positive finite cell width.
        func isConsistent(nodeCount: Int) -> Bool {
            guard cellKeys.count == cellNodes.count, longitudeCellDegrees.isFinite, longitudeCellDegrees > 0,
                  cellNodes.allSatisfy({ $0 >= 0 && Int($0) < nodeCount }) else { return false }
            return cellKeys.indices.dropFirst().allSatisfy { (cellKeys[$0 - 1], cellNodes[$0 - 1]) < (cellKeys[$0], cellNodes[$0]) }
        }
    }

    /// The grid, for a prepared file.
    var grid: Grid { Grid(cellKeys: cellKeys, cellNodes: cellNodes, longitudeCellDegrees: longitudeCellDegrees, rows: rowRange, columns: columnRange) }

    /// A locator over `coordinates` with its grid built before (a prepared file; checked with
    /// ``Grid/isConsistent(nodeCount:)`` by the reader).
    init(coordinates: [GeoCoordinate], grid: Grid) {
        self.coordinates = coordinates
        cellKeys = grid.cellKeys
        cellNodes = grid.cellNodes
        longitudeCellDegrees = grid.longitudeCellDegrees
        rowRange = grid.rows
        columnRange = grid.columns
    }

    /// Indexes the nodes of `graph` in its largest strongly connected component.
    public init(_ graph: RoadGraph) {
        self.init(coordinates: graph.coordinates, nodes: graph.coordinates.indices.filter { graph.isRoutable[$0] }.map(Int32.init))
    }

    /// Indexes `nodes` of `coordinates`.
    public init(coordinates: [GeoCoordinate], nodes: [Int32]) {
        self.coordinates = coordinates
        let meanLatitude = nodes.isEmpty ? 0 : nodes.reduce(0.0) { $0 + coordinates[Int($1)].latitude } / Double(nodes.count)
        longitudeCellDegrees = Self.cellDegrees / max(cos(meanLatitude * .pi / 180), 0.05)
        var rows: ClosedRange<Int64> = 0...0, columns: ClosedRange<Int64> = 0...0
        var pairs: [(Int64, Int32)] = []
        pairs.reserveCapacity(nodes.count)
        for (position, node) in nodes.enumerated() {
            let (row, column) = Self.cell(of: coordinates[Int(node)], longitudeCellDegrees)
            if position == 0 { rows = row...row; columns = column...column }
            rows = min(rows.lowerBound, row)...max(rows.upperBound, row)
            columns = min(columns.lowerBound, column)...max(columns.upperBound, column)
            pairs.append((Self.key(row, column), node))
        }
        pairs.sort { ($0.0, $0.1) < ($1.0, $1.1) }
        cellKeys = pairs.map(\.0)
        cellNodes = pairs.map(\.1)
        rowRange = rows
        columnRange = columns
    }

    private static func cell(of coordinate: GeoCoordinate, _ longitudeCellDegrees: Double) -> (Int64, Int64) {
        (Int64((coordinate.latitude / cellDegrees).rounded(.down)), Int64((coordinate.longitude / longitudeCellDegrees).rounded(.down)))
    }

    private static func key(_ row: Int64, _ column: Int64) -> Int64 { row << 32 | (column & 0xFFFF_FFFF) }

    /// The indexed node nearest `position` with its distance in metres, or nil when nothing is indexed.
    public func nearestNode(to position: GeoCoordinate) -> (node: Int32, distance: Double)? {
        guard !cellKeys.isEmpty else { return nil }
        let (row, column) = Self.cell(of: position, longitudeCellDegrees)
        // The ring to start at: the nearest cell of the indexed area.
        let clampedRow = min(max(row, rowRange.lowerBound), rowRange.upperBound)
        let clampedColumn = min(max(column, columnRange.lowerBound), columnRange.upperBound)
        let first = max(abs(row - clampedRow), abs(column - clampedColumn))
        let last = max(abs(row - rowRange.lowerBound), abs(row - rowRange.upperBound), abs(column - columnRange.lowerBound), abs(column - columnRange.upperBound))
        // The shortest ground distance across one cell (the narrower of its two sides).
        let cellMetres = min(Self.cellDegrees, longitudeCellDegrees * cos(min(abs(position.latitude) + 1, 89) * .pi / 180)) * .pi / 180 * GeoCoordinate.earthRadius
        var best: (node: Int32, distance: Double)?
        var ring = first
        while ring <= last {
            if let best, best.distance <= Double(ring - 1) * cellMetres { break }
            for r in (row - ring)...(row + ring) where rowRange.contains(r) {
                let onEdge = abs(r - row) == ring
                let step = onEdge ? 1 : max(2 * ring, 1)
                for c in stride(from: column - ring, through: column + ring, by: Int64.Stride(step)) where columnRange.contains(c) {
                    scan(Self.key(r, c), position, &best)
                }
            }
            ring += 1
        }
        return best
    }

    private func scan(_ key: Int64, _ position: GeoCoordinate, _ best: inout (node: Int32, distance: Double)?) {
        var low = 0, high = cellKeys.count
        while low < high {
            let mid = (low + high) >> 1
            if cellKeys[mid] < key { low = mid + 1 } else { high = mid }
        }
        while low < cellKeys.count, cellKeys[low] == key {
            let node = cellNodes[low]
            let distance = position.distance(to: coordinates[Int(node)])
            if best == nil || distance < best!.distance || (distance == best!.distance && node < best!.node) { best = (node, distance) }
            low += 1
        }
    }
}
