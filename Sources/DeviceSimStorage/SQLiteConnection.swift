import CSQLite
import Foundation

/// One open SQLite database file, through SQLite's C API: statements with bound values, rows read as
/// ``SQLiteValue``s, and transactions that roll back when their body throws.
///
/// ```swift
/// let db = try SQLiteConnection(path: "/tmp/walker.sqlite")
/// try db.transaction { try db.execute("INSERT INTO dogs(name) VALUES (?)", [.text("Rex")]) }
/// let rows = try db.query("SELECT id, name FROM dogs")
/// ```
public final class SQLiteConnection {
    private var handle: OpaquePointer?
    /// The database file.
    public let path: String
    /// Statements prepared by ``execute(_:_:)`` and ``query(_:_:)``, by their text, kept for the next
    /// call with the same text (reset after each use): an app saves its state with the same few
    /// statements again and again, and parsing them was a measurable share of a fleet's writes.
    /// At most ``statementCacheLimit``; statements of a read-only query are never kept (its
    /// authorizer applies when a statement is prepared).
    private var statements: [String: OpaquePointer] = [:]
    /// The most statements kept by one connection.
    static let statementCacheLimit = 32

    /// The memory folder the file is in (kept while the connection is open); nil: on disk.
    private let memory: SQLiteMemoryFolder?
    /// The migrations whose schema, every one applied, the connection has read, when that is known
    /// (its file's schema was made by them in this run, and nothing but writes changed the file since):
    /// it may then be lent to another file of its memory folder with that schema (``retarget(toFile:)``),
    /// its parsed schema and prepared statements still good there. Nil: never lent.
    var schemaMigrations: [[String]]?

