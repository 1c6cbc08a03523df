import Foundation

/// Where a run keeps its devices' databases: a folder given by the user (kept), or a fresh temporary
/// one (removed when the folder is released).
///
/// ```swift
/// let folder = try DataFolder.temporary(prefix: "devicesim-run-")
/// folder.path   // /tmp/devicesim-run-Ab12Cd
/// ```
public final class DataFolder: Sendable {
    /// The folder's path.
    public let path: String
    /// Whether the folder is removed when this value is released.
    public let isTemporary: Bool

    /// A folder the user named; created when needed, never removed.
    public init(keeping path: String) {
        self.path = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        isTemporary = false
    }

    private init(temporary path: String) {
        self.path = path
        isTemporary = true
    }

    /// A new, empty, uniquely named folder in the system's temporary folder (`mkdtemp`).
    public static func temporary(prefix: String) throws(DataFolderError) -> DataFolder {
        let template = NSTemporaryDirectory() + (NSTemporaryDirectory().hasSuffix("/") ? "" : "/") + prefix + "XXXXXX"
        var bytes = Array(template.utf8CString)
        let made = bytes.withUnsafeMutableBufferPointer { buffer in mkdtemp(buffer.baseAddress!).map { String(cString: $0) } }
        guard let made else { throw DataFolderError(path: template, reason: String(cString: strerror(errno))) }
        return DataFolder(temporary: made)
    }

    /// The path of `name` inside the folder.
    public func appending(_ name: String) -> String { path + "/" + name }

    deinit {
        if isTemporary { try? FileManager.default.removeItem(atPath: path) }
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
