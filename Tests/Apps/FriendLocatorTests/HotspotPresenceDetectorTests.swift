import DeviceSimFriendLocator
import DeviceSimHAL
import DeviceSimTime
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

    /// Random scans and fixes over overlapping hotspots (some with areas, one access point shared):
    /// the detector, which looks only at the hotspots a scan can change, decides as the rules of its
    /// summary applied to every hotspot at every scan do.
    @Test(arguments: 1...20) func looksAtEveryHotspotThatAScanCanChange(seed: UInt64) {
        var random = SeededRandomGenerator(seed: seed)
        let origin = GeoCoordinate(latitude: 52.51, longitude: 13.33)
        let hotspots = (0..<6).map { number in
            HotspotInfo(
                name: "h\(number)", center: origin.offsetBy(east: Double(number) * 40, north: 0),
                area: number.isMultiple(of: 2) ? .circle(center: origin.offsetBy(east: Double(number) * 40, north: 0), radius: 50) : nil,
                accessPoints: ["02:00:00:00:00:0\(number)", number < 2 ? "02:00:00:00:00:99" : "02:00:00:00:01:0\(number)"])
        }
        let bssids = hotspots.flatMap(\.accessPoints).sorted() + ["aa:bb:cc:dd:ee:ff"]
        let (enterAfter, leaveAfter, minimumRSSI) = (2, 3, -70.0)
        var presence = HotspotPresenceDetector(hotspots: hotspots, enterAfter: enterAfter, leaveAfter: leaveAfter, minimumRSSI: minimumRSSI)
        var streak = Array(repeating: 0, count: hotspots.count), inside = Array(repeating: false, count: hotspots.count)
        for number in 0..<300 {
            let results = bssids.filter { _ in Double.random(in: 0..<1, using: &random) < 0.3 }
                .map { WiFiScanResult(ssid: "eduroam", bssid: $0, rssi: Double.random(in: -90 ... -40, using: &random).rounded()) }
            let fix = Bool.random(using: &random) ? nil : LocationFix(
                receivedAt: VirtualInstant(offset: .seconds(Int64(number))),
                coordinate: origin.offsetBy(east: Double.random(in: -60...260, using: &random), north: Double.random(in: -80...80, using: &random)),
                horizontalAccuracy: Double.random(in: 3...30, using: &random))
            var left: [String] = [], entered: [String] = []
            for (position, hotspot) in hotspots.enumerated() {
                let sighted = results.contains { $0.rssi >= minimumRSSI && hotspot.accessPoints.contains($0.bssid) }
                var observed = sighted
                if let fix, let area = hotspot.area {
                    let outside = area.distance(from: fix.coordinate)
                    observed = outside == 0 || (sighted && outside <= fix.horizontalAccuracy!)
                }
                guard observed != inside[position] else {
                    streak[position] = 0
                    continue
                }
                streak[position] += 1
                if streak[position] >= (observed ? enterAfter : leaveAfter) {
                    inside[position] = observed
                    streak[position] = 0
                    if observed { entered.append(hotspot.name) } else { left.append(hotspot.name) }
                }
            }
            let changes = presence.update(with: results, fix: fix)
            #expect(changes.map(\.hotspot.name) == left + entered, "scan \(number)")
            #expect(changes.map(\.entered) == left.map { _ in false } + entered.map { _ in true }, "scan \(number)")
        }
    }
}
