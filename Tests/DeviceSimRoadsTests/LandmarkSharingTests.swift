import DeviceSimHAL
@testable import DeviceSimRoads
import Dispatch
import Foundation
import Testing

/// A landmark table computed by several threads at once (the first one computing, the others running
/// its backward searches) is the table one thread computes alone.
@Suite struct LandmarkSharingTests {
    @Test func aHelperRunsTheBackwardSearchesAndTheTableIsTheSame() {
        let graph = Helsinki.network.foot
        let alone = LandmarkTable(graph, count: 16)
        // The computing thread leaves every backward search to the helper, so the helper surely
        // runs them (by default it runs one itself when no helper has started it yet).
        let sharing = LandmarkSearchSharing(leavingSearchesToHelpers: true)
        let helperDone = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            sharing.help()
            helperDone.signal()
        }
        let shared = LandmarkTable(graph, count: 16, sharing: sharing)
        sharing.finish()
        helperDone.wait()
        #expect(sharing.searchesByHelpers == 16)
        #expect(Self.difference(shared, alone) == nil)
    }

    @Test func withoutHelpersTheComputingThreadRunsEverySearch() {
        let random = RouteSearchTests.RandomGraph(seed: 21, nodeCount: 120, zeroTimeEdges: true)
        let graph = RoadGraph(mode: .bike, coordinates: random.coordinates, edges: random.edges, landmarkCount: 8)
        let sharing = LandmarkSearchSharing()
        let shared = LandmarkTable(graph, count: 8, sharing: sharing)
        sharing.finish()
        sharing.help()  // returns at once: the table is done
        #expect(sharing.searchesByHelpers == 0)
        #expect(Self.difference(shared, LandmarkTable(graph, count: 8)) == nil)
    }

    @Test(arguments: [31, 32, 33, 34] as [UInt64])
    func threadsWantingATableAtOnceAllGetTheTableOfOne(seed: UInt64) {
        let random = RouteSearchTests.RandomGraph(seed: seed, nodeCount: 300, zeroTimeEdges: seed % 2 == 0)
        let expected = LandmarkTable(RoadGraph(mode: .car, coordinates: random.coordinates, edges: random.edges, landmarkCount: 8), count: 8)
        let graph = RoadGraph(mode: .car, coordinates: random.coordinates, edges: random.edges, landmarkCount: 8)
        let tables = LockedTables()
        DispatchQueue.concurrentPerform(iterations: 4) { _ in tables.append(graph.landmarks) }
        #expect(tables.all.count == 4)
        for table in tables.all { #expect(Self.difference(table, expected) == nil) }
    }

    @Test func threadsWantingATableOfNoLandmarksDoNotWaitForever() {
        let graph = RoadGraph(mode: .foot, coordinates: [GeoCoordinate(latitude: 60, longitude: 24)], edges: [])
        let tables = LockedTables()
        DispatchQueue.concurrentPerform(iterations: 4) { _ in tables.append(graph.landmarks) }
        #expect(tables.all.map(\.count) == [0, 0, 0, 0])
    }

    /// Where two tables differ, or nil (not `#expect(a.times == b.times)`: on a failure, the test
    /// library would compute the difference of two arrays of 190,000 numbers, which takes hours).
    static func difference(_ a: LandmarkTable, _ b: LandmarkTable) -> String? {
        if a.nodes != b.nodes { return "landmarks \(a.nodes) against \(b.nodes)" }
        if a.times.count != b.times.count { return "\(a.times.count) times against \(b.times.count)" }
        guard let index = a.times.indices.first(where: { a.times[$0] != b.times[$0] }) else { return nil }
        return "time \(index): \(a.times[index]) against \(b.times[index])"
    }

    private final class LockedTables: @unchecked Sendable {
        private let lock = NSLock()
        private var tables: [LandmarkTable] = []
        func append(_ table: LandmarkTable) { lock.withLock { tables.append(table) } }
        var all: [LandmarkTable] { lock.withLock { tables } }
    }
}
