import CZlib
import Foundation

/// Builds OSM PBF bytes by hand, for tests of the reader's bounds: protobuf fields, blocks, zlib.
enum PBFBytes {
    static func varint(_ value: UInt64) -> [UInt8] {
        var value = value, bytes: [UInt8] = []
        while value >= 0x80 {
            bytes.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        return bytes + [UInt8(value)]
    }

    static func zigzag(_ value: Int64) -> UInt64 { UInt64(bitPattern: (value << 1) ^ (value >> 63)) }

    static func field(_ number: Int, varint value: UInt64) -> [UInt8] { varint(UInt64(number << 3)) + varint(value) }

    static func field(_ number: Int, bytes: [UInt8]) -> [UInt8] { varint(UInt64(number << 3 | 2)) + varint(UInt64(bytes.count)) + bytes }

    static func field(_ number: Int, string: String) -> [UInt8] { field(number, bytes: Array(string.utf8)) }

    static func packed(_ number: Int, _ values: [UInt64]) -> [UInt8] { field(number, bytes: values.flatMap(varint)) }

    /// One block: length, BlobHeader (`type`, `datasize`, which defaults to the blob's size), Blob.
    static func block(type: String, blob: [UInt8], declaredSize: UInt64? = nil) -> [UInt8] {
        let header = field(1, string: type) + field(3, varint: declaredSize ?? UInt64(blob.count))
        let length = UInt32(header.count)
        return [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)] + header + blob
    }

    /// A Blob holding `payload` stored raw.
    static func rawBlob(_ payload: [UInt8]) -> [UInt8] { field(1, bytes: payload) + field(2, varint: UInt64(payload.count)) }

    /// A Blob holding `payload` zlib-compressed, declaring `rawSize` (default: the payload's size).
    static func zlibBlob(_ payload: [UInt8], rawSize: UInt64? = nil) -> [UInt8] {
        field(2, varint: rawSize ?? UInt64(payload.count)) + field(3, bytes: deflate(payload))
    }

    static func deflate(_ payload: [UInt8]) -> [UInt8] {
        var length = compressBound(uLong(payload.count))
        var output = [UInt8](repeating: 0, count: Int(length))
        let status = output.withUnsafeMutableBufferPointer { out in
            payload.withUnsafeBufferPointer { input in compress2(out.baseAddress, &length, input.baseAddress, uLong(payload.count), 9) }
        }
        precondition(status == Z_OK)
        return Array(output.prefix(Int(length)))
    }

    /// The OSMHeader block every file starts with.
    static let header = block(type: "OSMHeader", blob: rawBlob(field(4, string: "OsmSchema-V0.6") + field(4, string: "DenseNodes")))

    /// A PrimitiveBlock payload of dense nodes at (latitude, longitude) in nanodegrees / 100, ids from 1.
    static func denseNodes(_ positions: [(Int64, Int64)], granularity: UInt64 = 100) -> [UInt8] {
        var ids: [UInt64] = [], lats: [UInt64] = [], lons: [UInt64] = []
        var last = (0 as Int64, 0 as Int64)
        for (index, position) in positions.enumerated() {
            ids.append(zigzag(index == 0 ? 1 : 1))
            lats.append(zigzag(position.0 - last.0))
            lons.append(zigzag(position.1 - last.1))
            last = position
        }
        let dense = packed(1, ids) + packed(8, lats) + packed(9, lons)
        let group = field(2, bytes: dense)
        return field(1, bytes: field(1, string: "")) + field(2, bytes: group) + field(17, varint: granularity)
    }
}
