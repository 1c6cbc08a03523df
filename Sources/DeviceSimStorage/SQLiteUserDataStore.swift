import CSQLite
import DeviceSimHAL
import DeviceSimTime
import Foundation

/// The app's user data in an SQLite file on disk (one per device), with a versioned schema
/// (`PRAGMA user_version`, migrations applied in order on open). Every write is one transaction, so
/// a write that fails leaves what was saved before exactly as it was. Injected ``StorageFaults``
/// make writes or reads fail; ``damageFile()`` and ``kill()`` damage the file or cut a write short the
/// way a crash would.
///
/// ```swift
/// let store = SQLiteUserDataStore(path: dir + "/walker.sqlite", now: { scheduler.now })
/// try store.replaceAll(with: UserData(account: .offline))
/// sqlite3 walker.sqlite 'SELECT kind, local_time FROM business_records'
/// ```
public final class SQLiteUserDataStore: UserDataStore {
    /// The database file.
    public let path: String
    /// Faults to inject.
    public let faults = StorageFaults()
    private let now: () -> VirtualInstant
    private var connection: SQLiteConnection?
    private var killNextWrite = false
    /// Called when a write is cut short by ``killDuringNextWrite()`` (the simulation kills the app).
    public var onKilled: (() -> Void)?
    private var corruptFilesSetAside = 0

    /// The schema, one migration per version (version N is `migrations[N-1]`).
    static let migrations: [[String]] = [
        [
            """
            CREATE TABLE account (
                id INTEGER PRIMARY KEY CHECK (id = 1),
                email TEXT,
                access_token TEXT,
                offline INTEGER NOT NULL)
            """,
            """
            CREATE TABLE dogs (
                id INTEGER PRIMARY KEY,
                name TEXT,
                sex TEXT CHECK (sex IN ('female', 'male')),
                date_of_birth TEXT)
            """,
            """
            CREATE TABLE business_records (
                id INTEGER PRIMARY KEY,
                dog_id INTEGER NOT NULL REFERENCES dogs(id) ON DELETE CASCADE,
                kind TEXT NOT NULL CHECK (kind IN ('pee', 'poo')),
                latitude REAL NOT NULL,
                longitude REAL NOT NULL,
                placed_at_ns INTEGER NOT NULL)
            """,
        ],
        [
            "ALTER TABLE business_records ADD COLUMN local_time TEXT NOT NULL DEFAULT ''",
            "CREATE INDEX business_records_by_dog ON business_records(dog_id, placed_at_ns)",
        ],
    ]

    /// A store in the file at `path` (created on first use); `now` is the device's time, for faults.
    public init(path: String, now: @escaping () -> VirtualInstant) {
        self.path = path
        self.now = now
    }

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

    // MARK: UserDataStore

    public func load() throws(StorageError) -> UserData? {
        if faults.take(write: false, at: now()) != nil { throw .readFailed(key: "user data", reason: "an I/O error while reading the database; try again") }
        let db = try open()
        return try run("user data") { () throws(SQLiteError) -> UserData? in
            guard let account = try db.query("SELECT email, access_token, offline FROM account WHERE id = 1").first else { return nil }
            let dogs = try db.query("SELECT id, name, sex, date_of_birth FROM dogs ORDER BY id").map { row in
                DogProfile(id: row[0].int, name: row[1].string, sex: row[2].string.flatMap(DogProfile.Sex.init), dateOfBirth: row[3].string)
            }
            let records = try db.query("SELECT id, dog_id, kind, latitude, longitude, placed_at_ns, local_time FROM business_records ORDER BY placed_at_ns, id").map { row in
                BusinessRecord(
                    id: row[0].int, dogID: row[1].int ?? 0, kind: row[2].string.flatMap(BusinessRecord.Kind.init) ?? .pee,
                    coordinate: GeoCoordinate(latitude: row[3].double ?? 0, longitude: row[4].double ?? 0),
                    placedAt: VirtualInstant(nanoseconds: row[5].int ?? 0), localTime: row[6].string ?? "")
            }
            return UserData(
                account: UserAccount(email: account[0].string, accessToken: account[1].string, isOffline: account[2].int == 1),
                dogs: dogs, records: records)
        }
    }

    public func replaceAll(with data: UserData) throws(StorageError) {
        try write("user data") { db throws(SQLiteError) in
            try db.execute("DELETE FROM business_records")
            try db.execute("DELETE FROM dogs")
            try db.execute("DELETE FROM account")
            try Self.insertAccount(data.account, into: db)
            for dog in data.dogs { _ = try Self.insert(dog, into: db) }
            for record in data.records { _ = try Self.insert(record, into: db) }
        }
    }

    public func saveAccount(_ account: UserAccount) throws(StorageError) {
        try write("account") { db throws(SQLiteError) in try Self.insertAccount(account, into: db) }
    }

    public func addDog(_ dog: DogProfile) throws(StorageError) -> DogProfile {
        try write("dog profile") { db throws(SQLiteError) in try Self.insert(dog, into: db) }
    }

    public func updateDog(_ dog: DogProfile) throws(StorageError) {
        try write("dog profile") { db throws(SQLiteError) in
            try db.execute("UPDATE dogs SET name = ?, sex = ?, date_of_birth = ? WHERE id = ?",
                           [SQLiteValue(dog.name), SQLiteValue(dog.sex?.rawValue), SQLiteValue(dog.dateOfBirth), .integer(dog.id ?? -1)])
        }
    }

    public func addRecord(_ record: BusinessRecord) throws(StorageError) -> BusinessRecord {
        try write("business record") { db throws(SQLiteError) in try Self.insert(record, into: db) }
    }

