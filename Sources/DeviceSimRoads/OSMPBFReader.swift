import CZlib
import DeviceSimHAL
import Foundation

/// Reads OpenStreetMap PBF files (`.osm.pbf`, the format of Geofabrik and BBBike extracts, read by
/// OSRM, GraphHopper and Valhalla) into an ``OSMExtract``.
///
/// The file is a sequence of blocks: a 4-byte big-endian length, a `BlobHeader`, then a `Blob`
/// whose payload (raw or zlib-compressed) is an `OSMHeader` or an `OSMData` `PrimitiveBlock` of
/// string table, dense nodes, ways and relations (OSM-binary's fileformat.proto and osmformat.proto).
/// Of relations, turn restrictions (`type=restriction`) and pedestrian areas (`type=multipolygon`
/// with `highway`) are kept for routing, and named ones for search.
///
/// ```swift
/// let extract = try OSMPBFReader.read(contentsOf: "helsinki.osm.pbf")
/// print(extract.highways.count)
/// ```
public enum OSMPBFReader {
    /// The way tags kept for routing; other tags are dropped while reading. The access keys are also
    /// kept with a `:forward` or `:backward` suffix.
    public static let routingTagKeys: Set<String> = [
        "highway", "name", "oneway", "oneway:bicycle", "oneway:motor_vehicle", "oneway:motorcar", "oneway:vehicle", "oneway:foot",
        "junction", "maxspeed", "access", "foot", "bicycle", "vehicle", "motor_vehicle", "motorcar", "area", "service",
        "motorroad", "cycleway", "psv", "tunnel", "bridge",
    ]
    /// The access keys read per direction (`motor_vehicle:forward=no`).
    static let directionalAccessKeys: Set<String> = ["access", "foot", "bicycle", "vehicle", "motor_vehicle", "motorcar"]
    /// The tags kept for place search, of nodes, ways and relations.
    public static let searchTagKeys: Set<String> = [
        "name", "name:fi", "name:sv", "name:en", "alt_name", "official_name", "short_name", "loc_name",
        "addr:street", "addr:housenumber", "amenity", "shop", "tourism", "building", "place", "leisure", "historic", "office",
    ]

    /// Whether a way's tag is kept for routing.
    static func keepsRoutingTag(_ key: String) -> Bool {
        if routingTagKeys.contains(key) { return true }
        if key.hasSuffix(":forward") { return directionalAccessKeys.contains(String(key.dropLast(8))) }
        if key.hasSuffix(":backward") { return directionalAccessKeys.contains(String(key.dropLast(9))) }
        return false
    }
    /// The `OSMHeader` features this reader understands.
    static let knownFeatures: Set<String> = ["OsmSchema-V0.6", "DenseNodes", "HistoricalInformation"]
    /// The largest `BlobHeader` the format allows (64 KiB).
    public static let maximumBlobHeaderSize = 64 << 10
    /// The largest `Blob`, stored or inflated, the format allows (32 MiB).
    public static let maximumBlobSize = 32 << 20
    /// How many times its stored size a file's blocks may inflate to in all (beyond one block of
    /// ``maximumBlobSize``): OSM data compresses two to four times, a zlib bomb a thousand times.
    public static let maximumInflationRatio = 64

