import DeviceSimHAL
import DeviceSimTime

/// Decides from Wi-Fi scans, and from the device's location fix when it has one, which hotspots the
/// device is in, with hysteresis.
///
/// At each **new** scan (a throttled repeat, ``WiFiScan/resultsUpdated`` false, is not an observation)
/// every hotspot is either *observed* or not:
///
/// - **with a usable fix** (one given, no older than ``fixMaxAge``, accuracy at most ``fixMaxAccuracy``)
///   and a hotspot with an ``HotspotInfo/area``: observed when the fix lies inside the area, or when an
///   access point of the hotspot is sighted (at or above ``minimumRSSI``) and the fix is within its
///   accuracy of the area. So a device inside a long hall far from its one access point is in it, and a
///   strong fade does not put a device that is clearly outside in it;
/// - **otherwise** (no fix, or a hotspot without an area): observed when one of its access points is
///   sighted.
///
/// A hotspot is entered after ``enterAfter`` consecutive observed scans, and left after ``leaveAfter``
/// consecutive scans that do not observe it. Hotspots are independent: the device can be in two
/// overlapping hotspots at once.
///
/// ```swift
/// var presence = HotspotPresenceDetector(hotspots: hotspots)
/// for change in presence.update(with: scan, fix: device.location.currentFix) {
///     print(change.entered ? "in" : "out", change.hotspot.name)
/// }
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
    /// Consecutive observations before entering.
    public var enterAfter: Int
    /// Consecutive misses before leaving.
    public var leaveAfter: Int
    /// The weakest signal that counts as a sighting, dBm.
    public var minimumRSSI: Double
    /// The oldest fix that counts, relative to the scan.
    public var fixMaxAge: Duration = .seconds(60)
    /// The least accurate fix that counts, metres.
    public var fixMaxAccuracy: Double = 100
    private let hotspotsByAccessPoint: [String: [Int]]
    private let areaCells: [AreaCell: [Int]]
    private var streak: [Int]
    private var isInside: [Bool]
    /// Hotspots inside or part-way through a streak, in ascending order: with the ones observed, the
    /// only ones a scan can change.
    private var active: [Int] = []
    /// How many new scans were taken: marks the hotspots of the latest one without clearing a set at
    /// each scan.
    private var scanNumber = 0
    /// For each hotspot, the number of the latest scan in which one of its access points was sighted.
    private var sightedInScan: [Int]
    /// For each hotspot, the number of the latest scan that looked at it.
    private var candidateInScan: [Int]
    /// The hotspots the latest scan looked at; kept to reuse its storage.
    private var candidates: [Int] = []

    /// Watches `hotspots`.
    public init(hotspots: [HotspotInfo], enterAfter: Int = 2, leaveAfter: Int = 3, minimumRSSI: Double = -70) {
        self.hotspots = hotspots
        self.enterAfter = max(1, enterAfter)
        self.leaveAfter = max(1, leaveAfter)
        self.minimumRSSI = minimumRSSI
        var index: [String: [Int]] = [:]
        var cells: [AreaCell: [Int]] = [:]
        for (position, hotspot) in hotspots.enumerated() {
            for bssid in hotspot.accessPoints { index[bssid.lowercased(), default: []].append(position) }
            if let area = hotspot.area {
                for cell in AreaCell.covering(area) { cells[cell, default: []].append(position) }
            }
        }
        hotspotsByAccessPoint = index
        areaCells = cells
        streak = Array(repeating: 0, count: hotspots.count)
        isInside = Array(repeating: false, count: hotspots.count)
        sightedInScan = Array(repeating: 0, count: hotspots.count)
        candidateInScan = Array(repeating: 0, count: hotspots.count)
    }

    /// The hotspots the device is in now.
    public var inside: [HotspotInfo] { hotspots.indices.filter { isInside[$0] }.map { hotspots[$0] } }

    /// Takes one delivered scan and the device's latest fix (if any). A repeated scan changes nothing.
    public mutating func update(with scan: WiFiScan, fix: LocationFix? = nil) -> [Change] {
        guard scan.resultsUpdated else { return [] }
        let usable = fix.flatMap { fix -> LocationFix? in
            guard let measured = scan.measuredAt, fix.receivedAt.duration(to: measured) <= fixMaxAge,
                  (fix.horizontalAccuracy ?? 0) <= fixMaxAccuracy else { return nil }
            return fix
        }
        return update(with: scan.results, fix: usable)
    }

    /// Takes the results of one new scan and a fix known to be current (or nil); returns the hotspots
    /// left, then those entered (each in the order given). Only hotspots sighted or containing the fix
    /// now, inside, or part-way through a streak are looked at, so a scan costs the same however many
    /// hotspots the app knows.
    public mutating func update(with results: [WiFiScanResult], fix: LocationFix? = nil) -> [Change] {
        scanNumber += 1
        var looked = candidates
        candidates = []
        looked.removeAll(keepingCapacity: true)
        for result in results where result.rssi >= minimumRSSI {
            guard let positions = hotspotsByAccessPoint[Self.lowercased(result.bssid)] else { continue }
            for position in positions {
                sightedInScan[position] = scanNumber
                look(at: position, in: &looked)
            }
        }
        for position in active { look(at: position, in: &looked) }
        if let fix, let inCell = areaCells[AreaCell(fix.coordinate)] {
            for position in inCell { look(at: position, in: &looked) }
        }
        looked.sort()
        active.removeAll(keepingCapacity: true)
        var left: [Change] = [], entered: [Change] = []
        for position in looked {
            let observed = isObserved(area: hotspots[position].area, sighted: sightedInScan[position] == scanNumber, fix: fix)
            defer { if isInside[position] || streak[position] > 0 { active.append(position) } }
            if observed == isInside[position] {
                streak[position] = 0
                continue
            }
            streak[position] += 1
            if observed, streak[position] >= enterAfter {
                isInside[position] = true
                streak[position] = 0
                entered.append(Change(hotspot: hotspots[position], entered: true))
            } else if !observed, streak[position] >= leaveAfter {
                isInside[position] = false
                streak[position] = 0
                left.append(Change(hotspot: hotspots[position], entered: false))
            }
        }
        candidates = looked
        return left.isEmpty ? entered : left + entered
    }

    /// Adds the hotspot at `position` to the scan's `candidates` unless it is there already.
    private mutating func look(at position: Int, in candidates: inout [Int]) {
        guard candidateInScan[position] != scanNumber else { return }
        candidateInScan[position] = scanNumber
        candidates.append(position)
    }

    /// `bssid` in lower case, as it is when it has no capital and no byte beyond ASCII (as scans
    /// report BSSIDs): a scan then makes no new string for each access point it sighted.
    private static func lowercased(_ bssid: String) -> String {
        let needsLowercasing = bssid.utf8.withContiguousStorageIfAvailable { bytes in
            bytes.contains { ($0 >= 0x41 && $0 <= 0x5A) || $0 >= 0x80 }
        } ?? true
        return needsLowercasing ? bssid.lowercased() : bssid
    }

    private func isObserved(area: HotspotArea?, sighted: Bool, fix: LocationFix?) -> Bool {
        guard let fix, let area else { return sighted }
        let outside = area.distance(from: fix.coordinate)
        return outside == 0 || (sighted && outside <= (fix.horizontalAccuracy ?? 0))
    }
}

/// A cell of about 1 km (0.01° of latitude and longitude), to find the hotspots whose area may
/// contain a point without looking at all of them.
private struct AreaCell: Hashable, Sendable {
    var x: Int
    var y: Int

    init(_ point: GeoCoordinate) {
        x = Int((point.longitude * 100).rounded(.down))
        y = Int((point.latitude * 100).rounded(.down))
    }

    private init(x: Int, y: Int) {
        self.x = x
        self.y = y
    }

    /// Every cell the area's bounding box touches.
    static func covering(_ area: HotspotArea) -> [AreaCell] {
        let corners: [GeoCoordinate]
        switch area {
        case .circle(let center, let radius):
            corners = [0.0, 90, 180, 270].map { center.destination(distance: radius, bearing: $0) }
        case .polygon(let points):
            corners = points
        }
        let cells = corners.map(AreaCell.init)
        let xs = cells.map(\.x), ys = cells.map(\.y)
        guard let minX = xs.min(), let maxX = xs.max(), let minY = ys.min(), let maxY = ys.max(), (maxX - minX + 1) * (maxY - minY + 1) <= 10_000 else {
            return []
        }
        return (minY...maxY).flatMap { y in (minX...maxX).map { x in AreaCell(x: x, y: y) } }
    }
}
