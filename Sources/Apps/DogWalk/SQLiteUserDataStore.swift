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
        // Version 4: a signed-in account's data is synced with the server. Dogs and records have an
        // id common to every device (`uid`), the account the server revision it was last in step
        // with, and the changes not yet applied by the server wait in `pending_changes`, saved in the
        // transaction of the change itself.
        [
            "ALTER TABLE dogs ADD COLUMN uid TEXT",
            "ALTER TABLE business_records ADD COLUMN uid TEXT",
            "ALTER TABLE account ADD COLUMN revision INTEGER NOT NULL DEFAULT 0",
            "CREATE TABLE pending_changes (sequence INTEGER PRIMARY KEY AUTOINCREMENT, change TEXT NOT NULL)",
        ],
        // Version 5: the dogs' place in the account's list, as the server gives it at each sync, so
        // that every phone of the account finds the same first dog (NULL: not synced yet, after them).
        ["ALTER TABLE dogs ADD COLUMN position INTEGER"],
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
            let (dogs, records) = try Self.dogsAndRecords(db)
            return UserData(
                account: UserAccount(email: account[0].string, accessToken: account[1].string, isOffline: account[2].int == 1),
                dogs: dogs, records: records)
        }
    }

    public func replaceAll(with data: UserData, queued: Bool) throws(StorageError) {
        try database.write("user data") { db throws(SQLiteError) in
            try db.execute("DELETE FROM business_records")
            try db.execute("DELETE FROM dogs")
            try db.execute("DELETE FROM account")
            try db.execute("DELETE FROM pending_changes")
            try Self.insertAccount(data.account, into: db)
            for dog in data.dogs {
                let saved = try Self.insert(dog, into: db)
                if queued { try Self.queue(.addDog(saved), into: db) }
            }
            for record in data.records {
                let saved = try Self.insert(record, into: db)
                if queued, let dogUID = data.dogs.first(where: { $0.id == record.dogID })?.uid { try Self.queue(.addRecord(saved, dogUID: dogUID), into: db) }
            }
        }
    }

    public func saveAccount(_ account: UserAccount) throws(StorageError) {
        try database.write("account") { db throws(SQLiteError) in try Self.insertAccount(account, into: db) }
    }

    public func addDog(_ dog: DogProfile) throws(StorageError) -> DogProfile {
        try database.write("dog profile") { db throws(SQLiteError) in
            let saved = try Self.insert(dog, into: db)
            if try Self.isSynced(db), saved.uid != nil { try Self.queue(.addDog(saved), into: db) }
            return saved
        }
    }

    public func updateDog(_ dog: DogProfile, edits: [DogProfileEdit]) throws(StorageError) {
        try database.write("dog profile") { db throws(SQLiteError) in
            try db.execute("UPDATE dogs SET name = ?, sex = ?, date_of_birth = ? WHERE id = ?",
                           [SQLiteValue(dog.name), SQLiteValue(dog.sex?.rawValue), SQLiteValue(dog.dateOfBirth), .integer(dog.id ?? -1)])
            if try Self.isSynced(db), let uid = dog.uid, !edits.isEmpty { try Self.queue(.editDog(uid: uid, edits: edits), into: db) }
        }
    }

    public func addRecord(_ record: BusinessRecord) throws(StorageError) -> BusinessRecord {
        try database.write("business record") { db throws(SQLiteError) in
            let saved = try Self.insert(record, into: db)
            if try Self.isSynced(db), saved.uid != nil,
               let dogUID = try db.query("SELECT uid FROM dogs WHERE id = ?", [.integer(record.dogID)]).first?[0].string {
                try Self.queue(.addRecord(saved, dogUID: dogUID), into: db)
            }
            return saved
        }
    }

    public func deleteRecord(id: Int64) throws(StorageError) {
        try database.write("business record") { db throws(SQLiteError) in
            if try Self.isSynced(db), let uid = try db.query("SELECT uid FROM business_records WHERE id = ?", [.integer(id)]).first?[0].string {
                try Self.queue(.deleteRecord(uid: uid), into: db)
            }
            try db.execute("DELETE FROM business_records WHERE id = ?", [.integer(id)])
        }
    }

    public func pendingChanges() throws(StorageError) -> [PendingChange] {
        try database.read("changes to send") { db throws(SQLiteError) -> [PendingChange] in
            try db.query("SELECT sequence, change FROM pending_changes ORDER BY sequence").compactMap { row in
                guard let sequence = row[0].int, let change = row[1].string.flatMap(PendingChangeCoding.decode) else { return nil }
                return PendingChange(sequence: sequence, change: change)
            }
        }
    }

    public func applySync(_ reply: UserDataSyncReply, through sequence: Int64) throws(StorageError) -> UserData {
        try database.write("user data") { db throws(SQLiteError) -> UserData in
            try db.execute("DELETE FROM pending_changes WHERE sequence <= ?", [.integer(sequence)])
            let pending = try db.query("SELECT change FROM pending_changes ORDER BY sequence").compactMap { $0[0].string.flatMap(PendingChangeCoding.decode) }
            let (dogs, records) = try Self.dogsAndRecords(db)
            let target = UserDataRebase.target(local: UserData(account: .offline, dogs: dogs, records: records), server: reply.data, pending: pending)
            // Dogs: update the ones kept, insert the new ones, delete the ones gone (with their records).
            // Each takes its place in the account's list (the server's order, then the ones it has not
            // applied yet), the same on every phone.
            var dogIDs: [String: Int64] = [:]
            for (position, dog) in target.dogs.enumerated() {
                var id = dog.id
                if let known = id {
                    try db.execute("UPDATE dogs SET name = ?, sex = ?, date_of_birth = ? WHERE id = ?",
                                   [SQLiteValue(dog.name), SQLiteValue(dog.sex?.rawValue), SQLiteValue(dog.dateOfBirth), .integer(known)])
                } else {
                    id = try Self.insert(dog, into: db).id
                }
                guard let id else { continue }
                try db.execute("UPDATE dogs SET position = ? WHERE id = ?", [.integer(Int64(position)), .integer(id)])
                if let uid = dog.uid { dogIDs[uid] = id }
            }
            // (A dog or a record without a uid was never synced: it stays as it is.)
            for dog in dogs where dog.uid.map({ dogIDs[$0] == nil }) ?? false {
                try db.execute("DELETE FROM dogs WHERE id = ?", [.integer(dog.id ?? -1)])
            }
            // Records never change: keep the ones kept, insert the new ones (new ids), delete the rest.
            var kept = Set<Int64>()
            for (record, dogUID) in target.records {
                guard let dogID = dogIDs[dogUID] else { continue }
                if let id = record.id {
                    kept.insert(id)
                } else {
                    var record = record
                    record.dogID = dogID
                    if let id = try Self.insert(record, into: db).id { kept.insert(id) }
                }
            }
            for record in records where record.uid != nil && !kept.contains(record.id ?? -1) {
                try db.execute("DELETE FROM business_records WHERE id = ?", [.integer(record.id ?? -1)])
            }
            try db.execute("UPDATE account SET revision = ? WHERE id = 1", [.integer(Int64(reply.revision))])
            let account = try db.query("SELECT email, access_token, offline FROM account WHERE id = 1").first
            let (savedDogs, savedRecords) = try Self.dogsAndRecords(db)
            return UserData(
                account: UserAccount(email: account?[0].string, accessToken: account?[1].string, isOffline: account?[2].int == 1),
                dogs: savedDogs, records: savedRecords)
        }
    }

    public func close() { database.close() }

    private static func dogsAndRecords(_ db: SQLiteConnection) throws(SQLiteError) -> ([DogProfile], [BusinessRecord]) {
        let dogs = try db.query("SELECT id, name, sex, date_of_birth, uid FROM dogs ORDER BY position IS NULL, position, id").map { row in
            DogProfile(id: row[0].int, name: row[1].string, sex: row[2].string.flatMap(DogProfile.Sex.init), dateOfBirth: row[3].string, uid: row[4].string)
        }
        let records = try db.query("SELECT id, dog_id, kind, latitude, longitude, placed_at_ns, local_time, uid FROM business_records ORDER BY placed_at_ns, id").map { row in
            BusinessRecord(
                id: row[0].int, dogID: row[1].int ?? 0, kind: row[2].string.flatMap(BusinessRecord.Kind.init) ?? .pee,
                coordinate: GeoCoordinate(latitude: row[3].double ?? 0, longitude: row[4].double ?? 0),
                placedAt: VirtualInstant(nanoseconds: row[5].int ?? 0), localTime: row[6].string ?? "", uid: row[7].string)
        }
        return (dogs, records)
    }

    /// Whether changes are queued for the server: the account is a signed-in one.
    private static func isSynced(_ db: SQLiteConnection) throws(SQLiteError) -> Bool {
        try db.query("SELECT offline FROM account WHERE id = 1").first?[0].int == 0
    }

    private static func queue(_ change: UserDataChange, into db: SQLiteConnection) throws(SQLiteError) {
        try db.execute("INSERT INTO pending_changes (change) VALUES (?)", [.text(PendingChangeCoding.encode(change))])
    }

    private static func insertAccount(_ account: UserAccount, into db: SQLiteConnection) throws(SQLiteError) {
        try db.execute("INSERT OR REPLACE INTO account (id, email, access_token, offline) VALUES (1, ?, ?, ?)",
                       [SQLiteValue(account.email), SQLiteValue(account.accessToken), .integer(account.isOffline ? 1 : 0)])
    }

    private static func insert(_ dog: DogProfile, into db: SQLiteConnection) throws(SQLiteError) -> DogProfile {
        try db.execute("INSERT INTO dogs (id, name, sex, date_of_birth, uid) VALUES (?, ?, ?, ?, ?)",
                       [dog.id.map(SQLiteValue.integer) ?? .null, SQLiteValue(dog.name), SQLiteValue(dog.sex?.rawValue), SQLiteValue(dog.dateOfBirth), SQLiteValue(dog.uid)])
        var saved = dog
        saved.id = db.lastInsertID
        return saved
    }

    private static func insert(_ record: BusinessRecord, into db: SQLiteConnection) throws(SQLiteError) -> BusinessRecord {
        try db.execute(
            "INSERT INTO business_records (id, dog_id, kind, latitude, longitude, placed_at_ns, local_time, uid) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [record.id.map(SQLiteValue.integer) ?? .null, .integer(record.dogID), .text(record.kind.rawValue),
             .real(record.coordinate.latitude), .real(record.coordinate.longitude), .integer(record.placedAt.nanoseconds), .text(record.localTime),
             SQLiteValue(record.uid)])
        var saved = record
        saved.id = db.lastInsertID
        return saved
    }
}

