import Foundation

/// A folder of prepared road networks: each extract's network written once as a file of its arrays
/// (graphs, landmark tables, segments, places) and read back at the next start instead of being
/// built from the OpenStreetMap extract again.
///
/// A prepared file is used only when it was made from the same extract: its header holds the
/// extract's size, modification time and a 64-bit hash of its bytes, all three checked against the
/// extract at every read (the extract is hashed each time: a file changed within the same second
/// and size is noticed), and a hash of its own contents. A prepared file that is missing, stale,
/// of another format version, truncated or damaged is rebuilt from the extract and written again,
/// silently (``Loaded/origin`` says which). A folder that cannot be written only costs the rebuild.
///
/// The standard folder (``standard``) is `$DEVICESIM_CACHE_DIR/roads`, else
/// `$XDG_CACHE_HOME/devicesim/roads`, else `~/.cache/devicesim/roads`; `DEVICESIM_CACHE_DIR=off`
/// turns it off. A file there is named after the extract and a hash of its absolute path.
///
/// ```swift
/// let cache = RoadNetworkCache(folder: URL(fileURLWithPath: "/tmp/roads"))
/// let loaded = try cache.network(contentsOf: "Simulator/worlds/helsinki.osm.pbf")
/// print(loaded.origin)   // .built(.noPreparedFile) the first time, .prepared after
/// ```
public struct RoadNetworkCache: Sendable {
    /// Where a network came from.
    public enum Origin: Sendable, Hashable {
        /// Read from the prepared file.
        case prepared
        /// Built from the extract, and why (the prepared file was then written, if it could be).
        case built(RebuildReason)
    }

    /// Why a network was built from its extract rather than read from its prepared file.
    public enum RebuildReason: Error, Sendable, Hashable {
        /// There was none.
        case noPreparedFile
        /// It was made from another version of the extract (size, modification time or contents differ).
        case extractChanged
        /// It was written by another version of DeviceSim.
        case otherFormatVersion
        /// It is truncated or damaged.
        case damaged
    }

    /// A network and where it came from.
    public struct Loaded: Sendable {
        public var network: RoadNetwork
        public var origin: Origin
        /// The prepared file's path.
        public var preparedFile: URL
    }

    /// The folder.
    public let folder: URL

    /// A cache in `folder` (created when first written).
    public init(folder: URL) { self.folder = folder }

    /// The standard folder (see the type's description); nil when `DEVICESIM_CACHE_DIR=off`.
    public static var standard: RoadNetworkCache? {
        let environment = ProcessInfo.processInfo.environment
        if let folder = environment["DEVICESIM_CACHE_DIR"], !folder.isEmpty {
            return folder == "off" ? nil : RoadNetworkCache(folder: URL(fileURLWithPath: folder).appendingPathComponent("roads"))
        }
        if let folder = environment["XDG_CACHE_HOME"], folder.hasPrefix("/") {
            return RoadNetworkCache(folder: URL(fileURLWithPath: folder).appendingPathComponent("devicesim/roads"))
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return RoadNetworkCache(folder: URL(fileURLWithPath: home).appendingPathComponent(".cache/devicesim/roads"))
    }

    private static let magic: [UInt8] = Array("DSROADS\0".utf8)
    /// magic, version (UInt32), extract size, modification (ns), extract hash, payload hash (UInt64 each).
    private static let headerSize = 8 + 4 + 4 * 8

    /// The prepared file of the extract at `path`.
    public func preparedFile(for path: String) -> URL {
        let absolute = URL(fileURLWithPath: path).standardizedFileURL
        let pathHash = Array(absolute.path.utf8).withUnsafeBytes { preparedFileHash($0) }
        return folder.appendingPathComponent("\(absolute.lastPathComponent)-\(String(pathHash, radix: 16)).roads")
    }

    /// The network of the extract at `path`: read from its prepared file when that was made from
    /// this extract, else built from the extract (errors as ``RoadNetwork/init(contentsOf:)``) and
    /// its prepared file written.
    public func network(contentsOf path: String) throws(OSMReadError) -> Loaded {
        let file = preparedFile(for: path)
        guard let extract = try? Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped) else { return try build(path, file: file, reason: .noPreparedFile) }
        var info = stat()
        guard stat(path, &info) == 0 else { return try build(path, file: file, reason: .noPreparedFile) }
        let key = (size: UInt64(info.st_size), modified: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec),
                   hash: extract.withUnsafeBytes { preparedFileHash($0) })
        let reason: RebuildReason
        switch read(file, key: key) {
        case .success(let network): return Loaded(network: network, origin: .prepared, preparedFile: file)
        case .failure(let why): reason = why
        }
        return try build(path, file: file, reason: reason, key: key)
    }

    private func read(_ file: URL, key: (size: UInt64, modified: Int64, hash: UInt64)) -> Result<RoadNetwork, RebuildReason> {
        guard let bytes = try? Data(contentsOf: file, options: .alwaysMapped) else { return .failure(.noPreparedFile) }
        var header = PreparedFileReader(bytes)
        guard bytes.count >= Self.headerSize, Array(bytes.prefix(8)) == Self.magic else { return .failure(.damaged) }
        do {
            _ = try header.value(UInt64.self)
            guard try header.value(UInt32.self) == RoadNetwork.preparedFormatVersion else { return .failure(.otherFormatVersion) }
            guard try header.value(UInt64.self) == key.size, try header.value(Int64.self) == key.modified, try header.value(UInt64.self) == key.hash else {
                return .failure(.extractChanged)
            }
            let payloadHash = try header.value(UInt64.self)
            guard bytes.withUnsafeBytes({ preparedFileHash(UnsafeRawBufferPointer(rebasing: $0[Self.headerSize...])) }) == payloadHash else { return .failure(.damaged) }
            var reader = PreparedFileReader(bytes, offset: Self.headerSize)
            return .success(try RoadNetwork(preparedBytes: &reader))
        } catch {
            return .failure(.damaged)
        }
    }

    private func build(_ path: String, file: URL, reason: RebuildReason, key: (size: UInt64, modified: Int64, hash: UInt64)? = nil) throws(OSMReadError) -> Loaded {
        let network = try RoadNetwork(contentsOf: path)
        if let key { write(network, to: file, key: key) }
        return Loaded(network: network, origin: .built(reason), preparedFile: file)
    }

    /// Writes the prepared file (to a temporary name, then renamed: a reader never sees half a file);
    /// a folder that cannot be written is left as it is.
    private func write(_ network: RoadNetwork, to file: URL, key: (size: UInt64, modified: Int64, hash: UInt64)) {
        let payload = network.preparedBytes()
        var header = PreparedFileWriter()
        for byte in Self.magic { header.append(byte) }
        header.append(RoadNetwork.preparedFormatVersion)
        header.append(key.size)
        header.append(key.modified)
        header.append(key.hash)
        header.append(payload.withUnsafeBytes { preparedFileHash($0) })
        let temporary = folder.appendingPathComponent(".\(file.lastPathComponent).\(getpid()).\(UInt64.random(in: 0...UInt64.max))")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(header.bytes + payload).write(to: temporary)
            guard rename(temporary.path, file.path) == 0 else { throw CocoaError(.fileWriteUnknown) }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
        }
    }
}
