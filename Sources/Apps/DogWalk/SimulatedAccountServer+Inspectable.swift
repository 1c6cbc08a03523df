import DeviceSimServer
import DeviceSimStorage

/// What `server: dog-walk` expectations read: `accounts` (`email`, `revision`, `dogs`, `records`,
/// `deleted`), `dogs` (`uid`, `name`, `sex`, `date-of-birth`), `records` (`uid`, `dog` (its uid),
/// `kind`, `local-time`, oldest first) and `deleted` (`uid`: the records deleted), for one account
/// or every account's in the order of their e-mail addresses.
extension SimulatedAccountServer: InspectableServer {
    /// The tables `server:` expectations read, with their columns (`validate` checks a table's name
    /// against them).
    public static let tables: [String: [String]] = [
            "accounts": ["email", "revision", "dogs", "records", "deleted"], "dogs": ["uid", "name", "sex", "date-of-birth"],
            "records": ["uid", "dog", "kind", "local-time"], "deleted": ["uid"],
        ]

    public var inspectableTables: [String: [String]] { Self.tables }

    public func rows(of table: String, account email: String?) -> [[SQLiteValue]]? {
        guard inspectableTables[table] != nil else { return nil }
        let chosen = email.map { [$0.lowercased()] } ?? accounts.keys.sorted()
        return chosen.compactMap { accounts[$0] }.flatMap { account -> [[SQLiteValue]] in
            switch table {
            case "accounts":
                return [[.text(account.email), .integer(Int64(account.revision)), .integer(Int64(account.data.dogs.count)), .integer(Int64(account.data.records.count)), .integer(Int64(account.deletedRecords.count))]]
            case "dogs":
                return account.data.dogs.map { [SQLiteValue($0.uid), SQLiteValue($0.name), SQLiteValue($0.sex?.rawValue), SQLiteValue($0.dateOfBirth)] }
            case "records":
                let dogUIDs = Dictionary(account.data.dogs.compactMap { dog in dog.id.map { ($0, dog.uid ?? "") } }, uniquingKeysWith: { first, _ in first })
                return account.data.records.sorted { ($0.placedAt, $0.uid ?? "") < ($1.placedAt, $1.uid ?? "") }
                    .map { [SQLiteValue($0.uid), SQLiteValue(dogUIDs[$0.dogID]), .text($0.kind.rawValue), .text($0.localTime)] }
            default:
                return account.deletedRecords.sorted().map { [.text($0)] }
            }
        }
    }
}
