import CSQLite
import CSQLiteMemoryFiles
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A folder of database files kept in memory: SQLite reads and writes them through a VFS of the
/// folder's own, answering as the unix VFS answers for a local disk, so every byte of a database (and
/// of a rollback journal a kill leaves) is what it would be on disk. Opening one costs no system call
/// and no scan of the process's open files, and an idle database costs its bytes only. The files reach
/// the disk when ``write(into:)`` writes them.
///
/// ```swift
/// let files = try SQLiteMemoryFolder()
/// let database = SQLiteDatabase(folder: folder, file: "walker.sqlite", migrations: migrations, memory: files, now: { scheduler.now })
/// try database.write("note") { db in try db.execute("INSERT INTO notes VALUES ('hi')") }
/// try files.write(into: folder)   // folder/walker.sqlite, as SQLite would have left it on disk
/// ```
public final class SQLiteMemoryFolder: @unchecked Sendable {
    private let folder: OpaquePointer
    /// The name of the folder's VFS, for `sqlite3_open_v2`.
    let vfsName: String
    /// The bytes a file of this folder held right after a set of migrations made its schema from no
    /// file at all (every one applied, nothing else written), by those migrations: made once per schema
    /// in a run, copied into the next new file with that schema instead of running its migrations
    /// again (``copyMigratedFile(of:to:)``). Guarded by ``templatesLock`` (scenarios run on threads of
    /// their own, each with its own folder, but a host program may share one).
    private var migratedFiles: [[[String]]: [UInt8]] = [:]
    private let templatesLock = NSLock()
    /// How many new files were made as copies of a kept migrated file (``copyMigratedFile(of:to:)``).
    var migratedFilesCopied: Int {
        templatesLock.lock()
        defer { templatesLock.unlock() }
        return copies
    }
    private var copies = 0

    /// A new empty folder (its VFS registered with SQLite under a name of its own).
    public init() throws(SQLiteMemoryFolderError) {
        SQLiteConnection.configureSQLite
        guard let folder = devicesim_memory_folder_create() else { throw SQLiteMemoryFolderError(reason: "SQLite refused a VFS of its own (out of memory?)") }
        self.folder = folder
        vfsName = String(cString: devicesim_memory_folder_vfs_name(folder))
    }

    deinit { devicesim_memory_folder_destroy(folder) }

    /// The names of the folder's files, sorted.
    public var fileNames: [String] {
        let count = devicesim_memory_folder_count(folder)
        return (0..<count).compactMap { devicesim_memory_folder_name_at(folder, $0).map { String(cString: $0) } }.sorted()
    }

    /// The bytes of memory the files' contents take.
    public var byteCount: Int { Int(devicesim_memory_folder_bytes(folder)) }

    /// The bytes of the file `name`; nil when there is none.
    public func contents(of name: String) -> [UInt8]? {
        let size = devicesim_memory_folder_size(folder, name)
        guard size >= 0 else { return nil }
        return bytes(of: name, at: 0, count: Int(size))
    }

    /// At most `count` bytes of the file `name` from `offset` on, read as SQLite reads a part of a page
    /// (none from the end of the file on); nil when there is no file `name`.
    func bytes(of name: String, at offset: Int, count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        let read = bytes.withUnsafeMutableBytes { devicesim_memory_folder_read(folder, name, $0.baseAddress, Int64(count), Int64(offset)) }
        guard read >= 0 else { return nil }
        return Array(bytes.prefix(Int(read)))
    }

    /// Makes the file `name` hold exactly `bytes` (created when there is none).
    public func replace(_ name: String, with bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { devicesim_memory_folder_replace(folder, name, $0.baseAddress, Int64($0.count)) }
    }

    /// Writes `bytes` at `offset` of the file `name`, when there is one (as writing into an open file would).
    func overwrite(_ name: String, at offset: Int, with bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { devicesim_memory_folder_write(folder, name, $0.baseAddress, Int64($0.count), Int64(offset)) }
    }

    /// Points the main file of `connection` (opened in this folder) at the existing file `name`;
    /// false when it cannot (see `devicesim_memory_folder_retarget`).
    func retarget(_ connection: OpaquePointer, toFile name: String) -> Bool {
        devicesim_memory_folder_retarget(folder, connection, name) == 0
    }

    /// Whether there is a file `name` in the folder (of any size).
    func hasFile(_ name: String) -> Bool {
        devicesim_memory_folder_size(folder, name) >= 0
    }

    /// Keeps `bytes`, what a file held right after `migrations` made its schema from no file at all,
    /// for ``copyMigratedFile(of:to:)`` (the first such file of the run is kept; later ones are the
    /// same bytes).
    func keepMigratedFile(_ bytes: [UInt8], of migrations: [[String]]) {
        templatesLock.lock()
        defer { templatesLock.unlock() }
        if migratedFiles[migrations] == nil { migratedFiles[migrations] = bytes }
    }

    /// Makes the new file `name` hold what `migrations` make from no file at all, when a file made by
    /// them in this folder was kept (``keepMigratedFile(_:of:)``); false: there is none, and nothing
    /// was made. SQLite writes the same bytes for the same statements on the same empty file, so the
    /// copy is byte for byte the file the migrations would have made.
    func copyMigratedFile(of migrations: [[String]], to name: String) -> Bool {
        templatesLock.lock()
        let bytes = migratedFiles[migrations]
        if bytes != nil { copies += 1 }
        templatesLock.unlock()
        guard let bytes else { return false }
        replace(name, with: bytes)
        return true
    }

    /// Removes the file `name`, when there is one.
    public func remove(_ name: String) {
        _ = devicesim_memory_folder_remove(folder, name)
    }

    /// Renames the file `from` to `to` (replacing a file of that name), when there is a file `from`.
    func rename(_ from: String, to: String) {
        _ = devicesim_memory_folder_rename(folder, from, to)
    }

    /// Writes every file into `folder` (made if needed), each replacing a file of its name there, with
    /// the permissions SQLite gives a file it creates (0644, less the umask). Files already in `folder`
    /// under other names are left alone.
    public func write(into folder: DataFolder) throws(DataFolderError) {
        var madeFolders: Set<String> = []
        for name in fileNames {
            guard let bytes = contents(of: name) else { continue }
            let path = folder.appending(name)
            let parent = (path as NSString).deletingLastPathComponent
            if madeFolders.insert(parent).inserted, !FileManager.default.fileExists(atPath: parent) {
                do {
                    try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true)
                } catch {
                    throw DataFolderError(path: parent, reason: (error as NSError).localizedDescription)
                }
            }
            if let reason = fileWritten(path, bytes) { throw DataFolderError(path: path, reason: reason) }
        }
    }
}

/// Writes `bytes` into the file at `path` (created 0644 less the umask, as SQLite creates one, or
/// truncated); nil, or the system's reason it could not.
private func fileWritten(_ path: String, _ bytes: [UInt8]) -> String? {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { return String(cString: strerror(errno)) }
    defer { _ = close(descriptor) }
    var written = 0
    while written < bytes.count {
        let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, $0.count - written) }
        if count < 0, errno == EINTR { continue }
        guard count > 0 else { return String(cString: strerror(errno)) }
        written += count
    }
    return nil
}

/// A memory folder could not be made.
public struct SQLiteMemoryFolderError: Error, Sendable, CustomStringConvertible {
    /// Why.
    public var reason: String

    public var description: String { "cannot keep the databases in memory: \(reason)" }
}
