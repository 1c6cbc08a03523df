import DeviceSimHAL
import DeviceSimStorage
import DeviceSimTime
import Foundation
import Testing

/// Many databases sharing a bounded pool of open connections: never more open than the pool holds,
/// nothing lost or changed when a connection is closed to make room, and files byte for byte what a
/// database that stayed open writes.
@Suite final class SQLiteConnectionPoolTests {
    let pooled: DataFolder
    let unpooled: DataFolder

    init() throws {
        pooled = try DataFolder.temporary(prefix: "devicesim-pool-tests-")
        unpooled = try DataFolder.temporary(prefix: "devicesim-pool-tests-")
    }

    static let migrations = [["CREATE TABLE notes (text TEXT NOT NULL)"], ["CREATE INDEX notes_text ON notes (text)"]]

    func add(_ text: String, to database: SQLiteDatabase) throws {
        try database.write("note") { db throws(SQLiteError) in try db.execute("INSERT INTO notes (text) VALUES (?)", [.text(text)]) }
    }

    func notes(in database: SQLiteDatabase) throws -> [String] {
        try database.read("notes") { db throws(SQLiteError) in try db.query("SELECT text FROM notes ORDER BY rowid").compactMap { $0.first?.string } }
    }

    /// A new database whose migrations made another file of its memory folder starts as a copy of
    /// that file, so it may borrow a connection at its very first open (the pool is full): its file is
    /// byte for byte that of a database migrated and written alone.
    @Test func aNewFileOfASchemaTheFolderMadeBorrowsAConnectionAtItsFirstOpen() throws {
        let memory = try SQLiteMemoryFolder()
        let pool = SQLiteConnectionPool(capacity: 1)
        func inMemory(_ file: String) -> SQLiteDatabase {
            SQLiteDatabase(folder: pooled, file: file, migrations: Self.migrations, pool: pool, memory: memory, now: { .zero })
        }
        let first = inMemory("first.sqlite")
        try add("first", to: first)
        #expect(pool.connectionsLent == 0)
        let second = inMemory("second.sqlite")
        try add("second", to: second)
        #expect(pool.connectionsLent == 1)
        let alone = SQLiteDatabase(folder: unpooled, file: "second.sqlite", migrations: Self.migrations, now: { .zero })
        try add("second", to: alone)
        alone.close()
        try memory.write(into: pooled)
        let image = FileManager.default.contents(atPath: pooled.appending("second.sqlite"))
        #expect(image != nil)
        #expect(image == FileManager.default.contents(atPath: unpooled.appending("second.sqlite")))
        #expect(try notes(in: first) == ["first"])
        #expect(try notes(in: second) == ["second"])
    }

    @Test func atMostCapacityConnectionsAreOpenAndEveryRowIsKept() throws {
        let pool = SQLiteConnectionPool(capacity: 3)
        let databases = (0..<10).map { SQLiteDatabase(folder: pooled, file: "d\($0).sqlite", migrations: Self.migrations, pool: pool, now: { .zero }) }
        for round in 0..<4 {
            for (index, database) in databases.enumerated() {
                try add("note \(round) of \(index)", to: database)
                #expect(pool.openCount <= 3)
            }
        }
        for (index, database) in databases.enumerated() {
            #expect(try notes(in: database) == (0..<4).map { "note \($0) of \(index)" })
            #expect(try database.schemaVersion() == 2)
        }
        #expect(pool.openCount == 3)
    }

    @Test func filesAreByteForByteThoseOfDatabasesThatStayedOpen() throws {
        let pool = SQLiteConnectionPool(capacity: 1)
        let closedBetweenWrites = (0..<3).map { SQLiteDatabase(folder: pooled, file: "d\($0).sqlite", migrations: Self.migrations, pool: pool, now: { .zero }) }
        let keptOpen = (0..<3).map { SQLiteDatabase(folder: unpooled, file: "d\($0).sqlite", migrations: Self.migrations, now: { .zero }) }
        for round in 0..<5 {
            for index in 0..<3 {
                try add("note \(round)", to: closedBetweenWrites[index])
                try add("note \(round)", to: keptOpen[index])
            }
        }
        for database in closedBetweenWrites + keptOpen { database.close() }
        for index in 0..<3 {
            let file = "d\(index).sqlite"
            let image = FileManager.default.contents(atPath: pooled.appending(file))
            #expect(image != nil)
            #expect(image == FileManager.default.contents(atPath: unpooled.appending(file)))
        }
    }

