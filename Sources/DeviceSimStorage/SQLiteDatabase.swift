import CSQLite
import DeviceSimHAL
import DeviceSimTime
import Foundation

/// One SQLite file (on disk, or in a ``SQLiteMemoryFolder`` until it is written out) with a versioned schema (`PRAGMA user_version`; `migrations` applied in
/// order on open), where every write is one transaction: a write that fails leaves what was saved
/// before exactly as it was. Injected ``StorageFaults`` make writes or reads fail;
/// ``damageFile()`` and ``killDuringNextWrite()`` damage the file or cut a write short the way a bad
/// sector or a crash would. The apps' stores (``SQLiteUserDataStore``, ``SQLiteTaskListStore``) keep
/// their tables in one.
///
/// ```swift
/// let database = SQLiteDatabase(path: dir + "/walker.sqlite", migrations: [["CREATE TABLE notes (text TEXT)"]], now: { scheduler.now })
/// database.faults.inject(.diskFull, count: 1)   // the next write fails and changes nothing
/// ```
public final class SQLiteDatabase {
    /// The database file.
    public var path: String { location() }
    /// The file's name in its folder.
    public let fileName: String
    private let location: () -> String
    /// Faults to inject (a device's databases may share one set).
    public let faults: StorageFaults
    /// Called when a write is cut short by ``killDuringNextWrite()`` (the simulation kills the app).
    public var onKilled: (() -> Void)?
    /// The schema, one migration per version (version N is `migrations[N-1]`).
    let migrations: [[String]]
    private let now: () -> VirtualInstant
    private var connection: SQLiteConnection?
    /// The pool that bounds how many connections are open at once (none: the connection stays open
    /// until ``close()``).
    private let pool: SQLiteConnectionPool?
    /// How many reads and writes are running on the connection now (the pool does not close it then).
    private var uses = 0
    /// Whether a read or a write is running on the connection now.
    var isInUse: Bool { uses > 0 }
    private var killNextWrite = false
    /// Where the files are (the disk, or a memory folder).
    private let files: DatabaseFiles
    /// The database file as ``files`` names it: its path on disk, its name in a memory folder.
    private var file: String { files.memory == nil ? path : fileName }
    private var corruptFilesSetAside = 0
    /// Whether the file's schema is the one ``migrations`` make, known because they made it from an
    /// empty file in this run (or it was copied from a file they made so: ``SQLiteMemoryFolder``
    /// keeps one per schema) and the file has changed only by writes since: another database with
    /// the same migrations in the same memory folder may then lend its connection to this one.
    private var schemaMadeByMigrations = false
    /// Whether the file is in a ``SQLiteMemoryFolder`` (only this database's writes change it then).
    public var isInMemoryFolder: Bool { files.memory != nil }
    /// Grows at the end of every write (committed, failed or killed) and whenever the file changes
    /// other than by a write (a crash image, damage, removal, a corrupt file set aside). A store that
    /// remembers what its last committed write left in a table can trust that memory while this is
    /// what it was right after that write (see ``SQLiteDatabase/isInMemoryFolder``: on disk, another
    /// program may change the file too).
    public private(set) var revision = 0
    /// Whether the next write is the one the app is killed in (``killDuringNextWrite()``): a store
    /// then runs every statement it would run without knowing what the file holds, so the file and
    /// journal the crash leaves are those of the whole write.
    public var isNextWriteKilled: Bool { killNextWrite }

    /// A database in the file at `path` (created, with its folder, on first use); `now` is the
    /// device's time, for faults that last a while.
    public init(path: String, migrations: [[String]], faults: StorageFaults = StorageFaults(), now: @escaping () -> VirtualInstant) {
        location = { path }
        fileName = (path as NSString).lastPathComponent
        self.migrations = migrations
        self.faults = faults
        pool = nil
        files = DatabaseFiles(memory: nil)
        self.now = now
    }

