import DeviceSimHAL
@testable import DeviceSimSimulated
import DeviceSimTime
import Foundation
import Testing

@Suite struct CellInteriorTests {
    /// A point inside a cell's interior lies in that cell, even the points of the interior nearest
    /// its edges and corners, and the interior covers nearly all of the cell.
    @Test func aPointInACellsInteriorLiesInThatCell() throws {
        let origin = GeoCoordinate(latitude: 52.5, longitude: 13.4)
        var random = SeededRandomGenerator(seed: 13)
        for cellSize in [10.0, 37, 500] {
            let grid = SpatialGrid<Int>(origin: origin, cellSize: cellSize)
            var inside = 0
            for _ in 0..<5_000 {
                let point = origin.offsetBy(east: random.nextUnit() * 200 * cellSize - 100 * cellSize, north: random.nextUnit() * 200 * cellSize - 100 * cellSize)
                let cell = grid.cell(point)
                let interior = try #require(grid.interior(of: cell))
                if interior.contains(point) { inside += 1 }
                // The interior's own corners, moved in by the least step a Double allows.
                let latitudes = [interior.minimumLatitude.nextUp, interior.maximumLatitude.nextDown]
                let longitudes = [interior.minimumLongitude.nextUp, interior.maximumLongitude.nextDown]
                for latitude in latitudes {
                    for longitude in longitudes {
                        let corner = GeoCoordinate(latitude: latitude, longitude: longitude)
                        #expect(interior.contains(corner))
                        #expect(grid.cell(corner) == cell, "\(corner) at \(cellSize) m")
                    }
                }
                #expect(!interior.contains(GeoCoordinate(latitude: interior.minimumLatitude, longitude: point.longitude)))
            }
            #expect(inside > 4_990)
        }
        // More than a million cells from the origin (11,000 km east of it): none.
        let grid = SpatialGrid<Int>(origin: origin, cellSize: 10)
        #expect(grid.interior(of: grid.cell(GeoCoordinate(latitude: 52.5, longitude: 179.9))) == nil)
    }
}