    /// Opens (creating if needed) the database at `path`: a file on disk, or with `memory`, the file
    /// of that name in the memory folder.
    init(path: String, memory: SQLiteMemoryFolder? = nil) throws(SQLiteError) {
        Self.configureSQLite
        self.path = path
        self.memory = memory
        var db: OpaquePointer?
        let code = sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX, memory?.vfsName)
        guard code == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close_v2(db)
            throw SQLiteError(code: code, message: message)
        }
        handle = db
    }

    deinit { close() }

    /// Set once, before the process's first connection: SQLite's memory statistics off. With them on,
    /// every allocation SQLite makes (this build has no lookaside allocator, so that is every
    /// allocation) takes one process-wide mutex, and two scenarios writing their devices' databases
    /// on two threads queue on it. Nothing here reads the statistics. When the process has used
    /// SQLite already (a host program's own databases), SQLite refuses the change and keeps its
    /// settings. Also before it: each connection's page cache grows a page at a time (a device's
    /// database has a handful of pages) instead of taking a 20-page block at every open.
    static let configureSQLite: Void = {
        _ = devicesim_sqlite3_disable_memory_statistics()
        _ = devicesim_sqlite3_page_cache_on_demand()
    }()

    /// Closes the connection; an open transaction is rolled back by SQLite.
    func close() {
        for statement in statements.values { sqlite3_finalize(statement) }
        statements = [:]
        if let handle { sqlite3_close_v2(handle) }
        handle = nil
    }

    /// Runs `sql` (one statement) with `values` bound to its `?` parameters.
    public func execute(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteError) {
        _ = try query(sql, values, maxRows: .max, keepingStatement: true)
    }

    /// Makes the connection read and write `name`, another file of its memory folder, instead of its
    /// own file, keeping its settings, parsed schema and prepared statements: what a reopen would cost
    /// (opening, the pragmas, parsing the schema and every statement again) is not spent. Only between
    /// reads and writes (no transaction open); the cached pages are freed first, and SQLite reads the
    /// new file afresh (its change counter is not the one it last saw). The connection's own name, and
    /// so its rollback journal's, stays what it was. False (nothing changed) when the connection is not
    /// in a memory folder, is in a transaction, or there is no file `name`.
    func retarget(toFile name: String) -> Bool {
        guard let handle, let memory, sqlite3_get_autocommit(handle) != 0 else { return false }
        sqlite3_db_release_memory(handle)
        return memory.retarget(handle, toFile: name)
    }

    /// Frees the pages the connection's cache holds and no statement uses now (the file keeps them:
    /// the next read takes them from it again). An idle connection then costs its schema and its
    /// kept statements: about 32 KB for the friend locator's instead of 49 KB (sqlite3_memory_used).
    func releaseCachedPages() {
        guard let handle else { return }
        sqlite3_db_release_memory(handle)
    }

    /// The bytes the connection's page cache takes now (SQLite's `SQLITE_DBSTATUS_CACHE_USED`: its
    /// cached pages, and the pager's own memory).
    var cachedPageBytes: Int {
        guard let handle else { return 0 }
        var current: Int32 = 0
        var highest: Int32 = 0
        sqlite3_db_status(handle, SQLITE_DBSTATUS_CACHE_USED, &current, &highest, 0)
        return Int(current)
    }

    /// Runs `sql`, one or more statements separated by semicolons and without parameters, each
    /// prepared, run and finalized in turn (none kept): for what a connection runs once, such as
    /// the pragmas that set it up when it opens.
    func executeOnce(_ sql: String) throws(SQLiteError) {
        guard let handle else { throw SQLiteError(code: SQLITE_MISUSE, message: "the database is closed") }
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw error(code) }
    }

    /// Runs `sql` once, without keeping its statement, and returns every row.
    func queryOnce(_ sql: String) throws(SQLiteError) -> [[SQLiteValue]] {
        try query(sql, [], maxRows: .max, keepingStatement: false)
    }

    /// Runs `sql` and returns every row.
    public func query(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteError) -> [[SQLiteValue]] {
        try query(sql, values, maxRows: .max, keepingStatement: true)
    }

    /// Runs `sql` and returns every row; past `maxRows` rows, or rows of more than `maximumTotalBytes`
    /// bytes of values, it stops with `SQLITE_TOOBIG`.
    /// With `keepingStatement`, the statement comes from (or goes into) ``statements``.
    private func query(
        _ sql: String, _ values: [SQLiteValue], maxRows: Int, maximumTotalBytes: Int = .max, keepingStatement: Bool = false
    ) throws(SQLiteError) -> [[SQLiteValue]] {
        guard let handle else { throw SQLiteError(code: SQLITE_MISUSE, message: "the database is closed") }
        let statement: OpaquePointer
        var code: Int32
        var isKept = false
        if keepingStatement, let kept = statements[sql] {
            statement = kept
            isKept = true
            // A kept statement holds the values of its last use (see the reset below) until they are
            // bound again: those not bound now are NULL, as in a statement just prepared.
            if values.count < sqlite3_bind_parameter_count(kept) { sqlite3_clear_bindings(kept) }
        } else {
            var prepared: OpaquePointer?
            code = sqlite3_prepare_v2(handle, sql, -1, &prepared, nil)
            guard code == SQLITE_OK, let prepared else { throw error(code) }
            statement = prepared
            if keepingStatement, statements.count < Self.statementCacheLimit {
                statements[sql] = prepared
                isKept = true
            }
        }
        defer {
            // A kept statement's bindings are left as they are: every use binds its values again.
            if isKept { sqlite3_reset(statement) } else { sqlite3_finalize(statement) }
        }
        for (index, value) in values.enumerated() {
            let position = Int32(index + 1)
            switch value {
            case .null: sqlite3_bind_null(statement, position)
            case .integer(let number): sqlite3_bind_int64(statement, position, number)
            case .real(let number): sqlite3_bind_double(statement, position, number)
            case .text(let text): Self.bind(text, to: statement, at: position)
            }
        }
        var rows: [[SQLiteValue]] = []
        var totalBytes = 0
        while true {
            code = sqlite3_step(statement)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else { throw error(code) }
            guard rows.count < maxRows else {
                throw SQLiteError(code: SQLITE_TOOBIG, message: "the query gives more than the \(maxRows) rows an expectation may compare")
            }
            for column in 0..<sqlite3_column_count(statement) {
                totalBytes += Int(sqlite3_column_bytes(statement, column))
            }
            guard totalBytes <= maximumTotalBytes else {
                throw SQLiteError(code: SQLITE_TOOBIG, message: "the query gives more than the \(maximumTotalBytes) bytes of values an expectation may compare")
            }
            rows.append((0..<sqlite3_column_count(statement)).map { column in
                switch sqlite3_column_type(statement, column) {
                case SQLITE_INTEGER: .integer(sqlite3_column_int64(statement, column))
                case SQLITE_FLOAT: .real(sqlite3_column_double(statement, column))
                case SQLITE_NULL: .null
                default: .text(Self.text(of: statement, column: column))
                }
            })
        }
        return rows
    }

    /// Runs `sql`, a query that must not change the database (a scenario's `stored:` expectation), with
    /// its cost bounded by SQLite itself (see ``ReadOnlyQueryBudget``): SQLite's virtual machine steps,
    /// the wall time (a progress handler that also reads the monotonic clock), the bytes of one value
    /// (`sqlite3_limit(SQLITE_LIMIT_LENGTH)`) and of all rows, the rows, one statement only, and an
    /// authorizer that lets through only what a read needs (no writes, no pragmas, no `ATTACH`, no
    /// `load_extension` or `fts3_tokenizer`). Past any bound it is stopped with an error that says which.
    ///
    /// ```swift
    /// let rows = try db.readOnlyQuery("SELECT text FROM tasks ORDER BY position")
    /// ```
    public func readOnlyQuery(_ sql: String, budget: ReadOnlyQueryBudget = ReadOnlyQueryBudget()) throws(SQLiteError) -> [[SQLiteValue]] {
        guard let handle else { throw SQLiteError(code: SQLITE_MISUSE, message: "the database is closed") }
        if let second = SQLStatementText.secondStatementOffset(in: sql) {
            let (line, column) = SQLStatementText.lineAndColumn(of: second, in: sql)
            throw SQLiteError(code: SQLITE_MISUSE, message: "the query holds more than one statement (the second starts at line \(line), column \(column) of the query): a stored: expectation runs one SELECT")
        }
        try execute("PRAGMA query_only = ON")
        defer { try? execute("PRAGMA query_only = OFF") }
        let previousLength = sqlite3_limit(handle, SQLITE_LIMIT_LENGTH, Int32(clamping: budget.maximumValueBytes))
        defer { sqlite3_limit(handle, SQLITE_LIMIT_LENGTH, previousLength) }
        let guardState = QueryGuard(budget: budget)
        let context = Unmanaged.passRetained(guardState)
        sqlite3_progress_handler(handle, Int32(QueryGuard.instructionsPerCallback), { context in
            guard let context else { return 0 }
            return Unmanaged<QueryGuard>.fromOpaque(context).takeUnretainedValue().step() ? 0 : 1
        }, context.toOpaque())
        sqlite3_set_authorizer(handle, { context, action, third, fourth, _, _ in
            guard let context else { return SQLITE_DENY }
            let state = Unmanaged<QueryGuard>.fromOpaque(context).takeUnretainedValue()
            return state.authorize(action, third.map { String(cString: $0) }, fourth.map { String(cString: $0) }) ? SQLITE_OK : SQLITE_DENY
        }, context.toOpaque())
        defer {
            sqlite3_set_authorizer(handle, nil, nil)
            sqlite3_progress_handler(handle, 0, nil, nil)
            context.release()
        }
        do {
            return try query(sql, [], maxRows: budget.maximumRows, maximumTotalBytes: budget.maximumTotalBytes)
        } catch {
            if let denied = guardState.denied {
                throw SQLiteError(code: SQLITE_AUTH, message: "the query \(denied), which a stored: expectation may not: it only reads tables with SELECT and the functions a read needs")
            }
            if error.primary == SQLITE_INTERRUPT, let stop = guardState.stopReason { throw SQLiteError(code: error.code, message: stop) }
            if error.primary == SQLITE_TOOBIG, error.message.contains("too big") {
                throw SQLiteError(code: error.code, message: "the query makes a value of more than \(budget.maximumValueBytes) bytes, the most one value of a stored: expectation may have")
            }
            throw error
        }
    }

    /// Binds `text` to the parameter at `position`: SQLite copies its UTF-8 bytes straight from the
    /// string's storage (no C string is made of it first). The length in bytes is given, not -1:
    /// text may hold NUL characters, which -1 would cut it at.
    private static func bind(_ text: String, to statement: OpaquePointer, at position: Int32) {
        var text = text
        text.withUTF8 { bytes in
            // Empty text may have no address, and a null pointer would bind NULL: "" binds empty text.
            guard let base = bytes.baseAddress, !bytes.isEmpty else {
                sqlite3_bind_text(statement, position, "", 0, transient)
                return
            }
            sqlite3_bind_text(statement, position, UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self), Int32(clamping: bytes.count), transient)
        }
    }

    /// The text of `column` of the current row, every byte of it (NUL characters included).
    private static func text(of statement: OpaquePointer, column: Int32) -> String {
        guard let bytes = sqlite3_column_text(statement, column) else { return "" }
        let count = Int(sqlite3_column_bytes(statement, column))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws.
    public func transaction<T>(_ body: () throws(SQLiteError) -> T) throws(SQLiteError) -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    /// The row id of the last insert.
    public var lastInsertID: Int64 { handle.map { sqlite3_last_insert_rowid($0) } ?? 0 }

    private func error(_ code: Int32) -> SQLiteError {
        SQLiteError(code: code, message: handle.map { String(cString: sqlite3_errmsg($0)) } ?? "closed")
    }

    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}


