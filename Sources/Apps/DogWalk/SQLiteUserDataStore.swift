import CSQLite
import DeviceSimHAL
import DeviceSimStorage
import DeviceSimTime
import Foundation

/// The dog-walk map's user data (the account and its access token, the dog friends, their business
/// records) in tables of an ``SQLiteDatabase`` (one file per device), with migrations. Every write is
/// one transaction, so a write that fails leaves what was saved before exactly as it was.
///
/// ```swift
/// let store = SQLiteUserDataStore(path: dir + "/walker.sqlite", now: { scheduler.now })
/// try store.replaceAll(with: UserData(account: .offline))
/// sqlite3 walker.sqlite 'SELECT kind, local_time FROM business_records'
/// ```
public final class SQLiteUserDataStore: UserDataStore {
    /// The database file the tables are in.
    public let database: SQLiteDatabase

    /// The schema, one migration per version (version N is `migrations[N-1]`).
    public static let migrations: [[String]] = [
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
        // Version 3: a record's id is never given again after it was deleted (a confirmation still
        // showing for a deleted record must not delete a newer one that took its id).
        [
            """
            CREATE TABLE business_records_v3 (
                id INTEGER PRIMARY KEY AUTOINCREMENT,
                dog_id INTEGER NOT NULL REFERENCES dogs(id) ON DELETE CASCADE,
                kind TEXT NOT NULL CHECK (kind IN ('pee', 'poo')),
                latitude REAL NOT NULL,
                longitude REAL NOT NULL,
                placed_at_ns INTEGER NOT NULL,
                local_time TEXT NOT NULL DEFAULT '')
            """,
            """
            INSERT INTO business_records_v3 (id, dog_id, kind, latitude, longitude, placed_at_ns, local_time)
                SELECT id, dog_id, kind, latitude, longitude, placed_at_ns, local_time FROM business_records
            """,
            "DROP TABLE business_records",
            "ALTER TABLE business_records_v3 RENAME TO business_records",
            "CREATE INDEX business_records_by_dog ON business_records(dog_id, placed_at_ns)",
        ],
    ]

    /// A store in the file at `path` (created on first use); `now` is the device's time, for faults.
    public convenience init(path: String, faults: StorageFaults = StorageFaults(), now: @escaping () -> VirtualInstant) {
        self.init(database: SQLiteDatabase(path: path, migrations: Self.migrations, faults: faults, now: now))
    }

    /// A store in `database`, which must have been made with ``migrations``.
    public init(database: SQLiteDatabase) {
        self.database = database
    }

    /// The database file.
    public var path: String { database.path }
    /// Faults to inject.
    public var faults: StorageFaults { database.faults }
    /// Called when a write is cut short by ``killDuringNextWrite()``.
    public var onKilled: (() -> Void)? {
        get { database.onKilled }
        set { database.onKilled = newValue }
    }
    /// Whether the last simulated crash left a rollback journal beside the file.
    public var crashLeftJournal: Bool { database.crashLeftJournal }
    /// The schema version of the open database.
    public func schemaVersion() throws(StorageError) -> Int { try database.schemaVersion() }
    /// SQLite's `PRAGMA integrity_check` result ("ok" for a sound file).
    public func integrityCheck() throws(StorageError) -> String { try database.integrityCheck() }
    /// Deletes the file and what SQLite keeps beside it.
    public func removeFiles() { database.removeFiles() }
    /// The app is killed during its next write (see ``SQLiteDatabase/killDuringNextWrite()``).
    public func killDuringNextWrite() { database.killDuringNextWrite() }
    /// Damages the file (see ``SQLiteDatabase/damageFile()``).
    public func damageFile() { database.damageFile() }

    // MARK: UserDataStore

    public func load() throws(StorageError) -> UserData? {
        try database.read("user data") { db throws(SQLiteError) -> UserData? in
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
        try database.write("user data") { db throws(SQLiteError) in
            try db.execute("DELETE FROM business_records")
            try db.execute("DELETE FROM dogs")
            try db.execute("DELETE FROM account")
            try Self.insertAccount(data.account, into: db)
            for dog in data.dogs { _ = try Self.insert(dog, into: db) }
            for record in data.records { _ = try Self.insert(record, into: db) }
        }
    }

    public func saveAccount(_ account: UserAccount) throws(StorageError) {
        try database.write("account") { db throws(SQLiteError) in try Self.insertAccount(account, into: db) }
    }

    public func addDog(_ dog: DogProfile) throws(StorageError) -> DogProfile {
        try database.write("dog profile") { db throws(SQLiteError) in try Self.insert(dog, into: db) }
    }

    public func updateDog(_ dog: DogProfile) throws(StorageError) {
        try database.write("dog profile") { db throws(SQLiteError) in
            try db.execute("UPDATE dogs SET name = ?, sex = ?, date_of_birth = ? WHERE id = ?",
                           [SQLiteValue(dog.name), SQLiteValue(dog.sex?.rawValue), SQLiteValue(dog.dateOfBirth), .integer(dog.id ?? -1)])
        }
    }

    public func addRecord(_ record: BusinessRecord) throws(StorageError) -> BusinessRecord {
        try database.write("business record") { db throws(SQLiteError) in try Self.insert(record, into: db) }
    }

    public func deleteRecord(id: Int64) throws(StorageError) {
        try database.write("business record") { db throws(SQLiteError) in try db.execute("DELETE FROM business_records WHERE id = ?", [.integer(id)]) }
    }

    public func close() { database.close() }

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
