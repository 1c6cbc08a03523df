import Foundation

/// Why a storage operation failed, in words a user can act on.
public enum StorageError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Writing `needed` bytes would exceed the space left.
    case diskFull(key: String, needed: Int, available: Int)
    /// The write failed (an injected fault, or the file system refused).
    case writeFailed(key: String, reason: String)
    /// The read failed.
    case readFailed(key: String, reason: String)
    /// The file system has no space left for `key` (the database reports it full).
    case noSpace(key: String)
    /// The storage is read-only.
    case readOnly(key: String)
    /// The database file is damaged and cannot be read.
    case corrupt(file: String, reason: String)

    public var description: String {
        switch self {
        case .diskFull(let key, let needed, let available):
            "cannot save '\(key)': the disk is full (\(needed) bytes needed, \(available) available)"
        case .writeFailed(let key, let reason): "cannot save '\(key)': \(reason)"
        case .readFailed(let key, let reason): "cannot read '\(key)': \(reason)"
        case .noSpace(let key): "cannot save '\(key)': the disk is full; free some space and try again"
        case .readOnly(let key): "cannot save '\(key)': the storage is read-only"
        case .corrupt(let file, let reason): "the database '\(file)' is damaged (\(reason)); it was set aside and a new one started"
        }
    }
}

/// The device's local storage: values by key, which the app's flows save, read and delete.
///
/// ```swift
/// try device.storage?.write(Data("route".utf8), for: "routes/home")
/// ```
public protocol LocalStorage: AnyObject {
    /// The value saved under `key`, or nil.
    func read(_ key: String) throws(StorageError) -> Data?
    /// Saves `data` under `key`, replacing what was there; all or nothing.
    func write(_ data: Data, for key: String) throws(StorageError)
    /// Removes `key` (nothing happens if it is absent).
    func delete(_ key: String) throws(StorageError)
    /// Every key, sorted.
    func keys() throws(StorageError) -> [String]
}

/// An in-memory ``LocalStorage`` with injectable faults: a capacity (a full disk) and failing writes
/// or reads. A failed write leaves the previous value as it was.
///
/// ```swift
/// let storage = SimulatedStorage(capacity: 1_000)
/// storage.failingWrites = true   // the next writes throw StorageError.writeFailed
/// ```
public final class SimulatedStorage: LocalStorage {
    private var values: [String: Data] = [:]
    /// The most bytes the store holds (nil: unlimited).
    public var capacity: Int?
    /// When true, every write throws ``StorageError/writeFailed(key:reason:)``.
    public var failingWrites = false
    /// When true, every read throws ``StorageError/readFailed(key:reason:)``.
    public var failingReads = false

    /// Creates an empty store.
    public init(capacity: Int? = nil) {
        self.capacity = capacity
    }

    /// Bytes in use.
    public var usedBytes: Int { values.values.reduce(0) { $0 + $1.count } }

    public func read(_ key: String) throws(StorageError) -> Data? {
        if failingReads { throw .readFailed(key: key, reason: "injected read error") }
        return values[key]
    }

    public func write(_ data: Data, for key: String) throws(StorageError) {
        if failingWrites { throw .writeFailed(key: key, reason: "injected write error") }
        if let capacity {
            let available = capacity - (usedBytes - (values[key]?.count ?? 0))
            if data.count > available { throw .diskFull(key: key, needed: data.count, available: available) }
        }
        values[key] = data
    }

    public func delete(_ key: String) throws(StorageError) {
        if failingWrites { throw .writeFailed(key: key, reason: "injected write error") }
        values[key] = nil
    }

    public func keys() throws(StorageError) -> [String] {
        values.keys.sorted()
    }
}
