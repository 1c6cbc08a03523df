import DeviceSimHAL
import DeviceSimReport
import Testing

/// The report's map opens on the devices' tracks and the checked places; the world is a zoom-out away.
@Suite struct MapFocusTests {
    let corner = GeoCoordinate(latitude: 60.17, longitude: 24.93)

    @Test func aWalkInOneCornerOfALargeWorldIsWhatTheMapOpensOn() throws {
        let walk = [corner, corner.offsetBy(east: 400, north: 100)]
        let world = walk + [corner.offsetBy(east: 10_000, north: 8_000)]
        let projection = MapProjection(fitting: world)
        let focus = try #require(projection.focus(on: walk))
        #expect(focus[2] < projection.width / 10, "a 400 m walk in a 10 km world: \(focus) of \(projection.width)")
        for point in walk.map(projection.project) {
            #expect(point.x > focus[0] && point.x < focus[0] + focus[2], "the walk is inside the view: \(point) in \(focus)")
            #expect(point.y > focus[1] && point.y < focus[1] + focus[2] * projection.height / projection.width)
        }
        #expect(abs(focus[2] - projection.length(metres: 400 * 1.15)) < 1, "the walk with a margin across")
    }

    @Test func tracksThatSpanTheWorldNeedNoFocus() {
        let walk = [corner, corner.offsetBy(east: 3_000, north: 2_000)]
        #expect(MapProjection(fitting: walk + [corner.offsetBy(east: 3_100, north: 2_000)]).focus(on: walk) == nil)
    }

    @Test func aStandingDeviceIsShownAtLeastTheMinimumSpanAcross() throws {
        let projection = MapProjection(fitting: [corner, corner.offsetBy(east: 20_000, north: 0)])
        let focus = try #require(projection.focus(on: [corner]))
        #expect(abs(focus[2] - projection.length(metres: MapProjection.minimumSpan)) < 1)
    }
}
