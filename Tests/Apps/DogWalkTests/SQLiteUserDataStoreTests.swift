@testable import DeviceSimStorage
@testable import DeviceSimDogWalk
import CSQLite
import DeviceSimHAL
import DeviceSimTime
import Foundation
import Testing

@Suite final class SQLiteUserDataStoreTests {
    let folder: DataFolder
    var directory: String { folder.path }

    init() throws {
        folder = try DataFolder.temporary(prefix: "devicesim-storage-tests-")
    }

    func store(_ name: String = "walker") -> SQLiteUserDataStore {
        SQLiteUserDataStore(path: directory + "/\(name).sqlite", now: { .zero })
    }

    func record(_ dog: Int64, _ kind: BusinessRecord.Kind, _ second: Int64) -> BusinessRecord {
        BusinessRecord(dogID: dog, kind: kind, coordinate: GeoCoordinate(latitude: 52.5 + Double(second) * 1e-5, longitude: 13.4),
                       placedAt: VirtualInstant(nanoseconds: second * 1_000_000_000), localTime: "t\(second)")
    }

    @Test func savesAndReloadsUserDataAcrossConnections() throws {
        let first = store()
        #expect(try first.load() == nil)
        try first.replaceAll(with: UserData(account: UserAccount(email: "a@example.org", accessToken: "tok", isOffline: false)))
        let dog = try first.addDog(DogProfile(name: "Rex", sex: .male, dateOfBirth: "2020-04-01"))
        _ = try first.addRecord(record(dog.id!, .pee, 1))
        _ = try first.addRecord(record(dog.id!, .poo, 2))
        first.close()

        let loaded = try #require(try store().load())
        #expect(loaded.account.accessToken == "tok")
        #expect(loaded.dogs == [dog])
        #expect(loaded.records.map(\.kind) == [.pee, .poo])
        #expect(try store().schemaVersion() == SQLiteUserDataStore.migrations.count)
    }

    @Test func aDeletedRecordsIdIsNeverGivenAgain() throws {
        let db = store()
        try db.replaceAll(with: UserData(account: .offline))
        let dog = try db.addDog(DogProfile(name: "Rex"))
        let pee = try db.addRecord(record(dog.id!, .pee, 1))
        let poo = try db.addRecord(record(dog.id!, .poo, 2))
        try db.deleteRecord(id: poo.id!)
        let later = try db.addRecord(record(dog.id!, .poo, 3))
        #expect(later.id != poo.id, "a confirmation still showing for the deleted poo would delete this one")
        // A stale confirmation for the deleted record deletes nothing.
        try db.deleteRecord(id: poo.id!)
        #expect(try db.load()?.records.map(\.id) == [pee.id, later.id])
    }

    @Test func failedWritesLeaveEarlierDataAndALaterRetrySucceeds() throws {
        let db = store()
        try db.replaceAll(with: UserData(account: .offline))
        let dog = try db.addDog(DogProfile(name: "Rex"))
        _ = try db.addRecord(record(dog.id!, .pee, 1))
        for kind in [StorageFaults.Kind.diskFull, .writeError, .readOnly] {
            db.faults.inject(kind, count: 1)
            #expect(throws: StorageError.self) { try db.addRecord(record(dog.id!, .poo, 2)) }
            #expect(try db.load()?.records.map(\.kind) == [.pee])
        }
        db.faults.inject(.diskFull, count: 1)
        #expect(throws: StorageError.noSpace(key: "user data")) { try db.replaceAll(with: UserData(account: .offline)) }
        #expect(try db.load()?.dogs.count == 1)
        _ = try db.addRecord(record(dog.id!, .poo, 3))
        #expect(try db.load()?.records.map(\.kind) == [.pee, .poo])
    }

    @Test func readErrorsFailTheReadOnly() throws {
        let db = store()
        try db.replaceAll(with: UserData(account: .offline))
        db.faults.inject(.readError, count: 1)
        #expect(throws: StorageError.self) { try db.load() }
        #expect(try db.load() != nil)
    }

