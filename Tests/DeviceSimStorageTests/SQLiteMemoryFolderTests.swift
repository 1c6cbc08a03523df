import DeviceSimHAL
@testable import DeviceSimStorage
import Foundation
import Testing

/// Databases whose files are kept in memory (``SQLiteMemoryFolder``) behave as those on disk: the same
/// bytes in every file SQLite writes (the database, the hot journal a kill leaves), the same recovery
/// on the next open, the same damaged file set aside; and nothing reaches the disk until the folder is
/// written out.
@Suite final class SQLiteMemoryFolderTests {
    static let migrations = [["CREATE TABLE notes (text TEXT NOT NULL)"], ["CREATE INDEX notes_by_text ON notes(text)"]]
    let disk: DataFolder
    let written: DataFolder

    init() throws {
        disk = try DataFolder.temporary(prefix: "devicesim-memory-tests-disk-")
        written = try DataFolder.temporary(prefix: "devicesim-memory-tests-written-")
    }

    func database(_ file: String, in folder: DataFolder, memory: SQLiteMemoryFolder? = nil, pool: SQLiteConnectionPool? = nil) -> SQLiteDatabase {
        SQLiteDatabase(folder: folder, file: file, migrations: Self.migrations, pool: pool, memory: memory, now: { .zero })
    }

    func add(_ text: String, to database: SQLiteDatabase) throws {
        try database.write("note") { db throws(SQLiteError) in try db.execute("INSERT INTO notes (text) VALUES (?)", [.text(text)]) }
    }

    func notes(in database: SQLiteDatabase) throws -> [String] {
        try database.read("notes") { db throws(SQLiteError) in try db.query("SELECT text FROM notes ORDER BY rowid").compactMap { $0.first?.string } }
    }

