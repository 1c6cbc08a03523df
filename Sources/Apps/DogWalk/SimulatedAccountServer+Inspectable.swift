import DeviceSimServer

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

    public func rows(of table: String, account email: String?) -> [[String]]? {
        guard inspectableTables[table] != nil else { return nil }
        let chosen = email.map { [$0.lowercased()] } ?? accounts.keys.sorted()
        return chosen.compactMap { accounts[$0] }.flatMap { account -> [[String]] in
            switch table {
            case "accounts":
                return [[account.email, String(account.revision), String(account.data.dogs.count), String(account.data.records.count), String(account.deletedRecords.count)]]
            case "dogs":
                return account.data.dogs.map { [$0.uid ?? "", $0.name ?? "null", $0.sex?.rawValue ?? "null", $0.dateOfBirth ?? "null"] }
            case "records":
                let dogUIDs = Dictionary(account.data.dogs.compactMap { dog in dog.id.map { ($0, dog.uid ?? "") } }, uniquingKeysWith: { first, _ in first })
                return account.data.records.sorted { ($0.placedAt, $0.uid ?? "") < ($1.placedAt, $1.uid ?? "") }
                    .map { [$0.uid ?? "", dogUIDs[$0.dogID] ?? "", $0.kind.rawValue, $0.localTime] }
            default:
                return account.deletedRecords.sorted().map { [$0] }
            }
        }
    }
}
