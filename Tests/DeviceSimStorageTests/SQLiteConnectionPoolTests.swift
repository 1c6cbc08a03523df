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
}
