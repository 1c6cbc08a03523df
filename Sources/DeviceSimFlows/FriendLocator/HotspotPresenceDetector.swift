import DeviceSimHAL

/// Decides from Wi-Fi scans which hotspots the device is in, with hysteresis: a hotspot is entered
/// after ``enterAfter`` consecutive scans that show one of its access points at or above
/// ``minimumRSSI``, and left after ``leaveAfter`` consecutive scans that do not.
///
/// ```swift
/// var presence = HotspotPresenceDetector(hotspots: hotspots)
/// for change in presence.update(with: scan) { print(change.entered ? "in" : "out", change.hotspot.name) }
/// ```
public struct HotspotPresenceDetector: Sendable {
    /// A hotspot entered or left.
    public struct Change: Sendable, Hashable {
        /// The hotspot.
        public var hotspot: HotspotInfo
        /// True when entered, false when left.
        public var entered: Bool
    }

    /// The hotspots watched.
    public let hotspots: [HotspotInfo]
    /// Consecutive sightings before entering.
    public var enterAfter: Int
    /// Consecutive misses before leaving.
    public var leaveAfter: Int
    /// The weakest signal that counts as a sighting, dBm.
    public var minimumRSSI: Double
    private let hotspotsByAccessPoint: [String: [Int]]
    private var streak: [Int]
    private var isInside: [Bool]
    /// Hotspots inside or part-way through a streak: with the ones sighted, the only ones a scan can change.
    private var active: Set<Int> = []

    /// Watches `hotspots`.
    public init(hotspots: [HotspotInfo], enterAfter: Int = 2, leaveAfter: Int = 3, minimumRSSI: Double = -70) {
        self.hotspots = hotspots
        self.enterAfter = max(1, enterAfter)
        self.leaveAfter = max(1, leaveAfter)
        self.minimumRSSI = minimumRSSI
        var index: [String: [Int]] = [:]
        for (position, hotspot) in hotspots.enumerated() {
            for bssid in hotspot.accessPoints { index[bssid.lowercased(), default: []].append(position) }
        }
        hotspotsByAccessPoint = index
        streak = Array(repeating: 0, count: hotspots.count)
        isInside = Array(repeating: false, count: hotspots.count)
    }

    /// The hotspots the device is in now.
    public var inside: [HotspotInfo] { hotspots.indices.filter { isInside[$0] }.map { hotspots[$0] } }

    /// Takes one scan; returns the hotspots left, then those entered (each in the order given). Only
    /// hotspots sighted now, inside, or part-way through a streak are looked at, so a scan costs the
    /// same however many hotspots the app knows.
    public mutating func update(with scan: [WiFiScanResult]) -> [Change] {
        var seen = Set<Int>()
        for result in scan where result.rssi >= minimumRSSI {
            for position in hotspotsByAccessPoint[result.bssid.lowercased()] ?? [] { seen.insert(position) }
        }
        var left: [Change] = [], entered: [Change] = []
        for position in seen.union(active).sorted() {
            let sighted = seen.contains(position)
            defer { if isInside[position] || streak[position] > 0 { active.insert(position) } else { active.remove(position) } }
            if sighted == isInside[position] {
                streak[position] = 0
                continue
            }
            streak[position] += 1
            if sighted, streak[position] >= enterAfter {
                isInside[position] = true
                streak[position] = 0
                entered.append(Change(hotspot: hotspots[position], entered: true))
            } else if !sighted, streak[position] >= leaveAfter {
                isInside[position] = false
                streak[position] = 0
                left.append(Change(hotspot: hotspots[position], entered: false))
            }
        }
        return left + entered
    }
}
