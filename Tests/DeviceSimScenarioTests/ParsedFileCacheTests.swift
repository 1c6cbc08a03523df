import DeviceSim
import DeviceSimRoads
import DeviceSimSimulated
@testable import DeviceSimScenario
import Foundation
import Testing

/// Scenario files naming the same OpenStreetMap extract share one road network read once per
/// process, but a changed file is read again.
@Suite struct ParsedFileCacheTests {
    init() throws { try ScenarioAppRegistry.register(BundledApps.all) }

    static let extract = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Simulator/worlds/helsinki.osm.pbf")

    @Test func anExtractIsReadOnceUntilTheFileChanges() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("road-cache-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let copy = folder.appendingPathComponent("streets.osm.pbf")
        try FileManager.default.copyItem(at: Self.extract, to: copy)
        let cache = ParsedFileCache<RoadNetwork>()
        func network() throws -> RoadNetwork { try cache.value(at: copy.path) { path throws(OSMReadError) in try RoadNetwork(contentsOf: path) } }
        let first = try network()
        #expect(first.coordinates.count > 1_000)
        // The same file again: the network read before (not read again, so nothing to fail on).
        let again = try network()
        #expect(again.coordinates.count == first.coordinates.count)
        // Overwritten with something that is not an extract: the cache must read it again and fail.
        try Data("not a protobuf".utf8).write(to: copy)
        #expect(throws: (any Error).self) { try network() }
    }

    /// A world file is parsed again when it changes (the scenarios of a run share it while it does not).
    @Test func aChangedWorldFileIsParsedAgain() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("world-cache-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("world.yaml")
        try Data("name: first\nplaces:\n  home: [60.17, 24.94]\n".utf8).write(to: file)
        #expect(try WorldParser.parse(contentsOf: file.path).name == "first")
        #expect(try WorldParser.parse(contentsOf: file.path).name == "first")
        try Data("name: the second\nplaces:\n  home: [60.17, 24.94]\n".utf8).write(to: file)
        #expect(try WorldParser.parse(contentsOf: file.path).name == "the second")
        try Data("name: [broken\n".utf8).write(to: file)
        #expect(throws: ScenarioError.self) { try WorldParser.parse(contentsOf: file.path) }
    }

    /// Scenario files are told from world and game files by a top-level `devices` key, found
    /// without parsing.
    @Test func aTopLevelDevicesKeyIsFoundWithoutParsing() {
        #expect(YAMLFileKind.hasTopLevelDevicesKey("name: x\ndevices:\n  - { id: a }\n"))
        #expect(YAMLFileKind.hasTopLevelDevicesKey("devices :\n"))
        #expect(YAMLFileKind.hasTopLevelDevicesKey("name: x\r\ndevices: []\r\n"))
        #expect(!YAMLFileKind.hasTopLevelDevicesKey("name: x\n  devices: []\n"))
        #expect(!YAMLFileKind.hasTopLevelDevicesKey("devices-extra: 1\n"))
        #expect(!YAMLFileKind.hasTopLevelDevicesKey("# devices: none\nplaces: {}\n"))
        #expect(!YAMLFileKind.hasTopLevelDevicesKey("name: devices: x\n"))
    }
}
