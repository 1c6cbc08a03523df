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

    /// The two settings of the table: the defaults (indoors), and open space at street level.
    static let settings: [(name: String, environment: RadioEnvironment)] = {
        var outdoors = RadioEnvironment()
        outdoors.beaconExponent = 2.3
        outdoors.wifiExponent = 2.0
        outdoors.wifiBreakpoint = 150
        return [("indoors (defaults)", RadioEnvironment()), ("outdoors (beacon-exponent 2.3, wifi-exponent 2.0, wifi-breakpoint 150)", outdoors)]
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

    /// One row of the table: the distances by which 100 %, 90 %, 50 % and 10 % of the seeds had heard
    /// the emitter (the first-heard distances' minimum and 10th, 50th and 90th percentiles), the farthest.
    static func row(_ setting: String, _ emitter: String, mean: Double, bound: Double, _ heard: [Double]) -> String {
        String(
            format: "| %@ | %@ | %.0f m | %.0f m | %.0f m | %.0f m | %.0f m | %.0f m | %.0f m |\n", setting, emitter, mean, heard.min()!,
            quantile(heard, 0.1), quantile(heard, 0.5), quantile(heard, 0.9), heard.max()!, bound)
    }

    @Test func aDefaultBeaconAndADefaultAccessPointAreHeardNoFartherThanThePublishedFiguresAllow() throws {
        var table = """
            | setting | emitter | mean RSSI meets sensitivity at | heard by 100 % of seeds at | by 90 % at | by 50 % at | by 10 % at | farthest (of \(Self.seeds.count) seeds) | hard bound |
            |---|---|---|---|---|---|---|---|---|

            """
        for (name, environment) in Self.settings {
            let entries = try Self.seeds.map { try #require(try Self.beaconEntry(seed: $0, environment: environment)) }
            let bound = environment.beaconRange(measuredPower: -59)
            let mean = environment.beaconMeanRange(measuredPower: -59)
            #expect(entries.max()! <= bound)
            // Heard where the mean RSSI is at most the largest fade below the sensitivity, not farther.
            #expect(Self.quantile(entries, 0.5) >= mean && Self.quantile(entries, 0.5) <= bound)
            table += Self.row(name, "beacon, -59 dBm at 1 m", mean: mean, bound: bound, entries)
            let wifi = try Self.seeds.map { try #require(try Self.wifiFirstSeen(seed: $0, environment: environment)) }
            let wifiMean = environment.wifiMeanRange(transmitPower: 20)
            let wifiBound = environment.wifiRange(transmitPower: 20)
            #expect(wifi.max()! <= wifiBound)
            // Scans come every 30 m of the walk: the median first sighting lies between the mean reach
            // (less one scan's walk) and the bound.
            #expect(Self.quantile(wifi, 0.5) >= wifiMean - 30 && Self.quantile(wifi, 0.5) <= wifiBound)
            table += Self.row(name, "access point, 20 dBm EIRP", mean: wifiMean, bound: wifiBound, wifi)
        }
        // The default beacon: never beyond the 53 m at which Android Beacon Library's fitted curve
        // (d = 0.89976 (rssi/txPower)^7.7095 + 0.111, txPower -59) reaches a phone's -100 dBm.
        let curve = 0.89976 * pow(-100.0 / -59.0, 7.7095) + 0.111
        #expect(abs(curve - 52.7) < 0.1)
        let indoors = try Self.seeds.map { try #require(try Self.beaconEntry(seed: $0, environment: RadioEnvironment())) }
        #expect(indoors.max()! <= curve)
        // The default access point indoors (ITU-R P.1238 office: 40 dB at 1 m, then 30 dB a decade; 20 dBm
        // EIRP; -90 dBm): -90 dBm on average at 215 m, never heard beyond 464 m (shadowing clipped at 10 dB).
        #expect(abs(RadioEnvironment().wifiMeanRange(transmitPower: 20) - 215.4) < 0.1)
        #expect(abs(RadioEnvironment().wifiRange(transmitPower: 20) - 464.2) < 0.1)
        let wifiIndoors = try Self.seeds.map { try #require(try Self.wifiFirstSeen(seed: $0, environment: RadioEnvironment())) }
        #expect(wifiIndoors.max()! <= 464.2)
        if let path = ProcessInfo.processInfo.environment["DEVICESIM_RADIO_TABLE"] {
            try table.write(toFile: path, atomically: true, encoding: .utf8)
        }
    }

    @Test func theWifiPathLossIsFreeSpaceToTheBreakpointThenFortyDecibelsADecade() {
        var outdoors = RadioEnvironment()
        outdoors.wifiExponent = 2.0
        outdoors.wifiBreakpoint = 150
        #expect(abs(outdoors.wifiPathLoss(distance: 100) - 80) < 1e-9)
        #expect(abs(outdoors.wifiPathLoss(distance: 1500) - (40 + 20 * log10(150) + 40)) < 1e-9)
        for loss in [60.0, 83.52, 100, 125] {
            #expect(abs(outdoors.wifiPathLoss(distance: outdoors.wifiDistance(atLoss: loss)) - loss) < 1e-6)
        }
        // No breakpoint: one exponent all the way (indoors).
        #expect(abs(RadioEnvironment().wifiPathLoss(distance: 1000) - 130) < 1e-9)
    }
}
