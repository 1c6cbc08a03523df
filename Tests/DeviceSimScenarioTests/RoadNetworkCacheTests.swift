@testable import DeviceSimScenario
import Foundation
import Testing

/// Scenario files naming the same OpenStreetMap extract share one road network read once per
/// process, but a changed file is read again.
@Suite struct RoadNetworkCacheTests {
    static let extract = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Simulator/worlds/helsinki.osm.pbf")

    @Test func anExtractIsReadOnceUntilTheFileChanges() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("road-cache-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent("streets.osm.pbf")
        try FileManager.default.copyItem(at: Self.extract, to: copy)
        let cache = RoadNetworkCache()
        let first = try cache.network(at: copy.path)
        #expect(first.coordinates.count > 1_000)
        // The same file again: the network read before (not read again, so nothing to fail on).
        let again = try cache.network(at: copy.path)
        #expect(again.coordinates.count == first.coordinates.count)
        // Overwritten with something that is not an extract: the cache must read it again and fail.
        try Data("not a protobuf".utf8).write(to: copy)
        #expect(throws: (any Error).self) { try cache.network(at: copy.path) }
    }
}
