import DeviceSimServer
import DeviceSimStorage

/// What `server: task-list` expectations read: `tasks` (`id`, `text`, `important`: one account's list
/// in order) and `lists` (`account`, `revision`, `count`: every account's, or one's).
extension SimulatedTaskServer: InspectableServer {
    /// The tables `server:` expectations read, with their columns (`validate` checks a table's name
    /// against them).
    public static let tables: [String: [String]] = ["tasks": ["id", "text", "important"], "lists": ["account", "revision", "count"]]

    public var inspectableTables: [String: [String]] { Self.tables }

    public func rows(of table: String, account: String?) -> [[SQLiteValue]]? {
        switch table {
        case "tasks":
            guard let account else { return lists.keys.sorted().flatMap { rows(of: "tasks", account: $0) ?? [] } }
            return list(of: account).tasks.map { [.text($0.id), .text($0.text), .text(String($0.important))] }
        case "lists":
            let accounts = account.map { [$0] } ?? lists.keys.sorted()
            return accounts.map { account in
                let list = list(of: account)
                return [.text(account), .integer(Int64(list.revision)), .integer(Int64(list.tasks.count))]
            }
        default:
            return nil
        }
    }
}
