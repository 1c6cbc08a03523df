/// A simulated server whose state a scenario can check (`server:` expectations): named tables of
/// rows, per account.
///
/// ```swift
/// extension SimulatedTaskServer: InspectableServer {
///     public var inspectableTables: [String: [String]] { ["tasks": ["id", "text", "important"]] }
///     public func rows(of table: String, account: String?) -> [[String]]? { ... }
/// }
/// ```
public protocol InspectableServer: AnyObject {
    /// The tables a scenario can check, with their columns.
    var inspectableTables: [String: [String]] { get }
    /// The rows of `table` for `account` (nil: every account's), each value as text; nil when the
    /// server has no such table.
    func rows(of table: String, account: String?) -> [[String]]?
}
