import DeviceSimStorage

/// A simulated server whose state a scenario can check (`server:` expectations): named tables of
/// rows, per account, each value typed as the server holds it.
///
/// ```swift
/// extension SimulatedTaskServer: InspectableServer {
///     public var inspectableTables: [String: [String]] { ["tasks": ["id", "text", "important"]] }
///     public func rows(of table: String, account: String?) -> [[SQLiteValue]]? { ... }
/// }
/// ```
public protocol InspectableServer: AnyObject {
    /// The tables a scenario can check, with their columns.
    var inspectableTables: [String: [String]] { get }
    /// The rows of `table` for `account` (nil: every account's); nil when the server has no such table.
    /// Each value is typed as the server holds it, and compared so (a `server:` expectation's unquoted
    /// `2` matches `.integer(2)`, its quoted `"2"` only `.text("2")`): a count or a revision as
    /// `.integer`, a missing value as `.null`, text as `.text`, a yes/no as the text `true`/`false`.
    func rows(of table: String, account: String?) -> [[SQLiteValue]]?
}
