import CZlib
import DeviceSimHAL
import Foundation

/// Reads OpenStreetMap PBF files (`.osm.pbf`, the format of Geofabrik and BBBike extracts, read by
/// OSRM, GraphHopper and Valhalla) into an ``OSMExtract``.
///
/// The file is a sequence of blocks: a 4-byte big-endian length, a `BlobHeader`, then a `Blob`
/// whose payload (raw or zlib-compressed) is an `OSMHeader` or an `OSMData` `PrimitiveBlock` of
/// string table, dense nodes and ways (OSM-binary's fileformat.proto and osmformat.proto).
/// Relations are skipped: routing does not need them.
///
/// ```swift
/// let extract = try OSMPBFReader.read(contentsOf: "helsinki.osm.pbf")
/// print(extract.highways.count)
/// ```
public enum OSMPBFReader {
    /// The way tags kept for routing; other tags are dropped while reading.
    public static let routingTagKeys: Set<String> = [
        "highway", "name", "oneway", "oneway:bicycle", "junction", "maxspeed", "access", "foot", "bicycle",
        "vehicle", "motor_vehicle", "motorcar", "area",
    ]
    /// The `OSMHeader` features this reader understands.
    static let knownFeatures: Set<String> = ["OsmSchema-V0.6", "DenseNodes", "HistoricalInformation"]
    /// The largest block allowed by the format (32 MiB uncompressed).
    static let maximumBlobSize = 32 << 20

