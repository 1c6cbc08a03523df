import DeviceSimStorage
import Foundation
import Testing

/// Issue 47, items 3, 4, 12 and 13: what a scenario's `stored:` query may cost, enforced by SQLite
/// while it runs, with the issue's own inputs.
@Suite final class ReadOnlyQueryBudgetTests {
    let folder: DataFolder
    /// Kept: the connection closes with its database.
    let database: SQLiteDatabase
    let connection: SQLiteConnection

    init() throws {
        folder = try DataFolder.temporary(prefix: "devicesim-query-budget-")
        database = SQLiteDatabase(folder: folder, file: "phone.notes.sqlite", migrations: [["CREATE TABLE notes (text TEXT NOT NULL)"]], now: { .zero })
        try database.write("notes") { db throws(SQLiteError) in
            try db.execute("INSERT INTO notes (text) VALUES ('Milk, eggs'), ('bread')")
        }
        connection = try database.open()
    }

    func message(_ sql: String, budget: ReadOnlyQueryBudget = ReadOnlyQueryBudget()) -> String? {
        do {
            _ = try connection.readOnlyQuery(sql, budget: budget)
            return nil
        } catch {
            return error.message
        }
    }

    @Test func aValueLargerThanTheLengthLimitIsRefusedWhereItIsMade() {
        // Item 3: reached 3 GB and kept going.
        #expect(message("SELECT zeroblob(999999999)")?.contains("a value of more than 1048576 bytes") == true)
        // Item 4: ran about 20 minutes.
        let perRow = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 10000) SELECT length(replace(zeroblob(50000000+x), x'00', 'ab')) FROM c"
        #expect(message(perRow)?.contains("a value of more than") == true)
    }

    @Test func rowsOfMoreBytesThanTheTotalAreStopped() {
        // Item 3: 20 rows of 200 MB aborted at 3.9 GB; here 20 rows of 1 MB against a 4 MB total.
        var budget = ReadOnlyQueryBudget()
        budget.maximumTotalBytes = 4 << 20
        let big = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 20) SELECT zeroblob(1000000) FROM c"
        #expect(message(big, budget: budget)?.contains("more than the 4194304 bytes of values") == true)
    }

    @Test func perRowWorkIsStoppedByTheWallClockBudget() {
        // Item 4 within the length limit: each row is one instruction to SQLite's machine but a
        // megabyte of work; the instruction budget never sees it, the clock does.
        var budget = ReadOnlyQueryBudget()
        budget.maximumSeconds = 0.2
        let perRow = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 100000) SELECT sum(length(replace(hex(zeroblob(250000 + x % 2)), '0', 'ab'))) FROM c"
        let stopped = message(perRow, budget: budget)
        #expect(stopped?.contains("stopped after 0.2 s") == true, "\(stopped ?? "nil")")
    }

    @Test func aSecondStatementIsRefusedWithWhereItStarts() {
        // Item 12: everything after the first statement was ignored.
        #expect(message("SELECT text FROM notes; DROP TABLE notes") == "the query holds more than one statement (the second starts at line 1, column 25 of the query): a stored: expectation runs one SELECT")
        #expect(message("SELECT ';' AS x; -- a comment\n") == nil)
        #expect(SQLStatementText.secondStatementOffset(in: "SELECT 1;\n  SELECT 2").map { SQLStatementText.lineAndColumn(of: $0, in: "SELECT 1;\n  SELECT 2") } ?? (0, 0) == (2, 3))
        #expect((try? connection.query("SELECT count(*) FROM notes")) == [[.integer(2)]])
    }

    @Test func onlyTheFunctionsAReadNeedsAreAllowed() {
        // Item 13: fts3_tokenizer gave a process address.
        #expect(message("SELECT fts3_tokenizer('simple')")?.contains("the query calls fts3_tokenizer, which a stored: expectation may not") == true)
        #expect(message("SELECT load_extension('/tmp/x.so')")?.contains("calls load_extension") == true)
        #expect(message("SELECT random()")?.contains("calls random") == true)
        #expect(message("PRAGMA table_info(notes)") != nil)
        #expect(message("SELECT upper(text), length(text), json_array(text) FROM notes ORDER BY rowid") == nil)
        #expect((try? connection.readOnlyQuery("SELECT text FROM notes ORDER BY rowid")) == [[.text("Milk, eggs")], [.text("bread")]])
        // The connection is left as it was: writes and any function work again.
        #expect((try? connection.query("SELECT typeof(random())")) == [[.text("integer")]])
        #expect((try? connection.execute("INSERT INTO notes (text) VALUES ('x')")) != nil)
    }
}
