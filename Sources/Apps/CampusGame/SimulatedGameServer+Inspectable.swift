import DeviceSimServer
import DeviceSimStorage

/// What `server: campus-game` expectations read: `players` (`game`, `account`: who joined each day's
/// game), `achievements` (`game`, `account`, `objective`, `points`: in the order the server counted
/// them) and `scores` (`game`, `account`, `daily`: each player's total of each day's game), each for
/// one account or every account.
extension SimulatedGameServer: InspectableServer {
    /// The tables `server:` expectations read, with their columns (`validate` checks a table's name
    /// against them).
    public static let tables: [String: [String]] = ["players": ["game", "account"], "achievements": ["game", "account", "objective", "points"], "scores": ["game", "account", "daily"]]

    public var inspectableTables: [String: [String]] { Self.tables }

    public func rows(of table: String, account: String?) -> [[SQLiteValue]]? {
        switch table {
        case "players":
            return players.keys.sorted().flatMap { game in
                players[game, default: []].sorted().filter { account == nil || $0 == account }.map { [.text(game), .text($0)] }
            }
        case "achievements":
            return achievements.filter { account == nil || $0.account == account }.map { [.text($0.game), .text($0.account), .text($0.objective), .integer(Int64($0.points))] }
        case "scores":
            return dailyStandings.keys.sorted().flatMap { game in
                dailyStandings[game, default: [:]].values.sorted { $0.account < $1.account }
                    .filter { account == nil || $0.account == account }.map { [.text(game), .text($0.account), .integer(Int64($0.score))] }
            }
        default:
            return nil
        }
    }
}