    /// A database in the file `file` of `folder` (a lazily made temporary folder is made when the file
    /// is first opened); with a `pool`, its connection is open only while the pool has room for it.
    /// With `memory`, the file (and its journal, and copies set aside) is the file named `file` in that
    /// memory folder, and `folder` is only where ``SQLiteMemoryFolder/write(into:)`` will put it.
    public init(
        folder: DataFolder, file: String, migrations: [[String]], faults: StorageFaults = StorageFaults(), pool: SQLiteConnectionPool? = nil,
        memory: SQLiteMemoryFolder? = nil, now: @escaping () -> VirtualInstant
    ) {
        location = { folder.appending(file) }
        fileName = file
        self.migrations = migrations
        self.faults = faults
        self.pool = pool
        files = DatabaseFiles(memory: memory)
        self.now = now
    }

    deinit { connection?.close() }

    /// The schema version of the open database.
    public func schemaVersion() throws(StorageError) -> Int {
        let db = try open()
        return Int(try run("schema") { () throws(SQLiteError) in try db.query("PRAGMA user_version").first?.first?.int ?? 0 })
    }

    /// SQLite's `PRAGMA integrity_check` result ("ok" for a sound file).
    public func integrityCheck() throws(StorageError) -> String {
        let db = try open()
        return try run("database") { () throws(SQLiteError) in try db.query("PRAGMA integrity_check").first?.first?.string ?? "" }
    }

    /// The name of the file the open connection was opened on (another's, when it was lent to this
    /// database); nil when none is open.
    var connectionName: String? { connection?.path }

    /// Whether this database's idle connection may serve `other` (``SQLiteConnectionPool/connection(lentTo:)``):
    /// it holds the schema `other`'s migrations make, and the files are in the same memory folder.
    func canLendConnection(to other: SQLiteDatabase) -> Bool {
        guard let memory = files.memory, memory === other.files.memory, let schema = connection?.schemaMigrations else { return false }
        return schema == other.migrations
    }

    /// Takes the open connection from this database (the next use opens one again), for another.
    func takeConnection() -> SQLiteConnection? {
        guard let connection else { return nil }
        self.connection = nil
        pool?.closed(self)
        return connection
    }

    /// Closes the connection (the app stops or is killed); the next use opens the file again.
    public func close() {
        guard let connection else { return }
        connection.close()
        self.connection = nil
        pool?.closed(self)
    }

    /// Deletes the database file and what SQLite and this store keep beside it (journal, files set
    /// aside as corrupt), so a kept data folder starts each run afresh: on disk, and (for a database
    /// in a memory folder) in the memory folder too.
    public func removeFiles() {
        close()
        revision += 1
        schemaMadeByMigrations = false
        if files.memory != nil {
            for name in [fileName, fileName + "-journal"] + (0..<corruptFilesSetAside).map({ fileName + ".corrupt-\($0 + 1)" }) { files.remove(name) }
        }
        let folder = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        let beside = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        for file in beside where file == name || file.hasPrefix(name + "-") || file.hasPrefix(name + ".corrupt-") {
            try? FileManager.default.removeItem(atPath: folder + "/" + file)
        }
    }

    // MARK: Crashes and damage

    /// The app is killed during its next write: the write's transaction has begun and its rows are
    /// written when the process dies; the file (and its rollback journal) are left as the crash left
    /// them, and SQLite recovers on the next open.
    public func killDuringNextWrite() {
        killNextWrite = true
    }

    /// Takes back ``killDuringNextWrite()`` before a write happened (another database of the device
    /// was written first, and the app died there).
    public func cancelKillDuringNextWrite() {
        killNextWrite = false
    }

    /// Damages the database file the way a bad sector would: its header is overwritten. The app finds
    /// out the next time it opens the database.
    public func damageFile() {
        close()
        revision += 1
        schemaMadeByMigrations = false
        files.overwriteStart(of: file, with: [UInt8](repeating: 0xA5, count: 100))
    }

    // MARK: Internals