    @Test func killedMidWriteTheDatabaseHoldsEveryEarlierRecord() throws {
        let db = store()
        try db.replaceAll(with: UserData(account: .offline))
        let dog = try db.addDog(DogProfile(name: "Rex"))
        var saved: [BusinessRecord] = []
        for second in 1...50 { saved.append(try db.addRecord(record(dog.id!, second % 3 == 0 ? .poo : .pee, Int64(second)))) }
        db.killDuringNextWrite()
        var killed = false
        db.onKilled = { killed = true }
        db.close()
        let before = try #require(FileManager.default.contents(atPath: db.path))
        #expect(throws: StorageError.self) {
            try db.replaceAll(with: UserData(account: .offline, dogs: [DogProfile(name: "Other")], records: []))
        }
        #expect(killed)
        // The kill left what a real one can: a hot rollback journal beside a half-written file.
        #expect(db.crashLeftJournal)
        #expect(FileManager.default.fileExists(atPath: db.path + "-journal"))
        #expect(FileManager.default.contents(atPath: db.path) != before, "the write had reached the file when it was cut short")
        let reopened = store()
        let loaded = try #require(try reopened.load())
        #expect(loaded.records == saved)
        #expect(loaded.dogs == [dog])
        let check = try reopened.integrityCheck()
        #expect(check == "ok")
    }

    @Test func writesKeepTheirJournalInMemoryAndAFailedOneStillRollsBack() throws {
        let db = store()
        try db.replaceAll(with: UserData(account: .offline))
        let dog = try db.addDog(DogProfile(name: "Rex"))
        // No journal file is made beside the database for an ordinary write (one file per device).
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["walker.sqlite"])
        db.faults.inject(.diskFull, count: 1)
        #expect(throws: StorageError.self) { try db.addRecord(record(dog.id!, .pee, 1)) }
        let reopened = try #require(try store().load())
        #expect(reopened.records.isEmpty)
        #expect(reopened.dogs == [dog])
    }

    @Test func sqliteKeepsNoMemoryStatisticsThatWouldMakeThreadsQueueOnOneMutex() throws {
        let db = store()
        try db.replaceAll(with: UserData(account: .offline))
        let dog = try db.addDog(DogProfile(name: "Rex"))
        for second in 1...20 { _ = try db.addRecord(record(dog.id!, .pee, Int64(second))) }
        // With the statistics on, SQLite counts every allocation under a process-wide mutex, and
        // would report the memory its open connections hold here.
        #expect(sqlite3_memory_used() == 0)
    }

    @Test func aDamagedFileIsSetAsideAndANewOneStarts() throws {
        let db = store()
        try db.replaceAll(with: UserData(account: .offline))
        db.damageFile()
        #expect(throws: StorageError.self) { try db.load() }
        #expect(FileManager.default.fileExists(atPath: db.path + ".corrupt-1"))
        #expect(try db.load() == nil)
    }

    @Test func aKeptFolderIsClearedOfAnEarlierRunsFilesATemporaryOneIsRemoved() throws {
        let db = store()
        try db.replaceAll(with: UserData(account: .offline))
        db.damageFile()
        #expect(throws: StorageError.self) { try db.load() }
        try db.replaceAll(with: UserData(account: .offline))
        db.removeFiles()
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
        var temporary: DataFolder? = try DataFolder.temporary(prefix: "devicesim-storage-tests-")
        let path = temporary!.path
        #expect(FileManager.default.fileExists(atPath: path))
        temporary = nil
        #expect(!FileManager.default.fileExists(atPath: path))
        // A folder made when first used: nothing on disk until a database opens in it.
        // (The folder lives as long as a database in it does.)
        var lazy: DataFolder? = DataFolder.temporaryWhenFirstUsed(prefix: "devicesim-storage-tests-")
        var database: SQLiteUserDataStore? = SQLiteUserDataStore(database: SQLiteDatabase(
            folder: lazy!, file: "walker.sqlite", migrations: SQLiteUserDataStore.migrations, now: { .zero }))
        #expect(lazy?.isMade == false)
        try database?.replaceAll(with: UserData(account: .offline))
        let made = try #require(lazy?.path)
        #expect(FileManager.default.fileExists(atPath: made + "/walker.sqlite"))
        lazy = nil
        #expect(FileManager.default.fileExists(atPath: made))
        database = nil
        #expect(!FileManager.default.fileExists(atPath: made))
    }

    @Test func aVersion1DatabaseIsMigratedKeepingItsRecords() throws {
        let path = directory + "/old.sqlite"
        let old = try SQLiteConnection(path: path)
        for statement in SQLiteUserDataStore.migrations[0] { try old.execute(statement) }
        try old.execute("PRAGMA user_version = 1")
        try old.execute("INSERT INTO account (id, offline) VALUES (1, 1)")
        try old.execute("INSERT INTO dogs (id, name) VALUES (1, 'Rex')")
        try old.execute("INSERT INTO business_records (dog_id, kind, latitude, longitude, placed_at_ns) VALUES (1, 'poo', 52.5, 13.4, 0)")
        old.close()
        let migrated = SQLiteUserDataStore(path: path, now: { .zero })
        #expect(try migrated.schemaVersion() == SQLiteUserDataStore.migrations.count)
        let loaded = try #require(try migrated.load())
        #expect(loaded.records.map(\.kind) == [.poo])
        #expect(loaded.records.first?.localTime == "")
    }

    /// A signed-in store with Rex (`d1`) and a pee (`r1`) already in step with the server.
    func signedIn() throws -> SQLiteUserDataStore {
        let db = store()
        try db.replaceAll(with: UserData(account: UserAccount(email: "a@example.org", accessToken: "tok", isOffline: false),
                                         dogs: [DogProfile(id: 1, name: "Rex", uid: "d1")], records: [withUID(record(1, .pee, 1), "r1")]))
        return db
    }

    func withUID(_ record: BusinessRecord, _ uid: String) -> BusinessRecord {
        var record = record
        record.uid = uid
        return record
    }

    @Test func aSignedInAccountsChangesAreQueuedWithTheChangeAndAnOfflineAccountsAreNot() throws {
        let db = try signedIn()
        #expect(try db.pendingChanges().isEmpty)
        let poo = try db.addRecord(withUID(record(1, .poo, 2), "r2"))
        try db.deleteRecord(id: 1)
        var rex = try #require(try db.load()?.dogs.first)
        let old = rex
        rex.sex = .male
        try db.updateDog(rex, edits: DogProfileEdit.between(old, rex))
        let queued = try db.pendingChanges()
        #expect(queued.map(\.change) == [
            .addRecord(BusinessRecord(dogID: 0, kind: .poo, coordinate: poo.coordinate, placedAt: poo.placedAt, localTime: poo.localTime, uid: "r2"), dogUID: "d1"),
            .deleteRecord(uid: "r1"), .editDog(uid: "d1", edits: [DogProfileEdit(attribute: .sex, old: nil, new: "male")]),
        ])
        // A failed write queues nothing.
        db.faults.inject(.diskFull, count: 1)
        #expect(throws: StorageError.self) { try db.addRecord(self.withUID(self.record(1, .pee, 3), "r3")) }
        #expect(try db.pendingChanges().count == 3)

        let offline = store("offline")
        try offline.replaceAll(with: UserData(account: .offline, dogs: [DogProfile(id: 1, name: "Rex", uid: "d1")]))
        _ = try offline.addRecord(withUID(record(1, .pee, 1), "r1"))
        #expect(try offline.pendingChanges().isEmpty)
    }

    @Test func aSyncTakesTheServersDataWithTheChangesQueuedSinceOnTopAndKeepsLocalIds() throws {
        let db = try signedIn()
        let poo = try db.addRecord(withUID(record(1, .poo, 2), "r2"))   // sent (sequence 1)
        try db.deleteRecord(id: 1)                                        // queued after the request left (sequence 2)
        // The server: Rex (its id 7), the pee r1, the poo r2 and another phone's pee r9.
        let server = UserData(account: .offline, dogs: [DogProfile(id: 7, name: "Rex", sex: .female, uid: "d1")],
                              records: [withUID(record(7, .pee, 1), "r1"), withUID(record(7, .poo, 2), "r2"), withUID(record(7, .pee, 5), "r9")])
        let saved = try db.applySync(UserDataSyncReply(data: server, revision: 3), through: 1)
        #expect(saved.dogs.map(\.sex) == [.female])
        #expect(saved.records.map(\.uid) == ["r2", "r9"])          // r1 stays deleted: its deletion is still queued
        #expect(saved.records.first?.id == poo.id)                  // the poo keeps its id
        #expect(saved.records.last?.id.map { $0 > poo.id! } == true)  // the new pee gets a new one, never r1's
        #expect(try db.pendingChanges().map(\.change) == [.deleteRecord(uid: "r1")])
        #expect(try db.load() == saved)

        // Killed in the middle of the next sync's save: the queue is as it was.
        db.killDuringNextWrite()
        #expect(throws: StorageError.self) { try db.applySync(UserDataSyncReply(data: server, revision: 4), through: 2) }
        #expect(try store().pendingChanges().map(\.change) == [.deleteRecord(uid: "r1")])
    }

    @Test func queuedChangesSurviveTheirTextEncoding() {
        let changes: [UserDataChange] = [
            .addDog(DogProfile(name: "Tab\there\nnew \\ line", sex: .female, dateOfBirth: nil, uid: "d\t1")),
            .editDog(uid: "d1", edits: [DogProfileEdit(attribute: .name, old: nil, new: "\\0"), DogProfileEdit(attribute: .dateOfBirth, old: "2020-01-01", new: nil)]),
            .addRecord(BusinessRecord(dogID: 0, kind: .pee, coordinate: GeoCoordinate(latitude: 58.380123456789, longitude: -26.7), placedAt: VirtualInstant(nanoseconds: -5),
                                      localTime: "2026-06-01T08:00:00+03:00", uid: "r1"), dogUID: "d1"),
            .deleteRecord(uid: "r1"),
        ]
        for change in changes {
            #expect(PendingChangeCoding.decode(PendingChangeCoding.encode(change)) == change)
        }
    }
}
