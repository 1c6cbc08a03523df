import DeviceSimHAL
import DeviceSimStorage
import DeviceSimTime
import Foundation
import Testing

/// The generic SQLite layer every app's store is built on: migrations, writes that are all or nothing,
/// injected faults, and a kill during a write.
@Suite final class SQLiteDatabaseTests {
    let folder: DataFolder

    init() throws {
        folder = try DataFolder.temporary(prefix: "devicesim-sqlite-tests-")
    }

    func database(_ file: String = "phone.notes.sqlite") -> SQLiteDatabase {
        SQLiteDatabase(folder: folder, file: file, migrations: [["CREATE TABLE notes (text TEXT NOT NULL)"]], now: { .zero })
    }

    func notes(in database: SQLiteDatabase) throws -> [String] {
        try database.read("notes") { db throws(SQLiteError) in try db.query("SELECT text FROM notes ORDER BY rowid").compactMap { $0.first?.string } }
    }

    func add(_ text: String, to database: SQLiteDatabase) throws {
        try database.write("note") { db throws(SQLiteError) in try db.execute("INSERT INTO notes (text) VALUES (?)", [.text(text)]) }
    }

    @Test func migrationsRunOnceAndRowsSurviveAReopen() throws {
        let first = database()
        try add("buy milk", to: first)
        first.close()
        let second = database()
        #expect(try second.schemaVersion() == 1)
        #expect(try notes(in: second) == ["buy milk"])
    }

    @Test func textWithNULCharactersIsStoredAndReadWhole() throws {
        let db = database()
        let text = "Bu\u{0}rek\u{0} ✓ Kupić"
        try add(text, to: db)
        db.close()
        #expect(try notes(in: database()) == [text])
    }

    /// A kept statement run again binds what it is given this time: empty text as empty text (not
    /// NULL), and NULL for a parameter not given, whatever the use before bound there.
    @Test func aKeptStatementBindsOnlyWhatItIsGivenEachTime() throws {
        // The database owns its connection (closed when it goes): it lives to the end of the test.
        let db = database()
        try withExtendedLifetime(db) {
            let connection = try db.open()
            try connection.execute("CREATE TABLE pairs (a TEXT, b TEXT)")
            let insert = "INSERT INTO pairs (a, b) VALUES (?, ?)"
            try connection.execute(insert, [.text("first"), .text("second ✓")])
            try connection.execute(insert, [.text("")])
            try connection.execute(insert, [.text("Kupić"), .text("")])
            try connection.execute(insert)
            #expect(try connection.query("SELECT a, b FROM pairs ORDER BY rowid") == [
                [.text("first"), .text("second ✓")], [.text(""), .null], [.text("Kupić"), .text("")], [.null, .null],
            ])
        }
    }

    @Test func aReadOnlyQueryThatNeverEndsOrGivesTooManyRowsIsStoppedWithAReason() throws {
        let db = database()
        try add("buy milk", to: db)
        let connection = try db.open()
        #expect(try connection.readOnlyQuery("SELECT text FROM notes") == [[.text("buy milk")]])
        let endless = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c"
        #expect { try connection.readOnlyQuery(endless, budget: budget(instructions: 1_000_000)) } throws: { error in
            "\(error)".contains("does not end")
        }
        let many = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 50) SELECT x FROM c"
        #expect { try connection.readOnlyQuery(many, budget: budget(rows: 20)) } throws: { error in
            "\(error)".contains("more than the 20 rows")
        }
        #expect { try connection.readOnlyQuery("DELETE FROM notes") } throws: { _ in true }
        // The connection is left as it was: writes work, and the handler is gone.
        try add("pay rent", to: db)
        #expect(try notes(in: db) == ["buy milk", "pay rent"])
        #expect(try connection.query("WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 2000000) SELECT count(*) FROM c") == [[.integer(2_000_000)]])
    }

    @Test func aFaultedWriteLeavesWhatWasSavedBefore() throws {
        let db = database()
        try add("buy milk", to: db)
        for kind in [StorageFaults.Kind.diskFull, .writeError, .readOnly] {
            db.faults.inject(kind, count: 1)
            #expect(throws: StorageError.self) { try self.add("lost", to: db) }
            #expect(try notes(in: db) == ["buy milk"])
        }
    }

    @Test func aKillDuringTheNextWriteLosesThatWriteOnlyAndCallsBack() throws {
        let db = database()
        try add("kept", to: db)
        var killed = 0
        db.onKilled = { killed += 1 }
        db.killDuringNextWrite()
        #expect(throws: StorageError.self) { try self.add("cut short", to: db) }
        #expect(killed == 1)
        #expect(try database().integrityCheck() == "ok")
        #expect(try notes(in: database()) == ["kept"])
    }

    @Test func aKillTakenBackLetsTheNextWriteThrough() throws {
        let db = database()
        var killed = 0
        db.onKilled = { killed += 1 }
        db.killDuringNextWrite()
        db.cancelKillDuringNextWrite()
        try add("saved", to: db)
        #expect(killed == 0)
        #expect(try notes(in: db) == ["saved"])
    }
}

/// A query budget with `instructions` steps and `rows` rows, the rest as by default.
func budget(instructions: Int = ReadOnlyQueryBudget().maximumInstructions, rows: Int = ReadOnlyQueryBudget().maximumRows) -> ReadOnlyQueryBudget {
    var budget = ReadOnlyQueryBudget()
    budget.maximumInstructions = instructions
    budget.maximumRows = rows
    return budget
}
