import Foundation
import Testing

/// Issue 47's item left from the second round: an OSM extract whose nodes lie at a latitude of 6e6
/// degrees was accepted by `validate`.
@Suite struct Issue47OSMLatitudeTests {
    /// OSM PBF bytes written by hand: an OSMHeader block, then one PrimitiveBlock (stored raw) of dense
    /// nodes at `positions` (latitude, longitude in degrees), ids from 1, and a `highway=footway`
    /// way through them all.
    static func extract(_ positions: [(Double, Double)]) -> Data {
        func varint(_ value: UInt64) -> [UInt8] {
            var value = value, bytes: [UInt8] = []
            while value >= 0x80 { bytes.append(UInt8(value & 0x7F) | 0x80); value >>= 7 }
            return bytes + [UInt8(value)]
        }
        func zigzag(_ value: Int64) -> UInt64 { UInt64(bitPattern: (value << 1) ^ (value >> 63)) }
        func field(_ number: Int, varint value: UInt64) -> [UInt8] { varint(UInt64(number << 3)) + varint(value) }
        func field(_ number: Int, bytes: [UInt8]) -> [UInt8] { varint(UInt64(number << 3 | 2)) + varint(UInt64(bytes.count)) + bytes }
        func block(_ type: String, _ payload: [UInt8]) -> [UInt8] {
            let blob = field(1, bytes: payload) + field(2, varint: UInt64(payload.count))
            let header = field(1, bytes: Array(type.utf8)) + field(3, varint: UInt64(blob.count))
            let length = UInt32(header.count)
            return [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)] + header + blob
        }
        // Positions in units of the default granularity, 100 nanodegrees.
        let raw = positions.map { (Int64(($0.0 * 1e7).rounded()), Int64(($0.1 * 1e7).rounded())) }
        var ids: [UInt64] = [], lats: [UInt64] = [], lons: [UInt64] = []
        var last: (Int64, Int64) = (0, 0)
        for position in raw {
            ids.append(zigzag(1))   // ids 1, 2, 3…: each one more than the last
            lats.append(zigzag(position.0 - last.0))
            lons.append(zigzag(position.1 - last.1))
            last = position
        }
        let dense = field(1, bytes: ids.flatMap(varint)) + field(8, bytes: lats.flatMap(varint)) + field(9, bytes: lons.flatMap(varint))
        let refs = raw.map { _ in zigzag(1) }
        let way = field(1, varint: 10) + field(2, bytes: varint(1)) + field(3, bytes: varint(2)) + field(8, bytes: refs.flatMap(varint))
        let strings = field(1, bytes: []) + field(1, bytes: Array("highway".utf8)) + field(1, bytes: Array("footway".utf8))
        let primitive = field(1, bytes: strings) + field(2, bytes: field(2, bytes: dense)) + field(2, bytes: field(3, bytes: way)) + field(17, varint: 100)
        let header = field(4, bytes: Array("OsmSchema-V0.6".utf8)) + field(4, bytes: Array("DenseNodes".utf8))
        return Data(block("OSMHeader", header) + block("OSMData", primitive))
    }

    static func folder(latitudes: [Double]) throws -> URL {
        let folder = try CLI.folder([
            "world.yaml": "name: town\nroads: { osm: town.osm.pbf }\nplaces: { square: [60.17, 24.94] }\n",
            "s.yaml": "name: a walk\nworld: world.yaml\nduration: 1m\ndevices:\n  - { id: walker, at: square }\n",
        ])
        try extract(latitudes.enumerated().map { ($0.element, 24.94 + Double($0.offset) * 0.001) }).write(to: folder.appendingPathComponent("town.osm.pbf"))
        return folder
    }

    @Test func anExtractWithANodeAtLatitude6e6IsRefusedByValidate() throws {
        let bad = try Self.folder(latitudes: [60.17, 6e6, 60.171])
        defer { try? FileManager.default.removeItem(at: bad) }
        let refused = try CLI.run(["validate", bad.appendingPathComponent("s.yaml").path])
        #expect(refused.status == 2, "\(refused.standardError)")
        #expect(refused.standardError.contains("town.osm.pbf") && refused.standardError.contains("1 node has a latitude beyond ±90°"), "\(refused.standardError)")
        // The same extract with the node where it belongs is valid: the refusal is the latitude's.
        let good = try Self.folder(latitudes: [60.17, 60.1705, 60.171])
        defer { try? FileManager.default.removeItem(at: good) }
        let accepted = try CLI.run(["validate", good.appendingPathComponent("s.yaml").path])
        #expect(accepted.status == 0, "\(accepted.standardError)")
    }
}
