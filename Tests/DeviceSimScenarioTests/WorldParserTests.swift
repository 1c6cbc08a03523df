import DeviceSim
import DeviceSimHAL
import DeviceSimScenario
import DeviceSimSimulated
import Testing

@Suite struct WorldParserTests {
    init() throws { try ScenarioAppRegistry.register(BundledApps.all) }

    static let valid = """
        name: tiny
        radio: { wifi-exponent: 2.0, shadowing: 3 }
        places:
          library: [52.5108, 13.3305]
        hotspots:
          - name: library
            area: { center: library, radius: 40 }
            fence: lib
            access-points:
              - { ssid: eduroam, bssid: "02:00:00:00:01:01", power: 18, channel: 11 }
          - name: square
            area: { polygon: [[52.0, 13.0], [52.0, 13.001], [52.001, 13.001], [52.001, 13.0]] }
            access-points:
              - { ssid: cafe, bssid: "02:00:00:00:02:01", at: [52.0005, 13.0005] }
        beacons:
          - { ibeacon: { uuid: f7826da6-4fa2-4e98-8024-bc5b71e0893e, major: 1, minor: 7 }, at: library, fence: lib }
          - { eddystone: { namespace: edd1ebeac04e5defa017, instance: 0000000000a1 }, at: [52.0005, 13.0005], measured-power: -65 }
        """

    @Test func aWorldFileGivesPlacesHotspotsBeaconsAndRadioSettings() throws {
        let world = try WorldParser.parse(Self.valid, file: "tiny.yaml")
        #expect(world.name == "tiny")
        #expect(world.radio.wifiExponent == 2.0 && world.radio.shadowing == 3 && world.radio.beaconExponent == 3.0)
        #expect(world.hotspots.map(\.name) == ["library", "square"])
        #expect(world.hotspots[0].accessPoints[0].position == world.places["library"])
        #expect(world.hotspots[0].accessPoints[0].transmitPower == 18)
        #expect(world.hotspots[1].area.contains(GeoCoordinate(latitude: 52.0005, longitude: 13.0005)))
        #expect(!world.hotspots[1].area.contains(GeoCoordinate(latitude: 52.002, longitude: 13.0005)))
        #expect(world.beacons[0].id == .iBeacon(uuid: "F7826DA6-4FA2-4E98-8024-BC5B71E0893E", major: 1, minor: 7))
        #expect(world.beacons[1].measuredPower == -65)
        let info = world.hotspotInfos[0]
        #expect(info.accessPoints == ["02:00:00:00:01:01"] && info.fence == "lib" && info.beacons.count == 1)
    }

