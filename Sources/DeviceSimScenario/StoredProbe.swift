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
    /// How the rows are judged when not by exact rows in order (``RowsCheck``): the recorded event
    /// then carries a `verdict` ("ok" or what differs) that the expectation checks.
    public var check: RowsCheck? = nil

    /// The rows as they are compared: the one place a `stored:` or `server:` expectation's rows and
    /// the rows read are made comparable, and the text both are recorded as (in the trace, the
    /// results and a failure's message). Rows and columns are kept apart structurally, as a JSON
    /// array of arrays of strings, never joined with separators that a value may hold: two rows
    /// `'a, b','c'` and `'d], [e','f'` no longer read as three rows `[[a, b, c], [d], [e, f]]`, and a
    /// task "Milk, eggs" is one value. Each value is compared by its text (``SQLiteValue/displayText``:
    /// NULL is `null`, numbers as written).
    ///
    /// ```swift
    /// StoredProbe.text(of: [["Milk, eggs", "0"]])   // [["Milk, eggs","0"]]
    /// ```
    public static func text(of rows: [[String]]) -> String {
        var out = "["
        for (rowIndex, row) in rows.enumerated() {
            if rowIndex > 0 { out += "," }
            out += "["
            for (index, value) in row.enumerated() {
                if index > 0 { out += "," }
                out += jsonString(value)
            }
            out += "]"
        }
        return out + "]"
    }

    /// `value` as a JSON string literal.
    private static func jsonString(_ value: String) -> String {
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
