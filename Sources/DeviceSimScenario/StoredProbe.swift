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

    /// The rows as one line of text: `[[a, b], [c, d]]`.
    public static func text(of rows: [[String]]) -> String {
        "[" + rows.map { "[" + $0.joined(separator: ", ") + "]" }.joined(separator: ", ") + "]"
    }
}
