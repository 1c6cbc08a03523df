import DeviceSimFriendLocator
import DeviceSimHAL
import Testing

@Suite struct HotspotPresenceDetectorTests {
    let library = HotspotInfo(name: "library", center: GeoCoordinate(latitude: 52.51, longitude: 13.33), accessPoints: ["02:00:00:00:01:01", "02:00:00:00:01:02"])
    let mensa = HotspotInfo(name: "mensa", center: GeoCoordinate(latitude: 52.513, longitude: 13.326), accessPoints: ["02:00:00:00:02:01"])

    func scan(_ readings: (String, Double)...) -> [WiFiScanResult] {
        readings.map { WiFiScanResult(ssid: "eduroam", bssid: $0.0, rssi: $0.1) }
    }

    @Test func entersAfterConsecutiveSightingsAndLeavesAfterConsecutiveMisses() {
        var presence = HotspotPresenceDetector(hotspots: [library, mensa], enterAfter: 2, leaveAfter: 3, minimumRSSI: -70)
        #expect(presence.update(with: scan(("02:00:00:00:01:01", -60))).isEmpty)
        #expect(presence.update(with: scan(("02:00:00:00:01:01", -80))).isEmpty)  // too weak: the streak restarts
        #expect(presence.update(with: scan(("02:00:00:00:01:02", -65))).isEmpty)
        #expect(presence.update(with: scan(("02:00:00:00:01:01", -62))).map(\.hotspot.name) == ["library"])
        #expect(presence.inside.map(\.name) == ["library"])
        #expect(presence.update(with: []).isEmpty)
        #expect(presence.update(with: []).isEmpty)
        #expect(presence.update(with: scan(("02:00:00:00:01:01", -62))).isEmpty)  // one sighting resets the misses
        #expect(presence.update(with: []).isEmpty)
        #expect(presence.update(with: scan(("02:00:00:00:02:01", -50))).isEmpty)
        let changes = presence.update(with: scan(("02:00:00:00:02:01", -50)))
        #expect(changes.map(\.hotspot.name) == ["library", "mensa"])
        #expect(changes.map(\.entered) == [false, true])
    }

    @Test func unknownAccessPointsAreIgnoredAndBSSIDsMatchWhateverTheirCase() {
        var presence = HotspotPresenceDetector(hotspots: [library], enterAfter: 1)
        #expect(presence.update(with: scan(("aa:bb:cc:dd:ee:ff", -40))).isEmpty)
        #expect(presence.update(with: scan(("02:00:00:00:01:0F", -40))).isEmpty)
        let upper = HotspotInfo(name: "upper", center: library.center, accessPoints: ["0A:00:00:00:00:01"])
        var other = HotspotPresenceDetector(hotspots: [upper], enterAfter: 1)
        #expect(other.update(with: scan(("0a:00:00:00:00:01", -40))).map(\.entered) == [true])
    }
}
