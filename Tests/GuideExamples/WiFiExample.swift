import DeviceSim
import DeviceSimTesting
import Testing

// MARK: App code

/// Knows whether the user is at the office from Wi-Fi scans: an actor fed by an async sequence of
/// scans (`AsyncStream` is `Sendable`, so it crosses into the actor where the radio itself would not).
actor OfficePresence {
    private(set) var atOffice = false
    private(set) var changes: [Bool] = []

    func follow(_ scans: AsyncStream<WiFiScan>) async {
        for await scan in scans where scan.resultsUpdated {
            let seen = scan.results.contains { $0.ssid == "office-net" && $0.signalLevel >= 2 }
            if seen != atOffice {
                atOffice = seen
                changes.append(seen)
            }
        }
    }
}

// MARK: Tests

/// An office with one access point, 500 m north of the station.
enum Office {
    static let station = GeoCoordinate(latitude: 52.5200, longitude: 13.4050)
    static let position = station.destination(distance: 500, bearing: 0)
    static let world = World(hotspots: [Hotspot(
        name: "office",
        area: .circle(center: position, radius: 30),
        accessPoints: [AccessPoint(ssid: "office-net", bssid: "aa:bb:cc:00:00:01", position: position)]
    )])
}

@Suite struct WiFiExampleTests {
    @Test(.simulation(world: Office.world)) func theOfficeIsSeenOnArrival() async throws {
        let simulation = try TestSimulation.current
        let phone = simulation.addDevice("phone", at: Office.station)
        let presence = OfficePresence()
        let scans = phone.wifi!.scans()
        let following = simulation.spawn { await presence.follow(scans) }
        phone.walk(to: [Office.position])                        // 500 m at 1.4 m/s: about 6 minutes
        try await simulation.advance(by: .seconds(120))
        #expect(await presence.atOffice == false)
        try await simulation.advance(by: .seconds(300))
        #expect(await presence.atOffice)
        phone.setWiFi(on: false)                                     // the stream goes on; no new scans
        try await simulation.advance(by: .seconds(60))
        #expect(await presence.changes == [true])
        following.cancel()
    }
}
