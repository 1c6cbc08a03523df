import DeviceSimServer
import DeviceSimStorage

/// What `server: friend-locator` expectations read: `accounts` (`account`, `email`, `sharing`),
/// `friends` (`account`, `friend`: each account's friends list in order) and `locations` (`account`,
/// `hotspot`, `precision`: each user's last location as stored), by account id.
extension FriendLocatorServer: InspectableServer {
    /// The tables `server:` expectations read, with their columns (`validate` checks a table's name
    /// against them).
    public static let tables: [String: [String]] = ["accounts": ["account", "email", "sharing"], "friends": ["account", "friend"], "locations": ["account", "hotspot", "precision"]]

    public var inspectableTables: [String: [String]] { Self.tables }

    public func rows(of table: String, account: String?) -> [[SQLiteValue]]? {
        let ids = account.map { [$0] } ?? accounts.keys.sorted()
        switch table {
        case "accounts":
            return ids.compactMap { id in accounts[id].map { [.text(id), .text($0.email), .text(String($0.sharing))] } }
        case "friends":
            return ids.flatMap { id in accounts[id].map { user in friends(of: user).map { [.text(id), .text($0)] } } ?? [] }
        case "locations":
            return ids.compactMap { id in lastLocations[id].map { [.text(id), SQLiteValue($0.hotspot), .text($0.precision.rawValue)] } }
        default:
            return nil
        }
    }
}
