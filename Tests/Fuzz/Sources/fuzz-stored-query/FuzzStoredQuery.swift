import DeviceSim
import Foundation

/// A database like an app's (a tasks table with a few rows), made once; each input is a `stored:`
/// query run under a budget small enough for 20,000 inputs in CI (every bound is SQLite's own: the
/// length limit, the total, the clock, the authorizer, one statement). libFuzzer calls the target
/// from one thread; the database is kept with its connection, which closes with it.
nonisolated(unsafe) private let opened: (database: SQLiteDatabase, connection: SQLiteConnection)? = {
    guard let folder = try? DataFolder.temporary(prefix: "devicesim-fuzz-stored-") else { return nil }
    let database = SQLiteDatabase(folder: folder, file: "phone.task-list.sqlite", migrations: [[
        "CREATE TABLE tasks (id TEXT PRIMARY KEY, text TEXT NOT NULL, important INTEGER NOT NULL DEFAULT 0, position REAL)",
    ]], now: { .zero })
    try? database.write("seed") { db throws(SQLiteError) in
        try db.execute("INSERT INTO tasks (id, text, important, position) VALUES ('t1', 'Milk, eggs', 0, 1), ('t2', 'd], [e', 1, 2), ('t3', NULL, 0, 3)")
    }
    guard let connection = try? database.open() else { return nil }
    return (database, connection)
}()

private let budget: ReadOnlyQueryBudget = {
    var budget = ReadOnlyQueryBudget()
    budget.maximumInstructions = 2_000_000
    budget.maximumSeconds = 0.5
    budget.maximumValueBytes = 1 << 16
    budget.maximumTotalBytes = 1 << 20
    budget.maximumRows = 1_000
    return budget
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStoredQuery(_ bytes: UnsafeRawPointer, _ count: Int) -> CInt {
    guard let connection = opened?.connection, let sql = String(validating: UnsafeRawBufferPointer(start: bytes, count: count), as: UTF8.self) else { return 0 }
    if let offset = SQLStatementText.secondStatementOffset(in: sql) { _ = SQLStatementText.lineAndColumn(of: offset, in: sql) }
    if let rows = try? connection.readOnlyQuery(sql, budget: budget) {
        _ = StoredProbe.text(of: rows)
    }
    return 0
}
