import Foundation

/// Where a database's files are kept, and what ``SQLiteDatabase`` does to them outside SQLite
/// (a crash's images, a damaged header, a file set aside as corrupt): files on disk, named by their
/// paths, or files of a memory folder, named by their names in it.
struct DatabaseFiles {
    /// The memory folder; nil: the disk.
    let memory: SQLiteMemoryFolder?

    /// The bytes of `file`; nil when there is none.
    func contents(_ file: String) -> [UInt8]? {
        if let memory { return memory.contents(of: file) }
        return FileManager.default.contents(atPath: file).map { [UInt8]($0) }
    }

    /// Makes `file` hold `bytes` (nil: removes it).
    func replace(_ file: String, with bytes: [UInt8]?) {
        guard let bytes else { return remove(file) }
        if let memory { return memory.replace(file, with: bytes) }
        _ = FileManager.default.createFile(atPath: file, contents: Data(bytes))
    }

    /// Removes `file`, when there is one.
    func remove(_ file: String) {
        if let memory { return memory.remove(file) }
        try? FileManager.default.removeItem(atPath: file)
    }

    /// Renames `file` to `name`, when there is a file `file` (a file `name` is removed first).
    func move(_ file: String, to name: String) {
        remove(name)
        if let memory { return memory.rename(file, to: name) }
        try? FileManager.default.moveItem(atPath: file, toPath: name)
    }

    /// Overwrites the first bytes of `file` with `bytes`, when there is a file `file`.
    func overwriteStart(of file: String, with bytes: [UInt8]) {
        if let memory { return memory.overwrite(file, at: 0, with: bytes) }
        guard let handle = FileHandle(forUpdatingAtPath: file) else { return }
        try? handle.seek(toOffset: 0)
        try? handle.write(contentsOf: Data(bytes))
        try? handle.close()
    }
}