    /// The open connection (opened, migrated or recovered on first use).
    public func open() throws(StorageError) -> SQLiteConnection {
        if let connection {
            pool?.touch(self)
            return connection
        }
        // A new file of a memory folder (no file, no journal): a copy of the file its migrations made
        // for another database of the folder, when one was kept (the same bytes, without parsing and
        // running every statement again; and its schema known, so a connection may be lent to it), or
        // kept from this one once they made it.
        var isNewMemoryFile = false
        if let memory = files.memory, !memory.hasFile(fileName), !memory.hasFile(fileName + "-journal") {
            isNewMemoryFile = true
            if memory.copyMigratedFile(of: migrations, to: fileName) { schemaMadeByMigrations = true }
        }
        if let lent = lentConnection() {
            connection = lent
            pool?.opened(self)
            return lent
        }
        let db: SQLiteConnection
        do {
            if let memory = files.memory {
                db = try SQLiteConnection(path: fileName, memory: memory)
            } else {
                db = try Self.connection(creatingFolderOf: path)
            }
            // Foreign keys on. A simulated phone's database lives for a run: no fsync on every
            // commit (`synchronous = OFF`). The rollback journal is still written before the pages,
            // so a killed app (`do: kill-app`) still leaves a hot journal that the next open rolls
            // back; only a crash of the machine itself could lose the last transactions.
            // The rollback journal is kept in memory (`journal_mode = MEMORY`): no journal file is
            // created, opened and closed around every write (a real cost when many devices write at
            // once: see docs/benchmarks.md, the fleet section). A write that fails still rolls back
            // from it. The one write that must leave a journal on disk, a kill's, switches to a file
            // journal first (`write`), and a hot journal left by a kill is rolled back by the next
            // open as before. Run once per open and not kept: a fleet's pool reopens files often.
            try db.executeOnce("PRAGMA foreign_keys = ON; PRAGMA synchronous = OFF; PRAGMA journal_mode = MEMORY")
            if try migrate(db) == 0 {
                schemaMadeByMigrations = true
                if isNewMemoryFile, let memory = files.memory, let bytes = memory.contents(of: fileName) { memory.keepMigratedFile(bytes, of: migrations) }
            }
            if schemaMadeByMigrations { db.schemaMigrations = migrations }
        } catch {
            if [SQLITE_NOTADB, SQLITE_CORRUPT].contains(error.primary) {
                corruptFilesSetAside += 1
                revision += 1
                schemaMadeByMigrations = false
                files.move(file, to: file + ".corrupt-\(corruptFilesSetAside)")
                files.remove(file + "-journal")
                throw .corrupt(file: (path as NSString).lastPathComponent, reason: error.message)
            }
            throw .readFailed(key: "database", reason: error.message)
        }
        connection = db
        pool?.opened(self)
        return db
    }

    /// The pool's least recently used idle connection, pointed at this database's file, when the pool
    /// is full and that connection holds this database's schema in its memory folder (see
    /// ``SQLiteConnectionPool/connection(lentTo:)``); nil: open one. Never for the write an app is
    /// killed in: its rollback journal must be the one named after this file.
    private func lentConnection() -> SQLiteConnection? {
        guard schemaMadeByMigrations, !killNextWrite, files.memory != nil, let pool, let lent = pool.connection(lentTo: self) else { return nil }
        if lent.retarget(toFile: fileName) { return lent }
        lent.close()
        return nil
    }

    /// A connection to `path`; its folder is made when the file cannot be opened without it (asking
    /// for the folder at every open was a file-system call per write of a fleet's devices).
    private static func connection(creatingFolderOf path: String) throws(SQLiteError) -> SQLiteConnection {
        do {
            return try SQLiteConnection(path: path)
        } catch where error.primary == SQLITE_CANTOPEN {
            try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            return try SQLiteConnection(path: path)
        }
    }

    /// Applies the migrations the file has not had; returns the schema version it had before.
    @discardableResult
    private func migrate(_ db: SQLiteConnection) throws(SQLiteError) -> Int {
        let version = Int(try db.queryOnce("PRAGMA user_version").first?.first?.int ?? 0)
        for (index, statements) in migrations.enumerated() where index >= version {
            try db.transaction { () throws(SQLiteError) in
                for statement in statements { try db.execute(statement) }
                try db.execute("PRAGMA user_version = \(index + 1)")
            }
        }
        return version
    }

    /// Runs `body`, turning an SQLite error into a ``StorageError`` about `key`.
    public func run<T>(_ key: String, _ body: () throws(SQLiteError) -> T) throws(StorageError) -> T {
        do { return try body() } catch { throw Self.storageError(error, key: key) }
    }