    @Test func aDatabaseInTheMiddleOfAWriteIsNotClosedForAnother() throws {
        let pool = SQLiteConnectionPool(capacity: 1)
        let outer = SQLiteDatabase(folder: pooled, file: "outer.sqlite", migrations: Self.migrations, pool: pool, now: { .zero })
        let inner = SQLiteDatabase(folder: pooled, file: "inner.sqlite", migrations: Self.migrations, pool: pool, now: { .zero })
        try outer.write("note") { db throws(SQLiteError) in
            try db.execute("INSERT INTO notes (text) VALUES ('before')")
            // Another database opened during the write goes over capacity rather than closing this one.
            try? self.add("inside", to: inner)
            try db.execute("INSERT INTO notes (text) VALUES ('after')")
        }
        #expect(try notes(in: outer) == ["before", "after"])
        #expect(try notes(in: inner) == ["inside"])
        // Over capacity until the next open, which closes the idle ones.
        #expect(pool.openCount == 2)
        let third = SQLiteDatabase(folder: pooled, file: "third.sqlite", migrations: Self.migrations, pool: pool, now: { .zero })
        try add("later", to: third)
        #expect(pool.openCount == 1)
    }

    static let taskMigrations = [["CREATE TABLE tasks (title TEXT NOT NULL, done INTEGER NOT NULL)"], ["CREATE INDEX tasks_title ON tasks (title)"]]

    /// Files in a memory folder, of two schemas whose schema cookies are equal (two changes each), in
    /// a pool of two: a connection lent to another file of its schema writes the bytes each file's own
    /// connection writes, one of the other schema is never lent there, and a kill's journal is still
    /// rolled back by the killed file's next open.
    @Test func aLentConnectionWritesWhatTheFilesOwnWouldWrite() throws {
        let memory = try SQLiteMemoryFolder()
        let pool = SQLiteConnectionPool(capacity: 2)
        func inMemory(_ index: Int) -> SQLiteDatabase {
            SQLiteDatabase(
                folder: self.pooled, file: "d\(index).sqlite", migrations: index % 3 == 0 ? Self.taskMigrations : Self.migrations, pool: pool,
                memory: memory, now: { .zero })
        }
        let lending = (0..<6).map(inMemory)
        let keptOpen = (0..<6).map {
            SQLiteDatabase(folder: unpooled, file: "d\($0).sqlite", migrations: $0 % 3 == 0 ? Self.taskMigrations : Self.migrations, now: { .zero })
        }
        func write(_ round: Int, _ index: Int, _ database: SQLiteDatabase) throws {
            try database.write("row") { db throws(SQLiteError) in
                if index % 3 == 0 {
                    try db.execute("INSERT INTO tasks (title, done) VALUES (?, ?)", [.text("task \(round)"), .integer(Int64(round % 2))])
                } else {
                    try db.execute("INSERT INTO notes (text) VALUES (?)", [.text(String(repeating: "note \(round) ", count: round % 5 + 1))])
                }
            }
        }
        for round in 0..<12 {
            for index in 0..<6 {
                if round == 7, index == 4 {
                    lending[index].killDuringNextWrite()
                    keptOpen[index].killDuringNextWrite()
                }
                let lent = (try? write(round, index, lending[index])) != nil
                let own = (try? write(round, index, keptOpen[index])) != nil
                #expect(lent == own)
                #expect(pool.openCount <= 2)
            }
        }
        #expect(pool.connectionsLent > 0)
        for database in lending + keptOpen { database.close() }
        try memory.write(into: pooled)
        for index in 0..<6 {
            let file = "d\(index).sqlite"
            let image = FileManager.default.contents(atPath: pooled.appending(file))
            #expect(image != nil)
            #expect(image == FileManager.default.contents(atPath: unpooled.appending(file)))
        }
    }
}
