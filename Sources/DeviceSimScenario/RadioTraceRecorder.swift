import DeviceSimHAL
import DeviceSimSimulated
import DeviceSimTime

/// Records what a device's radios heard in the scenario's trace, with the RSSI of each emitter, so
/// that an event caused by a fade (a hotspot entered at the edge of reach, a beacon located far away)
/// can be diagnosed (docs/radios.md, "What traces show"):
///
/// - `wifi.scan` (`count`, `aps`: `bssid rssi|...`, strongest first): every scan the radio performs
///   (one per scan interval, 30 s by default), except an empty scan after an empty one; a throttled
///   request repeats earlier results and is not recorded again.
/// - `beacons.ranged` (`count`, `beacons`: `id rssi proximity distance|...`, nearest first): the ranging
///   report of a cycle while an app ranges (CoreLocation's `didRange`, the HAL's ranging reports), when
///   the beacons heard or their proximity classes change, and otherwise every ``rangingInterval`` of
///   unchanged sightings. A device whose apps do not range records none.
///
/// ```swift
/// let recorder = RadioTraceRecorder(device: simulated.device)
/// let token = wifi.observeScans { recorder.scanned($0) }
/// beacons.rangingTracer = { recorder.ranged($0) }
/// ```
final class RadioTraceRecorder {
    /// How often an unchanged ranging report is recorded again.
    static let rangingInterval: Duration = .seconds(10)

    private let device: Device
    private var lastScanWasEmpty = true
    private var lastRanging: (beacons: [String], at: VirtualInstant)?

    init(device: Device) {
        self.device = device
    }

    /// Records a delivered scan if it is a new measurement (see the type's summary).
    func scanned(_ scan: WiFiScan) {
        guard scan.resultsUpdated, !(scan.results.isEmpty && lastScanWasEmpty) else { return }
        lastScanWasEmpty = scan.results.isEmpty
        // A fleet run without a trace keeps no `wifi.scan`: its text is not made.
        guard device.events.records(eventsNamed: "wifi.scan") else { return }
        let aps = scan.results.map { "\($0.bssid) \(Self.decibels($0.rssi))" }.joined(separator: "|")
        device.record("wifi.scan", [("count", .int(scan.results.count)), ("aps", .string(aps))])
    }

    /// Records a ranging report if its beacons or their proximity changed, or if the last record is
    /// ``rangingInterval`` old (see the type's summary).
    func ranged(_ report: [BeaconSighting]) {
        let now = device.now
        let beacons = report.map { "\($0.beacon) \($0.proximity.rawValue)" }.sorted()
        if let last = lastRanging {
            let unchanged = last.beacons == beacons
            if unchanged, beacons.isEmpty || last.at.duration(to: now) < Self.rangingInterval { return }
        } else if report.isEmpty {
            return
        }
        lastRanging = (beacons, now)
        let text = report.map {
            "\($0.beacon) \(Self.decibels($0.rssi)) \($0.proximity.rawValue) \(Self.decibels($0.estimatedDistance))"
        }.joined(separator: "|")
        device.record("beacons.ranged", [("count", .int(report.count)), ("beacons", .string(text))])
    }

    /// A value rounded to 0.1, as text (`-71.3`).
    private static func decibels(_ value: Double) -> String {
        guard value.isFinite else { return "unknown" }
        return String(describing: (value * 10).rounded() / 10)
    }
}
