import DeviceSimHAL

/// A world put in spatial grids, shared by every device's radio drivers: access points and beacons
/// looked up by distance without scanning the whole world.
///
/// ```swift
/// let index = WorldIndex(world)
/// index.accessPoints(near: here) { index, accessPoint, distance in ... }
/// ```
public final class WorldIndex: Sendable {
    /// The world.
    public let world: World
    private let accessPointGrid: SpatialGrid<Int>
    private let beaconGrid: SpatialGrid<Int>
    private let accessPointList: [AccessPoint]
    private let accessPointRanges: [Double]
    private let beaconRanges: [Double]
    /// The farthest any access point carries, metres.
    public let wifiReach: Double
    /// The farthest any beacon carries, metres.
    public let beaconReach: Double
    /// The names of the beacon fences, sorted.
    public let fenceNames: [String]
    /// Each beacon's fence as an index into ``fenceNames`` (nil: in no fence), parallel to
    /// ``World/beacons``; comparing these indices compares the fences' names.
    public let beaconFences: [Int?]
    /// Each beacon's RSSI at 1 m (``Beacon/measuredPower``), parallel to ``World/beacons``: read
    /// without copying the world's beacons.
    let beaconMeasuredPowers: [Double]

    /// Indexes `world`.
    public init(_ world: World) {
        self.world = world
        accessPointList = world.accessPoints
        accessPointRanges = accessPointList.map { world.radio.wifiRange(transmitPower: $0.transmitPower) }
        beaconRanges = world.beacons.map { world.radio.beaconRange(measuredPower: $0.measuredPower) }
        wifiReach = accessPointRanges.max() ?? 1
        beaconReach = beaconRanges.max() ?? 1
        let origin = world.hotspots.first?.area.center ?? world.beacons.first?.position ?? GeoCoordinate(latitude: 0, longitude: 0)
        var accessPoints = SpatialGrid<Int>(origin: origin, cellSize: max(wifiReach, 10))
        for (index, accessPoint) in accessPointList.enumerated() { accessPoints.insert(index, at: accessPoint.position) }
        var beacons = SpatialGrid<Int>(origin: origin, cellSize: max(beaconReach, 10))
        for (index, beacon) in world.beacons.enumerated() { beacons.insert(index, at: beacon.position) }
        accessPoints.pack()
        beacons.pack()
        accessPointGrid = accessPoints
        beaconGrid = beacons
        let names = Set(world.beacons.compactMap(\.fence)).sorted()
        let rank = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) })
        fenceNames = names
        beaconFences = world.beacons.map { $0.fence.flatMap { rank[$0] } }
        beaconMeasuredPowers = world.beacons.map(\.measuredPower)
    }

    /// The access points of ``World/accessPoints``, in its order (stored: the world's list is made
    /// from its hotspots at each read).
    var accessPointsInOrder: [AccessPoint] { accessPointList }

    /// Calls `body` with every access point whose signal can reach `position`: its index in
    /// ``World/accessPoints``, the access point and its distance.
    public func accessPoints(near position: GeoCoordinate, _ body: (Int, AccessPoint, Double) -> Void) {
        accessPointGrid.forEach(within: wifiReach, of: position) { index, distance in
            if distance <= accessPointRanges[index] { body(index, accessPointList[index], distance) }
        }
    }

    /// Calls `body` with every beacon whose signal can reach `position`, as ``beacons(near:_:)`` does
    /// (same beacons, same order, same distances), keeping in `candidates` the beacons that may reach
    /// the grid cell of `position`: a device that stays in one cell reuses them and skips the grid.
    ///
    /// ```swift
    /// var candidates: BeaconCandidates?
    /// index.beacons(near: here, candidates: &candidates) { beaconIndex, distance in ... }
    /// ```
    public func beacons(near position: GeoCoordinate, candidates: inout BeaconCandidates?, _ body: (Int, Double) -> Void) {
        // Well inside the kept cell, a position is in that cell: it is not projected again.
        if candidates?.interior?.contains(position) != true {
            let cell = beaconGrid.cell(position)
            if candidates?.cell != cell {
                var found = BeaconCandidates(cell: cell, interior: beaconGrid.interior(of: cell))
                beaconGrid.forEachCandidate(within: beaconReach, ofCell: cell) { index, position in found.beacons.append((index, position)) }
                found.isEmpty = found.beacons.isEmpty
                candidates = found
            }
        }
        // Most of a world is out of every beacon's reach: nothing to measure there.
        if candidates!.isEmpty { return }
        // A beacon farther north or south than the reach is out of it: the great-circle distance is
        // at least the difference of latitudes (in radians) times the radius. Checked first, with a
        // margin far beyond rounding, it spares the haversine of about a third of the candidates.
        let reachInLatitude = beaconReach / GeoCoordinate.earthRadius * (180 / .pi) * (1 + 1e-6) + 1e-9
        // Read in place: a copy of the list would retain its buffer (and release it) every lookup.
        candidates!.beacons.withUnsafeBufferPointer { list in
            for (index, beaconPosition) in list {
                if abs(beaconPosition.latitude - position.latitude) > reachInLatitude { continue }
                let distance = position.distance(to: beaconPosition)
                if distance <= beaconReach, distance <= beaconRanges[index] { body(index, distance) }
            }
        }
    }

    /// How far a device at `position` can move, in metres, before any beacon's signal can reach it
    /// (a lower bound, at most `horizon`): 0 when one may already reach it. A device with no beacon
    /// in reach that cannot travel that far before some instant needs no lookup until then.
    ///
    /// ```swift
    /// let clearance = index.beaconClearance(from: here, horizon: 100)
    /// let quietFor = clearance / maximumSpeed   // seconds without a beacon in reach
    /// ```
    public func beaconClearance(from position: GeoCoordinate, horizon: Double) -> Double {
        guard horizon > 0, position.latitude.isFinite, position.longitude.isFinite else { return 0 }
        // Every beacon within reach + 2 x horizon is looked at; one farther is at least
        // 2 x horizon beyond its range, which leaves room for the grid's projection.
        var clearance = horizon
        beaconGrid.forEach(within: beaconReach + 2 * horizon, of: position) { index, distance in
            clearance = min(clearance, distance - min(beaconRanges[index], beaconReach))
        }
        return max(clearance, 0)
    }

    /// Writes every beacon whose signal can reach `position` into `found` from its start, as
    /// ``beacons(near:candidates:_:)`` calls its closure, and returns how many it wrote: the entries
    /// after those are left from earlier lookups. For a caller that looks up every cycle: the list
    /// is neither cleared nor grown once it is long enough.
    func beacons(near position: GeoCoordinate, candidates: inout BeaconCandidates?, overwriting found: inout [(index: Int, distance: Double)]) -> Int {
        var count = 0
        beacons(near: position, candidates: &candidates) { index, distance in
            if count < found.count { found[count] = (index, distance) } else { found.append((index, distance)) }
            count += 1
        }
        return count
    }

    /// Appends to `found` every beacon whose signal can reach `position`, as
    /// ``beacons(near:candidates:_:)`` calls its closure: for a caller that would otherwise capture
    /// itself in that closure (and retain itself for it).
    public func beacons(near position: GeoCoordinate, candidates: inout BeaconCandidates?, into found: inout [(index: Int, distance: Double)]) {
        beacons(near: position, candidates: &candidates) { index, distance in found.append((index, distance)) }
    }

    /// Calls `body` with every beacon whose signal can reach `position`: its index in
    /// ``World/beacons``, the beacon and its distance.
    public func beacons(near position: GeoCoordinate, _ body: (Int, Beacon, Double) -> Void) {
        var candidates: BeaconCandidates?
        beacons(near: position, candidates: &candidates) { index, distance in body(index, world.beacons[index], distance) }
    }
}

/// The beacons that may reach a point of one grid cell (see ``WorldIndex/beacons(near:candidates:_:)``).
public struct BeaconCandidates: Sendable {
    let cell: SpatialGrid<Int>.Cell
    /// The positions certainly in `cell` (nil: none is known to be).
    let interior: CellInterior?
    var beacons: [(index: Int, position: GeoCoordinate)] = []
    /// Whether `beacons` is empty (kept beside it: checked without reading the list's buffer).
    var isEmpty = true
}
