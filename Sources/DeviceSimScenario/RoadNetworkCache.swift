import DeviceSimRoads
import Foundation
import Synchronization

/// The road networks read from OpenStreetMap extracts in this process, by file, so that the scenario
/// files of a run that name the same world's extract share one network (and its landmark tables,
/// built on the first route search) instead of each reading and indexing the extract again.
///
/// An entry is used again only while the file's size and modification date are unchanged.
///
/// ```swift
/// let network = try RoadNetworkCache.shared.network(at: "/path/helsinki.osm.pbf")
/// ```
final class RoadNetworkCache: Sendable {
    /// The process's cache.
    static let shared = RoadNetworkCache()

    private struct Entry {
        let size: Int
        let modified: Date
        let network: RoadNetwork
    }

    /// Held while an extract is read, so two scenario threads needing it read it once.
    private let entries = Mutex<[String: Entry]>([:])

    /// The road network of the extract at `path` (read now, or earlier in this process).
    func network(at path: String) throws(OSMReadError) -> RoadNetwork {
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        let size = (attributes?[.size] as? NSNumber)?.intValue ?? -1
        let modified = attributes?[.modificationDate] as? Date ?? .distantPast
        return try entries.withLock { entries throws(OSMReadError) -> RoadNetwork in
            if let entry = entries[path], entry.size == size, entry.modified == modified { return entry.network }
            let network = try RoadNetwork(contentsOf: path)
            entries[path] = Entry(size: size, modified: modified, network: network)
            return network
        }
    }
}
