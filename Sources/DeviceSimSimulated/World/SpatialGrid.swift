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

    /// Adds `element` at `position`.
    public mutating func insert(_ element: Element, at position: GeoCoordinate) {
        cells[cell(position), default: []].append((element, position))
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
        for y in (middle.y &- reach)...(middle.y &+ reach) {
            for x in (middle.x &- reach)...(middle.x &+ reach) {
                guard let entries = cells[Cell(x: x, y: y)] else { continue }
                for entry in entries { body(entry.element, entry.position) }
            }
        }
    }
}