/// A value in a row or a bound parameter.
public enum SQLiteValue: Hashable, Sendable {
    /// SQL NULL.
    case null
    /// A 64-bit integer.
    case integer(Int64)
    /// A floating-point number.
    case real(Double)
    /// UTF-8 text.
    case text(String)

    /// The integer, when the value is one.
    public var int: Int64? { if case .integer(let n) = self { n } else { nil } }
    /// The number, when the value is a real or an integer.
    public var double: Double? {
        switch self {
        case .real(let n): n
        case .integer(let n): Double(n)
        default: nil
        }
    }
    /// The text, when the value is text.
    public var string: String? { if case .text(let s) = self { s } else { nil } }

    /// The value as a scenario writes it: `null`, a whole number, a number, or the text.
    public var displayText: String {
        switch self {
        case .null: "null"
        case .integer(let n): String(n)
        case .real(let n): String(n)
        case .text(let s): s
        }
    }

    /// Text, or NULL for nil.
    public init(_ text: String?) { self = text.map(SQLiteValue.text) ?? .null }
}

/// An SQLite result code with its message.
public struct SQLiteError: Error, CustomStringConvertible {
    /// The extended result code.
    public let code: Int32
    /// SQLite's message.
    public let message: String

    /// The primary result code (SQLITE_FULL, SQLITE_READONLY, SQLITE_NOTADB, ...).
    public var primary: Int32 { code & 0xff }
    public var description: String { "\(message) (SQLite code \(code))" }
}
