import DeviceSimHAL
import DeviceSimSimulated
import DeviceSimTime
import Foundation
import Testing

/// How far a default beacon and a default access point are heard (docs/radios.md): a phone walks
/// straight at the emitter at 1 m/s from beyond its reach, once per seed, and the distance at which it
/// first hears it (a beacon fence entered; an access point in a scan) is noted. The bounds asserted are
/// the published figures of docs/radios.md; `Benchmarks/radio-reach.sh` prints the table from the
/// same measurement (it sets DEVICESIM_RADIO_TABLE to a file the test writes the table to).
@Suite struct RadioReachTests {
    static let seeds: ClosedRange<UInt64> = 1...100
    static let origin = GeoCoordinate(latitude: 52.5108, longitude: 13.3305)

    /// The two settings of the table: the defaults (indoors), and open space.
    static let settings: [(name: String, environment: RadioEnvironment)] = {
        var outdoors = RadioEnvironment()
        outdoors.beaconExponent = 2.3
        outdoors.wifiExponent = 2.0
        return [("indoors (defaults)", RadioEnvironment()), ("outdoors (beacon-exponent 2.3, wifi-exponent 2.0)", outdoors)]
    }()

    /// The distance at which a phone walking in at 1 m/s first enters the fence of a default beacon.
    static func beaconEntry(seed: UInt64, environment: RadioEnvironment) throws -> Double? {
        let beacon = Beacon(id: .iBeacon(uuid: "F7826DA6-4FA2-4E98-8024-BC5B71E0893E", major: 1, minor: 1), position: origin, fence: "f")
        let world = WorldIndex(World(beacons: [beacon], radio: environment))
        let start = environment.beaconRange(measuredPower: beacon.measuredPower) + 5
        let scheduler = EventScheduler()
        let motion = DeviceMotion(at: origin.offsetBy(east: start, north: 0))
        let ranging = SimulatedBeaconRanging(scheduler: scheduler, motion: motion, world: world, random: SeededRandomGenerator(seed: seed).split("bluetooth"))
        var entered: Double?
        let token = ranging.observeFences { event in
            if event.entered, entered == nil { entered = motion.state(at: scheduler.now).coordinate.distance(to: origin) }
        }
        ranging.isEnabled = true
        var distance = start
        while entered == nil, distance > 0 {
            try scheduler.run(for: .seconds(1))
            distance -= 1
            motion.place(at: origin.offsetBy(east: distance, north: 0))
        }
        _ = token
        return entered
    }

    /// The distance at which a phone walking in at 1 m/s first sees a default access point (20 dBm) in a scan.
    static func wifiFirstSeen(seed: UInt64, environment: RadioEnvironment) throws -> Double? {
        let accessPoint = AccessPoint(ssid: "cafe", bssid: "02:00:00:00:00:01", position: origin)
        let world = WorldIndex(World(hotspots: [Hotspot(name: "cafe", area: .circle(center: origin, radius: 30), accessPoints: [accessPoint])], radio: environment))
        let start = environment.wifiRange(transmitPower: accessPoint.transmitPower) + 5
        let scheduler = EventScheduler()
        let motion = DeviceMotion(at: origin.offsetBy(east: start, north: 0))
        let wifi = SimulatedWiFi(scheduler: scheduler, motion: motion, world: world, random: SeededRandomGenerator(seed: seed).split("wifi"))
        var seen: Double?
        let token = wifi.observeScans { scan in
            if seen == nil, !scan.results.isEmpty { seen = motion.state(at: scheduler.now).coordinate.distance(to: origin) }
        }
        wifi.isEnabled = true
        var distance = start
        while seen == nil, distance > 0 {
            try scheduler.run(for: .seconds(1))
            distance -= 1
            motion.place(at: origin.offsetBy(east: distance, north: 0))
        }
        _ = token
        return seen
    }

    static func quantile(_ values: [Double], _ q: Double) -> Double {
        let sorted = values.sorted()
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * q).rounded()))]
    }

    @Test func aDefaultBeaconIsHeardNoFartherThanThePublishedCurvesAllow() throws {
        var table = "| setting | emitter | mean RSSI meets sensitivity at | heard first at: median | 90th percentile | farthest (of \(Self.seeds.count) seeds) | hard bound |\n|---|---|---|---|---|---|---|\n"
        for (name, environment) in Self.settings {
            let entries = try Self.seeds.map { try #require(try Self.beaconEntry(seed: $0, environment: environment)) }
            let bound = environment.beaconRange(measuredPower: -59)
            let mean = environment.beaconMeanRange(measuredPower: -59)
            #expect(entries.max()! <= bound)
            // Heard where the mean RSSI is at most the largest fade below the sensitivity, not farther.
            #expect(Self.quantile(entries, 0.5) >= mean && Self.quantile(entries, 0.5) <= bound)
            table += String(
                format: "| %@ | beacon, -59 dBm at 1 m | %.0f m | %.0f m | %.0f m | %.0f m | %.0f m |\n", name, mean, Self.quantile(entries, 0.5),
                Self.quantile(entries, 0.9), entries.max()!, bound)
            let wifi = try Self.seeds.map { try #require(try Self.wifiFirstSeen(seed: $0, environment: environment)) }
            let wifiMean = RadioModel.distance(atLoss: 20 - environment.wifiReferenceLoss - environment.wifiSensitivity, exponent: environment.wifiExponent)
            #expect(wifi.max()! <= environment.wifiRange(transmitPower: 20))
            table += String(
                format: "| %@ | access point, 20 dBm | %.0f m | %.0f m | %.0f m | %.0f m | %.0f m |\n", name, wifiMean, Self.quantile(wifi, 0.5),
                Self.quantile(wifi, 0.9), wifi.max()!, environment.wifiRange(transmitPower: 20))
        }
        // The default beacon: never beyond the 53 m at which Android Beacon Library's fitted curve
        // (d = 0.89976 (rssi/txPower)^7.7095 + 0.111, txPower -59) reaches a phone's -100 dBm.
        let curve = 0.89976 * pow(-100.0 / -59.0, 7.7095) + 0.111
        #expect(abs(curve - 52.7) < 0.1)
        let indoors = try Self.seeds.map { try #require(try Self.beaconEntry(seed: $0, environment: RadioEnvironment())) }
        #expect(indoors.max()! <= curve)
        if let path = ProcessInfo.processInfo.environment["DEVICESIM_RADIO_TABLE"] {
            try table.write(toFile: path, atomically: true, encoding: .utf8)
        }
    }
}
