import DeviceSimRoads
import Foundation

/// The Helsinki extract shipped under Simulator/worlds, read once for all tests.
enum Helsinki {
    static let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Simulator/worlds/helsinki.osm.pbf").path
    static let extract: OSMExtract = try! OSMPBFReader.read(contentsOf: path)
    static let network = RoadNetwork(extract)
}
