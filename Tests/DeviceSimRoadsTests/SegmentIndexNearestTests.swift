import DeviceSimHAL
@testable import DeviceSimRoads
import Foundation
import Testing

/// `SegmentIndex.nearest` ranks candidates in the plane behind a box test and takes the haversine
/// only for those that may still win: its answer must be the one a haversine of every segment would
/// give, ties (segments meeting at a node) to the segment indexed first.
@Suite struct SegmentIndexNearestTests {
    /// The nearest segment by brute force: every segment's nearest point (the index's own
    /// `nearestPoint`), the least great-circle distance within `limit`, ties to the lower index.
    static func bruteForce(_ index: SegmentIndex, to position: GeoCoordinate, within limit: Double, surfaceOnly: Bool) -> SegmentIndex.Hit? {
        let north = GeoCoordinate.earthRadius * .pi / 180
        let east = cos(position.latitude * .pi / 180) * north
        // Only segments whose box comes within twice the limit (in degrees, generously) can be within it.
        let latitudeReach = 2 * limit / north, longitudeReach = 2 * limit / east
        var best: SegmentIndex.Hit?
        for (number, segment) in index.segments.enumerated() {
            if surfaceOnly, segment.isOffTheSurface { continue }
            let p = index.coordinates[Int(segment.a)], q = index.coordinates[Int(segment.b)]
            guard min(p.latitude, q.latitude) - latitudeReach <= position.latitude, position.latitude <= max(p.latitude, q.latitude) + latitudeReach,
                  min(p.longitude, q.longitude) - longitudeReach <= position.longitude, position.longitude <= max(p.longitude, q.longitude) + longitudeReach
            else { continue }
            let hit = index.nearestPoint(of: number, to: position, east: east, north: north)
            guard hit.distance <= limit else { continue }
            if best == nil || hit.distance < best!.distance || (hit.distance == best!.distance && number < best!.segment) { best = hit }
        }
        return best
    }

    /// 150 positions per mode around Helsinki: a seeded random segment's end (where segments tie)
    /// or a point up to 120 m off it, each answered exactly as the brute force answers it.
    @Test(arguments: [TravelMode.foot, .bike, .car])
    func theNearestSegmentIsTheOneEveryHaversineWouldPick(mode: TravelMode) {
        let index = Helsinki.network.segments(for: mode)
        var state: UInt64 = mode.rawValue.utf8.reduce(0x9E37_79B9_7F4A_7C15) { $0 &* 31 &+ UInt64($1) }
        func random() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        var hits = 0, ties = 0
        for round in 0..<150 {
            let segment = index.segments[Int(random() * Double(index.segments.count))]
            let node = index.coordinates[Int(round % 2 == 0 ? segment.a : segment.b)]
            let position = round % 3 == 0 ? node : node.offsetBy(east: (random() - 0.5) * 240, north: (random() - 0.5) * 240)
            for surfaceOnly in [true, false] {
                let found = index.nearest(to: position, within: 100, surfaceOnly: surfaceOnly)
                let expected = Self.bruteForce(index, to: position, within: 100, surfaceOnly: surfaceOnly)
                #expect(found == expected, "\(mode) \(position) surfaceOnly \(surfaceOnly)")
                if found != nil { hits += 1 }
                if round % 3 == 0, found?.distance == 0 { ties += 1 }
            }
        }
        // The positions exercise both: most join a street, a third sit on a node where segments meet.
        #expect(hits > 200)
        #expect(ties > 50)
    }
}