    /// Runs `body` on the open connection as a read of `key` (an injected read fault fails it first).
    public func read<T>(_ key: String, _ body: (SQLiteConnection) throws(SQLiteError) -> T) throws(StorageError) -> T {
        if faults.take(write: false, at: now()) != nil { throw .readFailed(key: key, reason: "an I/O error while reading the database; try again") }
        let db = try open()
        uses += 1
        defer {
            uses -= 1
            releaseCachedPagesWhenPoolIsFull(db)
        }
        return try run(key) { () throws(SQLiteError) in try body(db) }
    }

    /// Runs `body` as one write transaction of `key`: committed when it returns, rolled back (leaving
    /// everything as it was) when it or an injected fault fails.
    public func write<T>(_ key: String, _ body: (SQLiteConnection) throws(SQLiteError) -> T) throws(StorageError) -> T {
        let fault = faults.take(write: true, at: now())
        // The write an app is killed in runs on the file's own connection, whose rollback journal is
        // named after this file (a lent one's is named after the file it was opened on).
        if killNextWrite, let connection, connection.path != file { close() }
        let db = try open()
        uses += 1
        defer {
            uses -= 1
            revision += 1
            releaseCachedPagesWhenPoolIsFull(db)
        }
        if fault == .readOnly { try? db.execute("PRAGMA query_only = ON") }
        defer { if fault == .readOnly { try? db.execute("PRAGMA query_only = OFF") } }
        if killNextWrite {
            killNextWrite = false
            // A journal in a file, and a one-page cache that makes SQLite write changed pages into
            // the database before the commit: the crash leaves a half-written file and a hot
            // rollback journal beside it, as a real kill can. The cache starts empty (pages kept
            // from earlier transactions freed), so which pages SQLite spills, and when, does not
            // depend on what the connection read before.
            db.releaseCachedPages()
            try? db.execute("PRAGMA journal_mode = TRUNCATE")
            try? db.execute("PRAGMA cache_size = 1")
            try? db.execute("BEGIN IMMEDIATE")
            _ = try? body(db)
            crash()
            onKilled?()
            throw .writeFailed(key: key, reason: "the app was killed during the write")
        }
        return try run(key) { () throws(SQLiteError) in
            try db.transaction { () throws(SQLiteError) in
                let value = try body(db)
                switch fault {
                case .diskFull: throw SQLiteError(code: SQLITE_FULL, message: "database or disk is full")
                case .writeError: throw SQLiteError(code: SQLITE_IOERR, message: "disk I/O error")
                default: return value
                }
            }
        }
    }

    /// After a read or a write on a pooled connection: while the pool has room, the connection keeps
    /// its cached pages for this database's next transaction (SQLite keeps them when the file's change
    /// counter is the one it last saw, as it is when only this connection wrote the file), so a save
    /// reads no page back from the file; at most the pool's capacity of connections keep pages. Once
    /// the pool is full, the connection is likely lent to another file next (``lentConnection()``,
    /// whose retarget frees the pages anyway), so its pages are freed now: an idle connection then
    /// costs about a third less.
    private func releaseCachedPagesWhenPoolIsFull(_ db: SQLiteConnection) {
        if let pool, pool.isFull { db.releaseCachedPages() }
    }

    /// Whether the last simulated crash left a hot rollback journal beside the file (SQLite rolls it
    /// back on the next open).
    public private(set) var crashLeftJournal = false

    /// Leaves the file and its journal as they are on disk now, as a crash would.
    private func crash() {
        let names = [file, file + "-journal"]
        let images = names.map { files.contents($0) }
        crashLeftJournal = images[1].map { !$0.isEmpty } ?? false
        close()
        revision += 1
        schemaMadeByMigrations = false
        // Connections opened on this file and lent to others since would find its journal hot.
        pool?.closeConnections(named: file)
        for (name, image) in zip(names, images) { files.replace(name, with: image) }
    }

    private static func storageError(_ error: SQLiteError, key: String) -> StorageError {
        switch error.primary {
        case SQLITE_FULL: .noSpace(key: key)
        case SQLITE_READONLY: .readOnly(key: key)
        case SQLITE_IOERR: .writeFailed(key: key, reason: "the storage reported an I/O error; try again")
        default: .writeFailed(key: key, reason: error.message)
        }
    }
}