/// A queued change as the text of a `pending_changes` row: tab-separated fields, the first naming
/// the change, each value escaped (`\t`, `\n`, `\\`) and `\0` standing for nil.
enum PendingChangeCoding {
    static func encode(_ change: UserDataChange) -> String {
        let fields: [String?]
        switch change {
        case .addDog(let dog):
            fields = ["add-dog", dog.uid, dog.name, dog.sex?.rawValue, dog.dateOfBirth]
        case .editDog(let uid, let edits):
            fields = ["edit-dog", uid] + edits.flatMap { [$0.attribute.rawValue, $0.old, $0.new] }
        case .addRecord(let record, let dogUID):
            fields = ["add-record", record.uid, dogUID, record.kind.rawValue, "\(record.coordinate.latitude)", "\(record.coordinate.longitude)",
                      "\(record.placedAt.nanoseconds)", record.localTime]
        case .deleteRecord(let uid):
            fields = ["delete-record", uid]
        }
        return fields.map { field in
            guard let field else { return "\\0" }
            return field.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\t", with: "\\t").replacingOccurrences(of: "\n", with: "\\n")
        }.joined(separator: "\t")
    }

    static func decode(_ text: String) -> UserDataChange? {
        let fields: [String?] = text.split(separator: "\t", omittingEmptySubsequences: false).map { raw in
            guard raw != "\\0" else { return nil }
            var value = ""
            var escaped = false
            for character in raw {
                if escaped {
                    value.append(character == "t" ? "\t" : character == "n" ? "\n" : character)
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else {
                    value.append(character)
                }
            }
            return value
        }
        guard let kind = fields.first ?? nil else { return nil }
        switch (kind, fields.count) {
        case ("add-dog", 5):
            return .addDog(DogProfile(name: fields[2], sex: fields[3].flatMap(DogProfile.Sex.init), dateOfBirth: fields[4], uid: fields[1]))
        case ("edit-dog", let count) where count >= 2 && (count - 2) % 3 == 0:
            guard let uid = fields[1] else { return nil }
            let edits = stride(from: 2, to: count, by: 3).compactMap { index -> DogProfileEdit? in
                guard let attribute = fields[index].flatMap(DogProfile.Attribute.init) else { return nil }
                return DogProfileEdit(attribute: attribute, old: fields[index + 1], new: fields[index + 2])
            }
            return .editDog(uid: uid, edits: edits)
        case ("add-record", 8):
            guard let dogUID = fields[2], let kind = fields[3].flatMap(BusinessRecord.Kind.init), let latitude = fields[4].flatMap(Double.init),
                  let longitude = fields[5].flatMap(Double.init), let nanoseconds = fields[6].flatMap(Int64.init) else { return nil }
            return .addRecord(BusinessRecord(dogID: 0, kind: kind, coordinate: GeoCoordinate(latitude: latitude, longitude: longitude),
                                             placedAt: VirtualInstant(nanoseconds: nanoseconds), localTime: fields[7] ?? "", uid: fields[1]), dogUID: dogUID)
        case ("delete-record", 2):
            return fields[1].map { .deleteRecord(uid: $0) }
        default:
            return nil
        }
    }
}