    /// The files of `folder` on disk, by name.
    func filesOnDisk(_ folder: DataFolder) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            files[name] = FileManager.default.contents(atPath: folder.appending(name))
        }
        return files
    }

    /// `file` with the random parts of a rollback journal zeroed: SQLite draws a nonce for each journal
    /// (header bytes 12-15) that seeds its records' checksums (the last 4 bytes of each record of a page
    /// number, a page and a checksum, after a 512-byte header), so two journals of the same write differ
    /// there, on disk as in memory. A database file has no such bytes.
    static func withoutJournalNonce(_ file: Data) -> Data {
        var bytes = [UInt8](file)
        guard bytes.starts(with: [0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7]) else { return file }
        for index in 12..<16 where index < bytes.count { bytes[index] = 0 }
        var checksum = 512 + 4 + 4096
        while checksum + 4 <= bytes.count {
            for index in checksum..<checksum + 4 { bytes[index] = 0 }
            checksum += 4 + 4096 + 4
        }
        return Data(bytes)
    }

    /// The same story told to a database on disk and to one in memory, with a pool of one connection
    /// (so both close and reopen between writes): writes, a kill in the middle of a write (leaving a
    /// hot journal), a reopen that rolls it back, a damaged header found at the next open.
    func tell(_ database: (String) -> SQLiteDatabase, killedAt kill: Int) throws {
        let notes = database("notes.sqlite")
        let other = database("other.sqlite")
        for index in 0..<40 {
            if index == kill { notes.killDuringNextWrite() }
            try? add(String(repeating: "note \(index) ", count: index % 7 + 1), to: notes)
            try add("other \(index)", to: other)
        }
        let damaged = database("damaged.sqlite")
        try add("lost", to: damaged)
        damaged.damageFile()
        #expect(throws: StorageError.self) { try self.notes(in: damaged) }
        try add("after", to: damaged)
        for each in [notes, other, damaged] { each.close() }
    }

    @Test(arguments: [5, 39])
    func everyFileIsByteForByteWhatTheDiskHolds(killedAt kill: Int) throws {
        let pool = SQLiteConnectionPool(capacity: 1)
        try tell({ self.database($0, in: disk, pool: pool) }, killedAt: kill)
        let memory = try SQLiteMemoryFolder()
        let memoryPool = SQLiteConnectionPool(capacity: 1)
        try tell({ self.database($0, in: written, memory: memory, pool: memoryPool) }, killedAt: kill)
        #expect(try filesOnDisk(written).isEmpty)
        try memory.write(into: written)
        let expected = try filesOnDisk(disk)
        // Killed in the last write, the journal is still hot; killed earlier, the next open rolled it back.
        #expect(expected.keys.contains("notes.sqlite-journal") == (kill == 39))
        #expect(expected.keys.contains("damaged.sqlite.corrupt-1"))
        #expect(try filesOnDisk(written).mapValues(Self.withoutJournalNonce) == expected.mapValues(Self.withoutJournalNonce))
        #expect(memory.fileNames == expected.keys.sorted())
    }

    @Test func aKillInTheMiddleOfAWriteIsRolledBackByTheNextOpen() throws {
        let memory = try SQLiteMemoryFolder()
        let db = database("notes.sqlite", in: written, memory: memory)
        try add("kept", to: db)
        var killed = 0
        db.onKilled = { killed += 1 }
        db.killDuringNextWrite()
        #expect(throws: StorageError.self) { try self.add(String(repeating: "cut short ", count: 2_000), to: db) }
        #expect(killed == 1)
        #expect(db.crashLeftJournal)
        #expect((memory.contents(of: "notes.sqlite-journal")?.count ?? 0) > 0)
        let reopened = database("notes.sqlite", in: written, memory: memory)
        #expect(try reopened.integrityCheck() == "ok")
        #expect(try notes(in: reopened) == ["kept"])
    }

    @Test func aDamagedFileIsSetAsideInTheFolderAndAFreshOneMade() throws {
        let memory = try SQLiteMemoryFolder()
        let db = database("notes.sqlite", in: written, memory: memory)
        try add("lost", to: db)
        let before = try #require(memory.contents(of: "notes.sqlite"))
        db.damageFile()
        #expect(memory.contents(of: "notes.sqlite")?.prefix(100) == ArraySlice(repeating: 0xA5, count: 100))
        #expect(throws: StorageError.self) { try self.notes(in: db) }
        #expect(memory.contents(of: "notes.sqlite.corrupt-1")?.suffix(from: 100) == before.suffix(from: 100))
        try add("fresh", to: db)
        #expect(try notes(in: db) == ["fresh"])
        db.removeFiles()
        #expect(memory.fileNames.isEmpty)
    }

    @Test func aLazyTemporaryFolderIsNeverMadeForDatabasesInMemory() throws {
        let lazy = DataFolder.temporaryWhenFirstUsed(prefix: "devicesim-memory-tests-lazy-")
        let memory = try SQLiteMemoryFolder()
        let db = database("notes.sqlite", in: lazy, memory: memory)
        try add("in memory", to: db)
        db.close()
        #expect(try notes(in: db) == ["in memory"])
        #expect(!lazy.isMade)
    }

    @Test func aDatabaseOfMostlyFreeSpaceTakesAFewHundredBytesAPage() throws {
        let memory = try SQLiteMemoryFolder()
        let db = database("notes.sqlite", in: written, memory: memory)
        for index in 0..<20 { try add("note \(index)", to: db) }
        db.close()
        let size = try #require(memory.contents(of: "notes.sqlite")?.count)
        #expect(size == 3 * 4096)
        #expect(memory.byteCount > 0)
        #expect(memory.byteCount < size / 4)
    }

    /// Writes of every shape (whole chunks and parts of them, across their edges, past the end, runs of
    /// zeros at the start, in the middle, at the end, none, all zeros) read back as a plain array holds them.
    @Test func aFileReadsBackEveryWriteAsAnArrayOfItsBytesWould() throws {
        let memory = try SQLiteMemoryFolder()
        var model: [UInt8] = []
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        memory.replace("file", with: [])
        for step in 0..<400 {
            let count = [1, 28, 100, 4096, 4104, 9000][next(6)]
            let offset = next(4) == 0 ? model.count + next(5_000) : next(max(1, model.count + 1))
            var bytes = (0..<count).map { _ in UInt8(next(256)) }
            switch next(4) {
            case 0: for index in bytes.indices where index > count / 4 && index < count * 3 / 4 { bytes[index] = 0 }
            case 1: bytes = bytes.enumerated().map { $0.offset < count / 2 ? 0 : $0.element }
            case 2: bytes = [UInt8](repeating: 0, count: count)
            default: break
            }
            if step % 50 == 49 {
                memory.replace("file", with: bytes)
                model = bytes
            } else {
                memory.overwrite("file", at: offset, with: bytes)
                if offset > model.count { model += [UInt8](repeating: 0, count: offset - model.count) }
                if offset + count > model.count { model += [UInt8](repeating: 0, count: offset + count - model.count) }
                model.replaceSubrange(offset..<offset + count, with: bytes)
            }
            #expect(memory.contents(of: "file") == model, "step \(step)")
            // Parts of chunks (a few bytes of a page, as SQLite reads its change counter; across a
            // chunk's edge; to the end and past it) read what the array holds there.
            for _ in 0..<8 {
                let start = next(model.count + 100)
                let length = [1, 16, 100, 2_000, 4_096, 6_000][next(6)]
                let expected = start < model.count ? Array(model[start..<min(model.count, start + length)]) : []
                #expect(memory.bytes(of: "file", at: start, count: length) == expected, "step \(step), \(length) bytes at \(start)")
            }
        }
    }

    /// A new database whose migrations made another file of the folder starts as a copy of that file
    /// (the migrations do not run again): its bytes, and after the same writes, are those of a
    /// database migrated alone in a folder of its own.
    @Test func aNewFileWhoseSchemaTheFolderMadeBeforeIsTheSameAsOneMigratedAlone() throws {
        let memory = try SQLiteMemoryFolder()
        let first = database("first.sqlite", in: written, memory: memory)
        try add("first", to: first)
        #expect(memory.migratedFilesCopied == 0)
        let second = database("second.sqlite", in: written, memory: memory)
        #expect(try second.schemaVersion() == Self.migrations.count)
        #expect(memory.migratedFilesCopied == 1)
        for index in 0..<30 { try add("second \(index)", to: second) }
        let alone = try SQLiteMemoryFolder()
        let migratedAlone = database("second.sqlite", in: written, memory: alone)
        for index in 0..<30 { try add("second \(index)", to: migratedAlone) }
        #expect(alone.migratedFilesCopied == 0)
        #expect(memory.contents(of: "second.sqlite") == alone.contents(of: "second.sqlite"))
        #expect(try notes(in: second) == (0..<30).map { "second \($0)" })
        #expect(try notes(in: first) == ["first"])
    }

    /// A file that is already in the folder (kept from before, or damaged) is opened as it is, never
    /// replaced by a copy; nor is a file of other migrations made from one.
    @Test func onlyANewFileOfTheSameMigrationsIsMadeAsACopy() throws {
        let memory = try SQLiteMemoryFolder()
        try add("first", to: database("first.sqlite", in: written, memory: memory))
        let existing = database("existing.sqlite", in: written, memory: memory)
        memory.replace("existing.sqlite", with: [])
        try add("existing", to: existing)
        #expect(memory.migratedFilesCopied == 0)
        #expect(try notes(in: existing) == ["existing"])
        let other = SQLiteDatabase(folder: written, file: "other.sqlite", migrations: [["CREATE TABLE other (x)"]], memory: memory, now: { .zero })
        #expect(try other.schemaVersion() == 1)
        #expect(memory.migratedFilesCopied == 0)
        let damaged = database("damaged.sqlite", in: written, memory: memory)
        memory.replace("damaged.sqlite", with: [UInt8](repeating: 0xA5, count: 4096))
        #expect(throws: StorageError.self) { try damaged.schemaVersion() }
        #expect(memory.fileNames.contains("damaged.sqlite.corrupt-1"))
        #expect(try damaged.schemaVersion() == Self.migrations.count)
        #expect(memory.migratedFilesCopied == 1)
    }

    /// A pooled connection keeps the pages it read for its database's next transaction while the pool
    /// has room, and frees them after each use once the pool is full (its connection is lent to
    /// another file next): the files, and what is read back, are the same either way.
    @Test func aPooledConnectionKeepsItsPagesWhileThePoolHasRoom() throws {
        let roomy = try SQLiteMemoryFolder()
        let full = try SQLiteMemoryFolder()
        let roomyPool = SQLiteConnectionPool(capacity: 3)
        let fullPool = SQLiteConnectionPool(capacity: 2)
        let withRoom = ["a.sqlite", "b.sqlite"].map { database($0, in: written, memory: roomy, pool: roomyPool) }
        let inFullPool = ["a.sqlite", "b.sqlite"].map { database($0, in: written, memory: full, pool: fullPool) }
        for round in 0..<30 {
            for db in withRoom + inFullPool { try add("note \(round) of \(db.fileName)", to: db) }
        }
        #expect(!roomyPool.isFull)
        #expect(fullPool.isFull)
        // Page 1, the table's and the index's pages at least, against none.
        let kept = try withRoom[0].open().cachedPageBytes
        let freed = try inFullPool[0].open().cachedPageBytes
        #expect(kept >= freed + 3 * 4096)
        for name in ["a.sqlite", "b.sqlite"] { #expect(roomy.contents(of: name) == full.contents(of: name)) }
        for (roomyOne, fullOne) in zip(withRoom, inFullPool) { #expect(try notes(in: roomyOne) == notes(in: fullOne)) }
    }

    /// Pages a connection kept are not read again while its file is as it left them, but a file
    /// another connection wrote since is read afresh (SQLite compares the file's change counter with
    /// the one it last saw).
    @Test func keptPagesOfAFileAnotherConnectionWroteAreReadAfresh() throws {
        let memory = try SQLiteMemoryFolder()
        let pool = SQLiteConnectionPool(capacity: 4)
        let first = database("shared.sqlite", in: written, memory: memory, pool: pool)
        let second = database("shared.sqlite", in: written, memory: memory, pool: pool)
        try add("one", to: first)
        #expect(try notes(in: first) == ["one"])
        #expect(try first.open().cachedPageBytes >= 3 * 4096)
        for index in 0..<200 { try add("two \(index)", to: second) }
        #expect(try notes(in: first) == ["one"] + (0..<200).map { "two \($0)" })
        try add("three", to: first)
        #expect(try notes(in: second).last == "three")
        #expect(try first.integrityCheck() == "ok")
    }

    @Test func twoConnectionsToOneFileLockEachOtherOutAsOnDisk() throws {
        let memory = try SQLiteMemoryFolder()
        let first = database("shared.sqlite", in: written, memory: memory)
        let second = database("shared.sqlite", in: written, memory: memory)
        try add("one", to: first)
        let writer = try first.open()
        let reader = try second.open()
        try writer.execute("BEGIN IMMEDIATE")
        try writer.execute("INSERT INTO notes (text) VALUES ('two')")
        // A second writer waits (busy); a reader still sees what was committed.
        #expect { try reader.execute("BEGIN IMMEDIATE") } throws: { error in (error as? SQLiteError)?.primary == 5 }
        #expect(try reader.query("SELECT count(*) FROM notes") == [[.integer(1)]])
        try writer.execute("COMMIT")
        #expect(try reader.query("SELECT count(*) FROM notes") == [[.integer(2)]])
    }
}