    /// Reads the file at `path`.
    public static func read(contentsOf path: String) throws(OSMReadError) -> OSMExtract {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe) } catch {
            throw .unreadable(path: path, reason: (error as NSError).localizedDescription)
        }
        return try read(data)
    }

    /// Reads PBF bytes.
    public static func read(_ data: Data) throws(OSMReadError) -> OSMExtract {
        var extract = OSMExtract()
        let result: Result<Void, OSMReadError> = data.withUnsafeBytes { buffer in
            do throws(OSMReadError) {
                var offset = 0
                var sawHeader = false
                var scratch: [UInt8] = []
                while offset < buffer.count {
                    guard buffer.count - offset >= 4 else { throw .malformed("truncated block length at byte \(offset)") }
                    let headerLength = Int(buffer[offset]) << 24 | Int(buffer[offset + 1]) << 16 | Int(buffer[offset + 2]) << 8 | Int(buffer[offset + 3])
                    offset += 4
                    guard headerLength <= 64 * 1024, headerLength <= buffer.count - offset else { throw .malformed("bad BlobHeader length \(headerLength) at byte \(offset - 4)") }
                    var header = ProtobufReader(UnsafeRawBufferPointer(rebasing: buffer[offset..<offset + headerLength]))
                    offset += headerLength
                    var type = "", dataSize = -1
                    while let (field, wire) = try header.nextField() {
                        switch (field, wire) {
                        case (1, .lengthDelimited): type = try header.string()
                        case (3, .varint): dataSize = Int(try header.varint())
                        default: try header.skip(wire)
                        }
                    }
                    guard dataSize >= 0, dataSize <= buffer.count - offset else { throw .malformed("BlobHeader of '\(type)' has a bad datasize \(dataSize)") }
                    let blob = UnsafeRawBufferPointer(rebasing: buffer[offset..<offset + dataSize])
                    offset += dataSize
                    switch type {
                    case "OSMHeader":
                        try withPayload(of: blob, scratch: &scratch) { payload throws(OSMReadError) in try checkHeader(payload) }
                        sawHeader = true
                    case "OSMData":
                        guard sawHeader else { throw .malformed("OSMData block before the OSMHeader") }
                        try withPayload(of: blob, scratch: &scratch) { payload throws(OSMReadError) in try readPrimitiveBlock(payload, into: &extract) }
                    default:
                        continue  // Unknown block types are skipped, as the format asks.
                    }
                }
                guard sawHeader else { throw .malformed("no OSMHeader block") }
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        try result.get()
        extract.finish()
        return extract
    }

    /// Calls `body` with the blob's uncompressed payload.
    private static func withPayload(of blob: UnsafeRawBufferPointer, scratch: inout [UInt8], _ body: (UnsafeRawBufferPointer) throws(OSMReadError) -> Void) throws(OSMReadError) {
        var reader = ProtobufReader(blob)
        var raw: UnsafeRawBufferPointer?
        var zlib: UnsafeRawBufferPointer?
        var rawSize = -1
        while let (field, wire) = try reader.nextField() {
            switch (field, wire) {
            case (1, .lengthDelimited): raw = try reader.bytesField()
            case (2, .varint): rawSize = Int(try reader.varint())
            case (3, .lengthDelimited): zlib = try reader.bytesField()
            case (4, _): throw .unsupported("LZMA-compressed blocks")
            case (5, _): throw .unsupported("bzip2-compressed blocks")
            case (6, _): throw .unsupported("LZ4-compressed blocks")
            case (7, _): throw .unsupported("Zstandard-compressed blocks")
            default: try reader.skip(wire)
            }
        }
        if let raw { return try body(raw) }
        guard let zlib else { throw .malformed("a Blob with no data") }
        guard rawSize >= 0, rawSize <= maximumBlobSize else { throw .malformed("a zlib Blob with a bad raw_size \(rawSize)") }
        if scratch.count < rawSize { scratch = [UInt8](repeating: 0, count: rawSize) }
        let status: Int32 = scratch.withUnsafeMutableBytes { destination in
            var length = uLongf(rawSize)
            let status = uncompress(destination.baseAddress!.assumingMemoryBound(to: Bytef.self), &length, zlib.baseAddress?.assumingMemoryBound(to: Bytef.self), uLong(zlib.count))
            return status == Z_OK && Int(length) != rawSize ? Z_DATA_ERROR : status
        }
        guard status == Z_OK else { throw .malformed("a zlib Blob does not inflate (zlib status \(status))") }
        let result: Result<Void, OSMReadError> = scratch.withUnsafeBytes { bytes in
            do throws(OSMReadError) { return .success(try body(UnsafeRawBufferPointer(rebasing: bytes[0..<rawSize]))) } catch { return .failure(error) }
        }
        try result.get()
    }

    private static func checkHeader(_ payload: UnsafeRawBufferPointer) throws(OSMReadError) {
        var reader = ProtobufReader(payload)
        while let (field, wire) = try reader.nextField() {
            if field == 4, wire == .lengthDelimited {
                let feature = try reader.string()
                guard knownFeatures.contains(feature) else { throw .unsupported("required feature '\(feature)'") }
            } else {
                try reader.skip(wire)
            }
        }
    }

    private static func readPrimitiveBlock(_ payload: UnsafeRawBufferPointer, into extract: inout OSMExtract) throws(OSMReadError) {
        var reader = ProtobufReader(payload)
        var strings: [String] = []
        var groups: [ProtobufReader] = []
        var granularity: Int64 = 100, latOffset: Int64 = 0, lonOffset: Int64 = 0
        while let (field, wire) = try reader.nextField() {
            switch (field, wire) {
            case (1, .lengthDelimited):
                var table = try reader.message()
                while let (f, w) = try table.nextField() {
                    if f == 1, w == .lengthDelimited { strings.append(try table.string()) } else { try table.skip(w) }
                }
            case (2, .lengthDelimited): groups.append(try reader.message())
            case (17, .varint): granularity = Int64(truncatingIfNeeded: try reader.varint())
            case (19, .varint): latOffset = Int64(bitPattern: try reader.varint())
            case (20, .varint): lonOffset = Int64(bitPattern: try reader.varint())
            default: try reader.skip(wire)
            }
        }
        let block = BlockContext(strings: strings, granularity: granularity, latOffset: latOffset, lonOffset: lonOffset)
        for var group in groups {
            while let (field, wire) = try group.nextField() {
                switch (field, wire) {
                case (1, .lengthDelimited): var m = try group.message(); try readNode(&m, block, into: &extract)
                case (2, .lengthDelimited): var m = try group.message(); try readDenseNodes(&m, block, into: &extract)
                case (3, .lengthDelimited): var m = try group.message(); try readWay(&m, block, into: &extract)
                default: try group.skip(wire)
                }
            }
        }
    }

    private struct BlockContext {
        let strings: [String]
        let granularity: Int64
        let latOffset: Int64
        let lonOffset: Int64

        func string(_ index: UInt64) throws(OSMReadError) -> String {
            guard index < UInt64(strings.count) else { throw .malformed("string index \(index) outside the block's table of \(strings.count)") }
            return strings[Int(index)]
        }

        func latitude(_ raw: Int64) -> Double { Double(latOffset &+ granularity &* raw) * 1e-9 }
        func longitude(_ raw: Int64) -> Double { Double(lonOffset &+ granularity &* raw) * 1e-9 }
    }

    private static func readNode(_ reader: inout ProtobufReader, _ block: BlockContext, into extract: inout OSMExtract) throws(OSMReadError) {
        var id: Int64 = 0, lat: Int64 = 0, lon: Int64 = 0
        var keys: [UInt64] = [], values: [UInt64] = []
        while let (field, wire) = try reader.nextField() {
            switch (field, wire) {
            case (1, .varint): id = try reader.signedVarint()
            case (2, _): try reader.repeatedVarints(wire) { keys.append($0) }
            case (3, _): try reader.repeatedVarints(wire) { values.append($0) }
            case (8, .varint): lat = try reader.signedVarint()
            case (9, .varint): lon = try reader.signedVarint()
            default: try reader.skip(wire)
            }
        }
        guard keys.count == values.count else { throw .malformed("node \(id) has \(keys.count) tag keys but \(values.count) values") }
        let latitude = block.latitude(lat), longitude = block.longitude(lon)
        extract.appendNode(id: id, latitude: latitude, longitude: longitude)
        for (key, value) in zip(keys, values) where try block.string(key) == "name" {
            extract.namedNodes.append(.init(id: id, name: try block.string(value), coordinate: GeoCoordinate(latitude: latitude, longitude: longitude)))
        }
    }

    private static func readDenseNodes(_ reader: inout ProtobufReader, _ block: BlockContext, into extract: inout OSMExtract) throws(OSMReadError) {
        var ids: [Int64] = [], lats: [Int64] = [], lons: [Int64] = []
        var keysValues: [UInt64] = []
        while let (field, wire) = try reader.nextField() {
            switch field {
            case 1: var last: Int64 = 0; try readSigned(&reader, wire) { last &+= $0; ids.append(last) }
            case 8: var last: Int64 = 0; try readSigned(&reader, wire) { last &+= $0; lats.append(last) }
            case 9: var last: Int64 = 0; try readSigned(&reader, wire) { last &+= $0; lons.append(last) }
            case 10: try reader.repeatedVarints(wire) { keysValues.append($0) }
            default: try reader.skip(wire)
            }
        }
        guard ids.count == lats.count, ids.count == lons.count else {
            throw .malformed("dense nodes with \(ids.count) ids, \(lats.count) latitudes and \(lons.count) longitudes")
        }
        let nameIndex = block.strings.firstIndex(of: "name").map(UInt64.init)
        var cursor = 0
        for index in ids.indices {
            let latitude = block.latitude(lats[index]), longitude = block.longitude(lons[index])
            extract.appendNode(id: ids[index], latitude: latitude, longitude: longitude)
            guard !keysValues.isEmpty else { continue }
            while cursor < keysValues.count, keysValues[cursor] != 0 {
                guard cursor + 1 < keysValues.count else { throw .malformed("dense node \(ids[index]) has a tag key without a value") }
                if keysValues[cursor] == nameIndex {
                    extract.namedNodes.append(.init(id: ids[index], name: try block.string(keysValues[cursor + 1]), coordinate: GeoCoordinate(latitude: latitude, longitude: longitude)))
                }
                cursor += 2
            }
            cursor += 1  // The 0 that ends this node's tags.
        }
    }

    private static func readSigned(_ reader: inout ProtobufReader, _ wire: ProtobufReader.WireType, _ body: (Int64) -> Void) throws(OSMReadError) {
        try reader.repeatedVarints(wire) { raw in body(Int64(bitPattern: raw >> 1) ^ -Int64(bitPattern: raw & 1)) }
    }

    private static func readWay(_ reader: inout ProtobufReader, _ block: BlockContext, into extract: inout OSMExtract) throws(OSMReadError) {
        var id: Int64 = 0
        var keys: [UInt64] = [], values: [UInt64] = []
        var refs: [Int64] = []
        while let (field, wire) = try reader.nextField() {
            switch field {
            case 1 where wire == .varint: id = Int64(bitPattern: try reader.varint())
            case 2: try reader.repeatedVarints(wire) { keys.append($0) }
            case 3: try reader.repeatedVarints(wire) { values.append($0) }
            case 8: var last: Int64 = 0; try readSigned(&reader, wire) { last &+= $0; refs.append(last) }
            default: try reader.skip(wire)
            }
        }
        guard keys.count == values.count else { throw .malformed("way \(id) has \(keys.count) tag keys but \(values.count) values") }
        var tags: [String: String] = [:]
        for (key, value) in zip(keys, values) {
            let name = try block.string(key)
            if routingTagKeys.contains(name) { tags[name] = try block.string(value) }
        }
        guard tags["highway"] != nil else { return }
        extract.highways.append(.init(id: id, nodeIDs: refs, tags: tags))
    }
}
