/// What a `stored:` or `server:` expectation reads at its instant: rows of a device's database (a
/// read-only SQL query) or of an app's server. The simulation records them as a `stored.rows` or
/// `server.rows` event, which the expectation then matches.
///
/// ```yaml
/// expect:
///   - stored: "SELECT text, important FROM tasks ORDER BY position"
///     device: phone
///     database: task-list             # the file <device>.task-list.sqlite (leave out: <device>.sqlite)
///     at: 10m
///     rows: [[Buy milk, 0], [Pay rent, 1]]
///   - server: task-list
///     table: tasks
///     account: anna@gmail.com
///     at: 10m
///     rows: [[t1, Buy milk, "false"], [t2, Pay rent, "true"]]
/// ```
public struct StoredProbe: Sendable {
    /// Where the rows come from.
    public enum Source: Sendable {
        /// A read-only SQL query on the database file `file` of `device`.
        case database(device: String, file: String, query: String)
        /// The table `table` of the server of the app named `app`, for `account`.
        case server(app: String, table: String, account: String?)
    }

    /// Where the rows come from.
    public var source: Source
    /// When they are read.
    public var at: Duration
    /// Ties the recorded event to its expectation.
    public var id: Int
    /// The places of the server table's columns kept (`columns:`; nil: every column).
    public var columns: [Int]? = nil
    /// How the rows are judged (``RowsCheck``): the recorded event carries a `verdict` ("ok" or what
    /// differs) that the expectation checks.
    public var check: RowsCheck? = nil

    /// The rows as the trace, the results and a failure's message show them: a JSON array of arrays of
    /// values, text in quotes, numbers bare, NULL as `null`. Rows and columns are kept apart
    /// structurally, never joined with separators a value may hold: two rows `'a, b','c'` and
    /// `'d], [e','f'` do not read as three rows `[[a, b, c], [d], [e, f]]`, and a task "Milk, eggs"
    /// is one value. Rows are compared value by value (``StoredValue/isSame(as:)``), not by this text.
    ///
    /// ```swift
    /// StoredProbe.text(of: [[.text("Milk, eggs"), .integer(0)]])   // [["Milk, eggs",0]]
    /// ```
    public static func text(of rows: [[StoredValue]]) -> String {
        var bytes: [UInt8] = [UInt8(ascii: "[")]
        for (rowIndex, row) in rows.enumerated() {
            if rowIndex > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes.append(UInt8(ascii: "["))
            for (index, value) in row.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                value.appendJSON(to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        }
        bytes.append(UInt8(ascii: "]"))
        return String(decoding: bytes, as: UTF8.self)
    }
}
