import DeviceSimFriendLocator
import DeviceSimHAL
import DeviceSimTime
import Testing

/// Issue 11, points 1, 5 and 7: presence per hotspot, from new scans only, fused with the area.
@Suite struct HotspotPresenceFusionTests {
    static let hallWest = GeoCoordinate(latitude: 52.45, longitude: 13.29)
    /// A hall 180 m long (east-west), 20 m wide, its one access point at the west end.
    let hall = HotspotInfo(
        name: "hall", center: hallWest.offsetBy(east: 90, north: 0),
        area: .polygon([
            hallWest.offsetBy(east: 0, north: -10), hallWest.offsetBy(east: 0, north: 10),
            hallWest.offsetBy(east: 180, north: 10), hallWest.offsetBy(east: 180, north: -10),
        ]),
        accessPoints: ["0a:00:00:00:01:01"])
    let quad = HotspotInfo(name: "quad", center: hallWest.offsetBy(east: 0, north: 300), area: .circle(center: hallWest.offsetBy(east: 0, north: 300), radius: 45), accessPoints: ["0a:00:00:00:02:01"])
    let cafe = HotspotInfo(name: "cafe", center: hallWest.offsetBy(east: 60, north: 300), area: .circle(center: hallWest.offsetBy(east: 60, north: 300), radius: 35), accessPoints: ["0a:00:00:00:03:01"])

    func fix(_ coordinate: GeoCoordinate, at seconds: Int64 = 0, accuracy: Double = 5) -> LocationFix {
        LocationFix(receivedAt: VirtualInstant(offset: .seconds(seconds)), coordinate: coordinate, horizontalAccuracy: accuracy, mode: .threeDimensional)
    }

    func seen(_ bssid: String, _ rssi: Double) -> WiFiScanResult { WiFiScanResult(ssid: "eduroam", bssid: bssid, rssi: rssi) }

    @Test func aRepeatedThrottledScanIsNotANewSighting() {
        var presence = HotspotPresenceDetector(hotspots: [quad], enterAfter: 2)
        let fresh = WiFiScan(results: [seen("0a:00:00:00:02:01", -50)], measuredAt: VirtualInstant(offset: .seconds(15)))
        let repeated = WiFiScan(results: fresh.results, measuredAt: fresh.measuredAt, resultsUpdated: false)
        #expect(presence.update(with: fresh).isEmpty)
        #expect(presence.update(with: repeated).isEmpty)
        #expect(presence.update(with: repeated).isEmpty)
        #expect(presence.inside.isEmpty)
        let next = WiFiScan(results: fresh.results, measuredAt: VirtualInstant(offset: .seconds(120)))
        #expect(presence.update(with: next).map(\.hotspot.name) == ["quad"])
    }

    @Test func withAFixInsideTheAreaTheFarEndOfAHallCountsWithoutTheAccessPoint() {
        var presence = HotspotPresenceDetector(hotspots: [hall], enterAfter: 2)
        let farEnd = fix(Self.hallWest.offsetBy(east: 160, north: 0))
        #expect(presence.update(with: [seen("0a:00:00:00:01:01", -88)], fix: farEnd).isEmpty)
        #expect(presence.update(with: [], fix: farEnd).map(\.hotspot.name) == ["hall"])
        // Without a fix the access point alone decides: too weak there, so she leaves after three scans.
        #expect(presence.update(with: []).isEmpty)
        #expect(presence.update(with: []).isEmpty)
        #expect(presence.update(with: []).map(\.entered) == [false])
    }

    @Test func aStrongSightingDoesNotCountWhenTheFixIsClearlyOutsideTheArea() {
        var presence = HotspotPresenceDetector(hotspots: [hall], enterAfter: 1)
        let street = fix(Self.hallWest.offsetBy(east: 20, north: -60))  // 50 m south of the hall, accuracy 5 m
        #expect(presence.update(with: [seen("0a:00:00:00:01:01", -60)], fix: street).isEmpty)
        let edge = fix(Self.hallWest.offsetBy(east: 20, north: -13))  // 3 m outside, within the fix's accuracy
        #expect(presence.update(with: [seen("0a:00:00:00:01:01", -60)], fix: edge).map(\.hotspot.name) == ["hall"])
    }

    @Test func anOldOrCoarseFixIsIgnored() {
        var presence = HotspotPresenceDetector(hotspots: [hall], enterAfter: 1)
        let stale = fix(Self.hallWest.offsetBy(east: 160, north: 0), at: 0)
        let scan = WiFiScan(results: [], measuredAt: VirtualInstant(offset: .seconds(120)))
        #expect(presence.update(with: scan, fix: stale).isEmpty)
        let coarse = fix(Self.hallWest.offsetBy(east: 160, north: 0), at: 120, accuracy: 500)
        #expect(presence.update(with: scan, fix: coarse).isEmpty)
        let good = fix(Self.hallWest.offsetBy(east: 160, north: 0), at: 119)
        #expect(presence.update(with: scan, fix: good).map(\.hotspot.name) == ["hall"])
    }

    @Test func overlappingHotspotsAreEnteredAndLeftEachOnItsOwn() {
        var presence = HotspotPresenceDetector(hotspots: [quad, cafe], enterAfter: 1, leaveAfter: 1)
        let overlap = fix(quad.center.offsetBy(east: 35, north: 0))
        #expect(presence.update(with: [], fix: overlap).map(\.hotspot.name) == ["quad", "cafe"])
        let cafeEast = fix(cafe.center.offsetBy(east: 30, north: 0))
        let changes = presence.update(with: [seen("0a:00:00:00:03:01", -60)], fix: cafeEast)
        #expect(changes.map(\.hotspot.name) == ["quad"])
        #expect(changes.map(\.entered) == [false])
        #expect(presence.inside.map(\.name) == ["cafe"])
    }

    @Test func areaDistanceIsZeroInsideAndMetresToTheEdgeOutside() {
        guard case .polygon = hall.area else { Issue.record("not a polygon"); return }
        let area = hall.area!
        #expect(area.distance(from: Self.hallWest.offsetBy(east: 90, north: 0)) == 0)
        #expect(abs(area.distance(from: Self.hallWest.offsetBy(east: 90, north: -40)) - 30) < 0.5)
        #expect(abs(area.distance(from: Self.hallWest.offsetBy(east: 200, north: 0)) - 20) < 0.5)
        #expect(abs(quad.area!.distance(from: quad.center.offsetBy(east: 0, north: 100)) - 55) < 0.5)
    }
}
