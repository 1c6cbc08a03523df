// How often a phone standing N metres from an access point is counted inside its hotspot, with Wi-Fi
// shadowing drawn independently at every scan ("before": shadowing-distance 0) and with the
// correlated process (Gudmundson over distance moved, and over time: the defaults, 10 m and 1800 s).
// One access point (15 dBm, the campus library's) in a hotspot of radius 40 m, the friend-locator's
// defaults (scans every 30 s, entered after 2 observations, left after 3 misses, -70 dBm), Wi-Fi alone
// (no location fix); the last column is the app as it runs with GPS on: correlated shadowing and a fix
// (accuracy 5 m) at the device, so the hotspot's area takes part. Each run is one hour standing still;
// SEEDS runs per distance.
//   swift run -c release --package-path Benchmarks bench-shadowing [SEEDS] [HOURS] [SHADOWING-TIME-SECONDS]
import DeviceSim
import Foundation

let arguments = CommandLine.arguments.dropFirst()
let seeds = arguments.first.flatMap { UInt64($0) } ?? 200
let hours = arguments.dropFirst().first.flatMap { Int($0) } ?? 1
let shadowingTime = arguments.dropFirst(2).first.flatMap { Double($0) } ?? RadioEnvironment().shadowingTime
let center = GeoCoordinate(latitude: 52.5108, longitude: 13.3305)
let distances: [Double] = [10, 20, 30, 40, 46, 55, 60, 72, 85, 100, 120]

struct Outcome {
    var scansInside = 0
    var scans = 0
    var runsWithEntry = 0
    var entries = 0
}

func measure(distance: Double, correlated: Bool, withFix: Bool = false) throws -> Outcome {
    var radio = RadioEnvironment()
    radio.shadowingTime = shadowingTime
    if !correlated { radio.shadowingDistance = 0 }
    let world = World(hotspots: [Hotspot(name: "library", area: .circle(center: center, radius: 40), accessPoints: [
        AccessPoint(ssid: "eduroam", bssid: "02:00:00:00:01:01", position: center, transmitPower: 15),
    ])], radio: radio)
    let index = WorldIndex(world)
    var outcome = Outcome()
    for seed in 1...seeds {
        let scheduler = EventScheduler()
        let position = center.offsetBy(east: distance, north: 0)
        let wifi = SimulatedWiFi(scheduler: scheduler, motion: DeviceMotion(at: position), world: index,
                                 random: SeededRandomGenerator(seed: seed).split("device:phone").split("wifi"))
        var presence = HotspotPresenceDetector(hotspots: world.hotspotInfos)
        var entries = 0
        let subscription = wifi.observeScans { scan in
            guard scan.resultsUpdated else { return }
            let fix = withFix ? LocationFix(receivedAt: scheduler.now, coordinate: position, horizontalAccuracy: 5) : nil
            entries += presence.update(with: scan, fix: fix).filter(\.entered).count
            outcome.scans += 1
            if !presence.inside.isEmpty { outcome.scansInside += 1 }
        }
        wifi.isEnabled = true
        try scheduler.run(for: .seconds(Int64(3600 * hours) - 1))
        outcome.entries += entries
        if entries > 0 { outcome.runsWithEntry += 1 }
        _ = subscription
    }
    return outcome
}

func percent(_ part: Int, _ whole: Int) -> String { String(format: "%5.1f %%", 100 * Double(part) / Double(max(whole, 1))) }

print("\(seeds) runs of \(hours) h per distance; mean RSSI from RadioModel, sigma 5 dB; after: decorrelation \(RadioEnvironment().shadowingDistance) m, \(shadowingTime) s")
print("distance  mean RSSI | scans counted inside            | runs with an entry              | entries per hour")
print("                    | before   after    after+fix     | before   after    after+fix     | before  after  after+fix")
for distance in distances {
    let mean = RadioModel.wifiRSSI(transmitPower: 15, distance: distance, environment: RadioEnvironment())
    let before = try measure(distance: distance, correlated: false)
    let after = try measure(distance: distance, correlated: true)
    let fused = try measure(distance: distance, correlated: true, withFix: true)
    let runs = Int(seeds) * hours
    print(String(format: "%5.0f m  %6.1f dBm | ", distance, mean)
        + "\(percent(before.scansInside, before.scans)) \(percent(after.scansInside, after.scans)) \(percent(fused.scansInside, fused.scans))       | "
        + "\(percent(before.runsWithEntry, Int(seeds))) \(percent(after.runsWithEntry, Int(seeds))) \(percent(fused.runsWithEntry, Int(seeds)))       | "
        + String(format: "%5.2f  %5.2f  %5.2f", Double(before.entries) / Double(runs), Double(after.entries) / Double(runs), Double(fused.entries) / Double(runs)))
}