    public func deleteRecord(id: Int64) throws(StorageError) {
        try write("business record") { db throws(SQLiteError) in try db.execute("DELETE FROM business_records WHERE id = ?", [.integer(id)]) }
    }

    public func close() {
        connection?.close()
        connection = nil
    }

    /// Deletes the database file and what SQLite and this store keep beside it (journal, files set
    /// aside as corrupt), so a kept data folder starts each run afresh.
    public func removeFiles() {
        close()
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

    /// Damages the database file the way a bad sector would: its header is overwritten. The app finds
    /// out the next time it opens the database.
    public func damageFile() {
        close()
        guard let handle = FileHandle(forUpdatingAtPath: path) else { return }
        try? handle.seek(toOffset: 0)
        try? handle.write(contentsOf: Data(repeating: 0xA5, count: 100))
        try? handle.close()
    }

    // MARK: Internals

    private func open() throws(StorageError) -> SQLiteConnection {
        if let connection { return connection }
        let db: SQLiteConnection
        do {
            try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            db = try SQLiteConnection(path: path)
            try db.execute("PRAGMA foreign_keys = ON")
            try migrate(db)
        } catch {
            if [SQLITE_NOTADB, SQLITE_CORRUPT].contains(error.primary) {
                corruptFilesSetAside += 1
                let aside = path + ".corrupt-\(corruptFilesSetAside)"
                try? FileManager.default.removeItem(atPath: aside)
                try? FileManager.default.moveItem(atPath: path, toPath: aside)
                try? FileManager.default.removeItem(atPath: path + "-journal")
                throw .corrupt(file: (path as NSString).lastPathComponent, reason: error.message)
            }
            throw .readFailed(key: "database", reason: error.message)
        }
        connection = db
        return db
    }

    private func migrate(_ db: SQLiteConnection) throws(SQLiteError) {
        let version = Int(try db.query("PRAGMA user_version").first?.first?.int ?? 0)
        for (index, statements) in Self.migrations.enumerated() where index >= version {
            try db.transaction { () throws(SQLiteError) in
                for statement in statements { try db.execute(statement) }
                try db.execute("PRAGMA user_version = \(index + 1)")
            }
        }
    }

    private func run<T>(_ key: String, _ body: () throws(SQLiteError) -> T) throws(StorageError) -> T {
        do { return try body() } catch { throw Self.storageError(error, key: key) }
    }

    private func write<T>(_ key: String, _ body: (SQLiteConnection) throws(SQLiteError) -> T) throws(StorageError) -> T {
        let fault = faults.take(write: true, at: now())
        let db = try open()
        if fault == .readOnly { try? db.execute("PRAGMA query_only = ON") }
        defer { if fault == .readOnly { try? db.execute("PRAGMA query_only = OFF") } }
        if killNextWrite {
            killNextWrite = false
            // A one-page cache makes SQLite write changed pages into the file before the commit, so
            // the crash leaves a half-written file and a hot rollback journal, as a real kill can.
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

    /// Whether the last simulated crash left a hot rollback journal beside the file (SQLite rolls it
    /// back on the next open).
    public private(set) var crashLeftJournal = false

    /// Leaves the file and its journal as they are on disk now, as a crash would.
    private func crash() {
        let files = [path, path + "-journal"]
        let images = files.map { FileManager.default.contents(atPath: $0) }
        crashLeftJournal = images[1].map { !$0.isEmpty } ?? false
        close()
        for (file, image) in zip(files, images) {
            if let image { _ = FileManager.default.createFile(atPath: file, contents: image) } else { try? FileManager.default.removeItem(atPath: file) }
        }
    }

    private static func storageError(_ error: SQLiteError, key: String) -> StorageError {
        switch error.primary {
        case SQLITE_FULL: .noSpace(key: key)
        case SQLITE_READONLY: .readOnly(key: key)
        case SQLITE_IOERR: .writeFailed(key: key, reason: "the storage reported an I/O error; try again")
        default: .writeFailed(key: key, reason: error.message)
        }
    }

    private static func insertAccount(_ account: UserAccount, into db: SQLiteConnection) throws(SQLiteError) {
        try db.execute("INSERT OR REPLACE INTO account (id, email, access_token, offline) VALUES (1, ?, ?, ?)",
                       [SQLiteValue(account.email), SQLiteValue(account.accessToken), .integer(account.isOffline ? 1 : 0)])
    }

    private static func insert(_ dog: DogProfile, into db: SQLiteConnection) throws(SQLiteError) -> DogProfile {
        try db.execute("INSERT INTO dogs (id, name, sex, date_of_birth) VALUES (?, ?, ?, ?)",
                       [dog.id.map(SQLiteValue.integer) ?? .null, SQLiteValue(dog.name), SQLiteValue(dog.sex?.rawValue), SQLiteValue(dog.dateOfBirth)])
        var saved = dog
        saved.id = db.lastInsertID
        return saved
    }

    private static func insert(_ record: BusinessRecord, into db: SQLiteConnection) throws(SQLiteError) -> BusinessRecord {
        try db.execute(
            "INSERT INTO business_records (id, dog_id, kind, latitude, longitude, placed_at_ns, local_time) VALUES (?, ?, ?, ?, ?, ?, ?)",
            [record.id.map(SQLiteValue.integer) ?? .null, .integer(record.dogID), .text(record.kind.rawValue),
             .real(record.coordinate.latitude), .real(record.coordinate.longitude), .integer(record.placedAt.nanoseconds), .text(record.localTime)])
        var saved = record
        saved.id = db.lastInsertID
        return saved
    }
}