    /// Reads the file at `path`.
    public static func read(contentsOf path: String) throws(OSMReadError) -> OSMExtract {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path), options: .mappedIfSafe) } catch {
            throw .unreadable(path: path, reason: (error as NSError).localizedDescription)
        }
        return try read(data, name: path)
    }

    /// Whether `data` starts (after a byte-order mark and spaces) with `<?xml` or `<osm`: an OSM XML file.
    static func isOSMXML(_ data: Data) -> Bool {
        var bytes = data.prefix(256)[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        let text = String(decoding: bytes.drop { [0x20, 0x09, 0x0A, 0x0D].contains($0) }, as: UTF8.self)
        return text.hasPrefix("<?xml") || text.hasPrefix("<osm")
    }

    /// `name` with its extension made `.osm.pbf` (`town.osm` → `town.osm.pbf`).
    static func pbfName(for name: String) -> String {
        for suffix in [".osm.xml", ".xml", ".osm"] where name.hasSuffix(suffix) { return String(name.dropLast(suffix.count)) + ".osm.pbf" }
        return name + ".osm.pbf"
    }

    /// Reads PBF bytes; `name` names them in errors (the file's path).
    public static func read(_ data: Data, name: String = "the OSM data") throws(OSMReadError) -> OSMExtract {
        if isOSMXML(data) {
            throw .osmXML(name)
        }
        var extract = OSMExtract()
        let result: Result<Void, OSMReadError> = data.withUnsafeBytes { buffer in
            var offset = 0
            var block = 0
            do throws(OSMReadError) {
                var sawHeader = false
                var scratch: [UInt8] = []
                var inflated = 0
                while offset < buffer.count {
                    block += 1
                    guard buffer.count - offset >= 4 else { throw .malformed("the block length is cut off (\(buffer.count - offset) of 4 bytes)") }
                    let headerLength = Int(buffer[offset]) << 24 | Int(buffer[offset + 1]) << 16 | Int(buffer[offset + 2]) << 8 | Int(buffer[offset + 3])
                    offset += 4
                    guard headerLength <= maximumBlobHeaderSize else { throw .malformed("its BlobHeader declares \(headerLength) bytes, more than the format's \(maximumBlobHeaderSize)") }
                    guard headerLength <= buffer.count - offset else { throw .malformed("its BlobHeader of \(headerLength) bytes runs past the end of the file") }
                    var header = ProtobufReader(UnsafeRawBufferPointer(rebasing: buffer[offset..<offset + headerLength]))
                    offset += headerLength
                    var type = "", declaredSize: UInt64?
                    while let (field, wire) = try header.nextField() {
                        switch (field, wire) {
                        case (1, .lengthDelimited): type = try header.string()
                        case (3, .varint): declaredSize = try header.varint()
                        default: try header.skip(wire)
                        }
                    }
                    guard let declaredSize else { throw .malformed("its BlobHeader has no datasize") }
                    guard declaredSize <= UInt64(maximumBlobSize) else { throw .malformed("its BlobHeader declares a Blob of \(declaredSize) bytes, more than the format's \(maximumBlobSize)") }
                    let dataSize = Int(declaredSize)
                    guard dataSize <= buffer.count - offset else { throw .malformed("its Blob of \(dataSize) bytes runs past the end of the file") }
                    let blob = UnsafeRawBufferPointer(rebasing: buffer[offset..<offset + dataSize])
                    offset += dataSize
                    // All blocks together inflate to at most one full block plus a multiple of what was read.
                    let inflationBudget = maximumBlobSize + maximumInflationRatio * offset - inflated
                    switch type {
                    case "OSMHeader":
                        inflated += try withPayload(of: blob, budget: inflationBudget, scratch: &scratch) { payload throws(OSMReadError) in try checkHeader(payload) }
                        sawHeader = true
                    case "OSMData":
                        guard sawHeader else { throw .malformed("an OSMData block comes before the OSMHeader") }
                        inflated += try withPayload(of: blob, budget: inflationBudget, scratch: &scratch) { payload throws(OSMReadError) in try readPrimitiveBlock(payload, into: &extract) }
                    default:
                        continue  // Unknown block types are skipped, as the format asks.
                    }
                }
                guard sawHeader else { throw .malformed("no OSMHeader block") }
                return .success(())
            } catch .malformed(let reason) where block > 0 {
                return .failure(.badBlock(file: name, block: block, reason: reason))
            } catch .malformed(let reason) {
                return .failure(.malformed("\(name): \(reason)"))
            } catch {
                return .failure(error)
            }
        }
        try result.get()
        extract.finish()
        return extract
    }

    /// Calls `body` with the blob's uncompressed payload; returns how many bytes were inflated (0 for
    /// a stored payload). A zlib payload may inflate to its `raw_size`, at most ``maximumBlobSize``
    /// and `budget`, and no further: inflating stops there.
    private static func withPayload(of blob: UnsafeRawBufferPointer, budget: Int, scratch: inout [UInt8], _ body: (UnsafeRawBufferPointer) throws(OSMReadError) -> Void) throws(OSMReadError) -> Int {
        var reader = ProtobufReader(blob)
        var raw: UnsafeRawBufferPointer?
        var zlib: UnsafeRawBufferPointer?
        var declaredRawSize: UInt64?
        while let (field, wire) = try reader.nextField() {
            switch (field, wire) {
            case (1, .lengthDelimited): raw = try reader.bytesField()
            case (2, .varint): declaredRawSize = try reader.varint()
            case (3, .lengthDelimited): zlib = try reader.bytesField()
            case (4, _): throw .unsupported("LZMA-compressed blocks")
            case (5, _): throw .unsupported("bzip2-compressed blocks")
            case (6, _): throw .unsupported("LZ4-compressed blocks")
            case (7, _): throw .unsupported("Zstandard-compressed blocks")
            default: try reader.skip(wire)
            }
        }
        if let raw {
            try body(raw)
            return 0
        }
        guard let zlib else { throw .malformed("its Blob has no data") }
        guard let declaredRawSize else { throw .malformed("its zlib Blob has no raw_size") }
        guard declaredRawSize <= UInt64(maximumBlobSize) else { throw .malformed("its Blob declares raw_size \(declaredRawSize), more than the format's \(maximumBlobSize) bytes") }
        let rawSize = Int(declaredRawSize)
        guard rawSize <= budget else {
            throw .malformed("its Blob would inflate to \(rawSize) bytes, past the \(maximumInflationRatio) times the bytes read so far that a file's blocks may inflate to (a zlib bomb?)")
        }
        if scratch.count < rawSize { scratch = [UInt8](repeating: 0, count: rawSize) }
        let status: Int32 = scratch.withUnsafeMutableBytes { destination in
            // `uncompress` writes at most `length` bytes and reports a stream that wants more as an error.
            var length = uLongf(rawSize)
            let status = uncompress(destination.baseAddress!.assumingMemoryBound(to: Bytef.self), &length, zlib.baseAddress?.assumingMemoryBound(to: Bytef.self), uLong(zlib.count))
            return status == Z_OK && Int(length) != rawSize ? Z_DATA_ERROR : status
        }
        switch status {
        case Z_OK: break
        case Z_BUF_ERROR: throw .malformed("its zlib Blob inflates to more than its raw_size of \(rawSize) bytes (or is cut off)")
        default: throw .malformed("its zlib Blob does not inflate to its raw_size of \(rawSize) bytes (zlib status \(status))")
        }
        let result: Result<Void, OSMReadError> = scratch.withUnsafeBytes { bytes in
            do throws(OSMReadError) { return .success(try body(UnsafeRawBufferPointer(rebasing: bytes[0..<rawSize]))) } catch { return .failure(error) }
        }
        try result.get()
        return rawSize
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
                case (4, .lengthDelimited): var m = try group.message(); try readRelation(&m, block, into: &extract)
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
        guard extract.appendNode(id: id, latitude: latitude, longitude: longitude) else { return }
        var tags: [String: String] = [:]
        for (key, value) in zip(keys, values) {
            let name = try block.string(key)
            if searchTagKeys.contains(name) { tags[name] = try block.string(value) }
        }
        extract.addNodeTags(id: id, coordinate: GeoCoordinate(latitude: latitude, longitude: longitude), tags)
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
        // Which string indices are search keys.
        let searchKeys = block.strings.map { searchTagKeys.contains($0) }
        var cursor = 0
        for index in ids.indices {
            let latitude = block.latitude(lats[index]), longitude = block.longitude(lons[index])
            let kept = extract.appendNode(id: ids[index], latitude: latitude, longitude: longitude)
            guard !keysValues.isEmpty else { continue }
            var tags: [String: String] = [:]
            while cursor < keysValues.count, keysValues[cursor] != 0 {
                guard cursor + 1 < keysValues.count else { throw .malformed("dense node \(ids[index]) has a tag key without a value") }
                let key = keysValues[cursor]
                if kept, key < UInt64(searchKeys.count), searchKeys[Int(key)] {
                    tags[block.strings[Int(key)]] = try block.string(keysValues[cursor + 1])
                }
                cursor += 2
            }
            if !tags.isEmpty { extract.addNodeTags(id: ids[index], coordinate: GeoCoordinate(latitude: latitude, longitude: longitude), tags) }
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
        var tags: [String: String] = [:], searchTags: [String: String] = [:]
        for (key, value) in zip(keys, values) {
            let name = try block.string(key)
            if keepsRoutingTag(name) { tags[name] = try block.string(value) }
            if searchTagKeys.contains(name) { searchTags[name] = try block.string(value) }
        }
        if tags["highway"] != nil {
            extract.highways.append(.init(id: id, nodeIDs: refs, tags: tags))
            // A square or a parking drawn as a closed way (`area=yes`) is a place too, found by name.
            if tags["area"] == "yes", OSMExtract.Feature.isSearchable(searchTags) {
                extract.pendingFeatures.append(.init(kind: .way, id: id, tags: searchTags, members: []))
            }
        } else {
            extract.otherWays[id] = refs
            if OSMExtract.Feature.isSearchable(searchTags) { extract.pendingFeatures.append(.init(kind: .way, id: id, tags: searchTags, members: [])) }
        }
    }

    private static func readRelation(_ reader: inout ProtobufReader, _ block: BlockContext, into extract: inout OSMExtract) throws(OSMReadError) {
        var id: Int64 = 0
        var keys: [UInt64] = [], values: [UInt64] = [], roles: [UInt64] = [], members: [Int64] = [], types: [UInt64] = []
        while let (field, wire) = try reader.nextField() {
            switch field {
            case 1 where wire == .varint: id = Int64(bitPattern: try reader.varint())
            case 2: try reader.repeatedVarints(wire) { keys.append($0) }
            case 3: try reader.repeatedVarints(wire) { values.append($0) }
            case 8: try reader.repeatedVarints(wire) { roles.append($0) }
            case 9: var last: Int64 = 0; try readSigned(&reader, wire) { last &+= $0; members.append(last) }
            case 10: try reader.repeatedVarints(wire) { types.append($0) }
            default: try reader.skip(wire)
            }
        }
        guard keys.count == values.count else { throw .malformed("relation \(id) has \(keys.count) tag keys but \(values.count) values") }
        guard roles.count == members.count, types.count == members.count else {
            throw .malformed("relation \(id) has \(members.count) members but \(roles.count) roles and \(types.count) types")
        }
        var tags: [String: String] = [:]
        for (key, value) in zip(keys, values) { tags[try block.string(key)] = try block.string(value) }
        var memberList: [OSMExtract.Member] = []
        for index in members.indices {
            guard let kind = OSMExtract.Member.Kind(rawValue: types[index]) else { throw .malformed("relation \(id) has a member of unknown type \(types[index])") }
            memberList.append(.init(kind: kind, id: members[index], role: try block.string(roles[index])))
        }
        switch tags["type"] {
        case "restriction":
            extract.restrictionRelations.append(.init(id: id, tags: tags.filter { $0.key.hasPrefix("restriction") || $0.key == "except" }, members: memberList))
        case "multipolygon" where tags["highway"] != nil:
            extract.areaRelations.append(.init(id: id, tags: tags.filter { keepsRoutingTag($0.key) }, members: memberList))
        default: break
        }
        let searchTags = tags.filter { searchTagKeys.contains($0.key) }
        if OSMExtract.Feature.isSearchable(searchTags) {
            extract.pendingFeatures.append(.init(kind: .relation, id: id, tags: searchTags, members: memberList.filter { $0.kind == .way }.map(\.id)))
        }
    }
}
