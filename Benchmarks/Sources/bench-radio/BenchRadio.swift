// Scan cost against world size: Wi-Fi scans and beacon ranging cycles of one device standing among
// ten emitters (five access points, five beacons), in a world of just those ten and in one where
// 9,990 more are spread over 100 km x 100 km around it; and, for scale, the same 10,000 emitters
// looked at one by one without the index.
//   swift run -c release --package-path Benchmarks bench-radio [SCANS]
import DeviceSim
import Foundation

let center = GeoCoordinate(latitude: 52.52, longitude: 13.405)

func world(extra: Int) -> World {
    var random = SeededRandomGenerator(seed: 42)
    var hotspots = [Hotspot(name: "here", area: .circle(center: center, radius: 40), accessPoints: (0..<5).map { index in
        AccessPoint(ssid: "here", bssid: String(format: "02:00:00:00:00:%02x", index), position: center.offsetBy(east: Double(index) * 10 - 20, north: 5), transmitPower: 15)
    }, fence: "here")]
    var beacons = (0..<5).map { index in
        Beacon(id: .iBeacon(uuid: "B9407F30-F5F8-466E-AFF9-25556B57FE6D", major: 0, minor: UInt16(index)), position: center.offsetBy(east: Double(index) * 4 - 8, north: -3), fence: "here")
    }
    for index in 0..<extra {
        let position = center.offsetBy(east: random.nextUnit() * 100_000 - 50_000, north: random.nextUnit() * 100_000 - 50_000)
        if index % 2 == 0 {
            hotspots.append(Hotspot(name: "h\(index)", area: .circle(center: position, radius: 30), accessPoints: [
                AccessPoint(ssid: "far", bssid: String(format: "06:00:00:%02x:%02x:%02x", (index >> 16) & 0xff, (index >> 8) & 0xff, index & 0xff), position: position, transmitPower: 15),
            ]))
        } else {
            beacons.append(Beacon(id: .iBeacon(uuid: "B9407F30-F5F8-466E-AFF9-25556B57FE6D", major: 1, minor: UInt16(index)), position: position))
        }
    }
    return World(hotspots: hotspots, beacons: beacons)
}

struct Measurement {
    var wifiMicroseconds: Double
    var rangingMicroseconds: Double
    var accessPointsSeen: Int
    var beaconsSeen: Int
}

func measure(_ world: World, scans: Int) throws -> Measurement {
    let index = WorldIndex(world)
    let scheduler = EventScheduler()
    let motion = DeviceMotion(at: center)
    var configuration = SimulatedWiFi.Configuration()
    configuration.throttleWindow = nil
    configuration.scanInterval = .seconds(1)
    let wifi = SimulatedWiFi(scheduler: scheduler, motion: motion, world: index, configuration: configuration, random: SeededRandomGenerator(seed: 1))
    let ranging = SimulatedBeaconRanging(scheduler: scheduler, motion: motion, world: index, random: SeededRandomGenerator(seed: 2))
    let clock = ContinuousClock()
    let wifiStart = clock.now
    wifi.isEnabled = true
    try scheduler.run(for: .seconds(scans - 1))
    let wifiTime = wifiStart.duration(to: clock.now)
    let accessPointsSeen = wifi.lastScan.count
    wifi.isEnabled = false
    let rangingStart = clock.now
    ranging.isEnabled = true
    try scheduler.run(for: .seconds(scans))
    let rangingTime = rangingStart.duration(to: clock.now)
    precondition(wifi.scanCount == scans && ranging.cycleCount == scans)
    return Measurement(
        wifiMicroseconds: wifiTime.inSeconds * 1e6 / Double(scans), rangingMicroseconds: rangingTime.inSeconds * 1e6 / Double(scans),
        accessPointsSeen: accessPointsSeen, beaconsSeen: ranging.lastReport.count)
}

/// What a scan costs without the index: every access point's distance computed.
func bruteForce(_ world: World, scans: Int) -> Double {
    let accessPoints = world.accessPoints
    let clock = ContinuousClock()
    let start = clock.now
    var inReach = 0
    for _ in 0..<scans {
        for accessPoint in accessPoints where center.distance(to: accessPoint.position) < 1_500 { inReach += 1 }
    }
    precondition(inReach > 0)
    return start.duration(to: clock.now).inSeconds * 1e6 / Double(scans)
}

extension Duration {
    var inSeconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}

@main
struct BenchRadio {
    static func main() throws {
        let scans = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 20_000
        let small = world(extra: 0), large = world(extra: 9_990)
        _ = try measure(small, scans: 1_000)  // warm up
        let ten = try measure(small, scans: scans)
        let tenThousand = try measure(large, scans: scans)
        let linear = bruteForce(large, scans: scans / 10)
        print("\(scans) Wi-Fi scans and \(scans) ranging cycles per world (µs each):")
        print(String(format: "  10 emitters:      Wi-Fi scan %6.2f µs (%d APs seen), ranging cycle %6.2f µs (%d beacons seen)", ten.wifiMicroseconds, ten.accessPointsSeen, ten.rangingMicroseconds, ten.beaconsSeen))
        print(String(format: "  10,000 emitters:  Wi-Fi scan %6.2f µs (%d APs seen), ranging cycle %6.2f µs (%d beacons seen)", tenThousand.wifiMicroseconds, tenThousand.accessPointsSeen, tenThousand.rangingMicroseconds, tenThousand.beaconsSeen))
        print(String(format: "  ratio 10,000 / 10: Wi-Fi %.2fx, ranging %.2fx", tenThousand.wifiMicroseconds / ten.wifiMicroseconds, tenThousand.rangingMicroseconds / ten.rangingMicroseconds))
        print(String(format: "  without the index, distances to all %d access points alone: %.2f µs per scan", large.accessPoints.count, linear))
    }
}
