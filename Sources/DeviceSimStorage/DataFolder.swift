import Foundation

/// Where a run keeps its devices' databases: a folder given by the user (kept), or a fresh temporary
/// one (removed when the folder is released). A temporary folder can wait to be made until something
/// asks for its path, so a run that writes no database leaves no trace in the file system.
///
/// ```swift
/// let folder = try DataFolder.temporary(prefix: "devicesim-run-")
/// folder.path   // /tmp/devicesim-run-Ab12Cd
/// ```
public final class DataFolder: @unchecked Sendable {
    /// Whether the folder is removed when this value is released.
    public let isTemporary: Bool
    private let lock = NSLock()
    private var made: String?
    private let prefix: String

    /// A folder the user named; created when needed, never removed.
    public init(keeping path: String) {
        made = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        isTemporary = false
        prefix = ""
    }

    private init(temporary path: String?, prefix: String) {
        made = path
        isTemporary = true
        self.prefix = prefix
    }

    /// A new, empty, uniquely named folder in the system's temporary folder (`mkdtemp`), made now.
    public static func temporary(prefix: String) throws(DataFolderError) -> DataFolder {
        let made = try makeTemporary(prefix: prefix)
        return DataFolder(temporary: made, prefix: prefix)
    }

    /// A temporary folder made (`mkdtemp`) the first time its ``path`` is asked for.
    public static func temporaryWhenFirstUsed(prefix: String) -> DataFolder {
        DataFolder(temporary: nil, prefix: prefix)
    }

    /// The folder's path (a lazily made temporary folder is made now; if that fails, the path names
    /// a folder that does not exist, and opening a file there fails with the system's reason).
    public var path: String {
        lock.withLock {
            if let made { return made }
            let path = (try? Self.makeTemporary(prefix: prefix)) ?? Self.template(prefix) + "-could-not-be-created"
            made = path
            return path
        }
    }

    /// Whether the folder exists on disk yet (a lazily made temporary folder may not).
    public var isMade: Bool { lock.withLock { made != nil } }

    /// The path of `name` inside the folder.
    public func appending(_ name: String) -> String { path + "/" + name }

    private static func template(_ prefix: String) -> String {
        NSTemporaryDirectory() + (NSTemporaryDirectory().hasSuffix("/") ? "" : "/") + prefix + "XXXXXX"
    }

    private static func makeTemporary(prefix: String) throws(DataFolderError) -> String {
        let template = template(prefix)
        var bytes = Array(template.utf8CString)
        let made = bytes.withUnsafeMutableBufferPointer { buffer in mkdtemp(buffer.baseAddress!).map { String(cString: $0) } }
        guard let made else { throw DataFolderError(path: template, reason: String(cString: strerror(errno))) }
        return made
    }

    deinit {
        if isTemporary, let made { try? FileManager.default.removeItem(atPath: made) }
    }
}

/// A data folder could not be made.
public struct DataFolderError: Error, Sendable, CustomStringConvertible {
    /// The folder.
    public var path: String
    /// What the system said.
    public var reason: String

    public var description: String { "cannot create the data folder \(path): \(reason)" }
}