    @Test(arguments: [
        ("hotspots:\n  - { name: a, area: { center: [52, 13], radius: 10 }, acces-points: [] }", "2:56", "unknown key 'acces-points' in hotspot; did you mean 'access-points'?"),
        ("hotspots:\n  - name: a\n    area: { center: [52, 13], radius: 10 }\n    access-points:\n      - { ssid: x, bssid: nope }", "5:27", "expected a BSSID such as 02:00:00:00:01:01, found 'nope'"),
        ("hotspots:\n  - name: a\n    area: { center: nowhere, radius: 10 }\n    access-points: [{ ssid: x, bssid: '02:00:00:00:00:01' }]", "3:21", "unknown place 'nowhere'"),
        ("hotspots:\n  - name: a\n    fence: f\n    area: { center: [52, 13], radius: 10 }\n    access-points: [{ ssid: x, bssid: '02:00:00:00:00:01' }]", "2:5", "names the fence 'f', but no beacon belongs to it"),
        ("beacons:\n  - { at: [52, 13] }", "2:5", "a beacon needs an identity"),
        ("beacons:\n  - { ibeacon: { uuid: x, major: 1, minor: 2 }, at: [52, 13] }", "2:24", "expected a UUID"),
        ("beacons:\n  - { ibeacon: { uuid: F7826DA6-4FA2-4E98-8024-BC5B71E0893E, major: 70000, minor: 2 }, at: [52, 13] }", "2:69", "expected a number from 0 to 65535"),
        ("radio: { wifi-exponent: 9 }", "1:25", "wifi-exponent must be within 1.5...6.0"),
        ("radio: { beacon-fading: 12 }", "1:25", "beacon-fading must be within 0.0...10.0"),
        ("beacons:\n  - { ibeacon: { uuid: F7826DA6-4FA2-4E98-8024-BC5B71E0893E, major: 1, minor: 2 }, eddystone-url: 'https://a.com', at: [52, 13] }", "2:99", "an iBeacon sends no Eddystone-URL frames"),
        ("beacons:\n  - { eddystone: { namespace: edd1ebeac04e5defa017, instance: 0123456789ab }, eddystone-url: 'ftp://a.com', at: [52, 13] }", "2:94", "is not an Eddystone-URL"),
        ("beacons:\n  - { eddystone: { namespace: edd1ebeac04e5defa017, instance: 0123456789ab }, eddystone-url: 'https://a-very-long-name.example', at: [52, 13] }", "2:94", "at most 17 bytes"),
        ("beacons:\n  - { eddystone: { namespace: edd1ebeac04e5defa017, instance: 0123456789ab }, advertising-interval: 5ms, at: [52, 13] }", "2:101", "advertising-interval must be within 20ms...10.24s"),
        ("hotspots:\n  - name: a\n    area: { polygon: [[52, 13], [52, 14]] }\n    access-points: [{ ssid: x, bssid: '02:00:00:00:00:01' }]", "3:22", "a polygon needs at least 3 corners"),
    ])
    func badWorldsGetTheirPositionAndAMessage(text: String, position: String, message: String) {
        do {
            _ = try WorldParser.parse(text, file: "w.yaml")
            Issue.record("parsed: \(text)")
        } catch {
            #expect(error.description.hasPrefix("w.yaml:\(position): "), "\(error.description)")
            #expect(error.description.contains(message), "\(error.description)")
        }
    }

    @Test func anEddystoneBeaconCanSendAURLAtItsOwnInterval() throws {
        let world = try WorldParser.parse("""
            beacons:
              - eddystone: { namespace: edd1ebeac04e5defa017, instance: 0123456789ab }
                eddystone-url: https://example.com/menu
                advertising-interval: 250ms
                at: [52, 13]
              - ibeacon: { uuid: F7826DA6-4FA2-4E98-8024-BC5B71E0893E, major: 1, minor: 2 }
                at: [52, 13.001]
            """, file: "w.yaml")
        #expect(world.beacons[0].url == "https://example.com/menu" && world.beacons[0].advertisingInterval == .milliseconds(250))
        #expect(world.beacons[1].url == nil && world.beacons[1].advertisingInterval == .milliseconds(100))
        #expect(EddystoneURL.decode(EddystoneURL.encode("https://example.com/menu")!) == "https://example.com/menu")
    }

    @Test func aScenarioUsesItsWorldsPlaceNamesAndChecksAccounts() throws {
        let world = repositoryRoot.appendingPathComponent("Simulator/worlds/campus.yaml").path
        let scenario = try ScenarioParser.parse("""
            name: places
            world: \(world)
            devices:
              - { id: alice, at: library, route: { waypoints: [mensa] }, app: { name: friend-locator } }
            expect:
              - { position: alice-at-mensa, at: 5m, near: mensa, radius: 50 }
            """, file: "/tmp/places.yaml")
        #expect(scenario.world?.hotspots.count == 3)
        #expect(scenario.devices[0].start == scenario.world?.places["library"])
        #expect(throws: ScenarioError.self) {
            try ScenarioParser.parse("""
                name: accounts
                world: \(world)
                backend: { accounts: [{ id: bob }] }
                devices: [{ id: alice, at: library }]
                """, file: "/tmp/accounts.yaml")
        }
        do {
            _ = try ScenarioParser.parse("name: x\ndevices: [{ id: a, at: libary }]", file: "/tmp/noworld.yaml")
            Issue.record("a place without a world parsed")
        } catch {
            #expect(error.description.contains("unknown place 'libary'"))
        }
    }
}
