import DeviceSimHAL
import DeviceSimTime

/// A player's standing in one scoreboard period.
public struct PlayerStanding: Sendable, Hashable {
    /// The player.
    public var account: String
    /// Points in the period.
    public var score: Int
    /// When the player reached this score (joining counts as reaching 0).
    public var reachedAt: VirtualInstant

    /// Creates a standing.
    public init(account: String, score: Int, reachedAt: VirtualInstant) {
        self.account = account
        self.score = score
        self.reachedAt = reachedAt
    }

    /// The scoreboard's order: more points first; equal points, whoever reached the score first;
    /// then the account id, so the order is total and the same on every run.
    public static func ranksBefore(_ lhs: PlayerStanding, _ rhs: PlayerStanding) -> Bool {
        if lhs.score != rhs.score { return lhs.score > rhs.score }
        if lhs.reachedAt != rhs.reachedAt { return lhs.reachedAt < rhs.reachedAt }
        return lhs.account < rhs.account
    }
}

/// Builds scoreboards: the top `limit` standings in ``PlayerStanding/ranksBefore(_:_:)`` order, and
/// the requester's own row after them when it is not among them (a requester with no standing shows
/// with 0 points at the rank after everyone listed).
///
/// ```swift
/// let rows = ScoreboardRanking.rows(standings, requester: "alice", limit: 10)
/// ```
public enum ScoreboardRanking {
    /// The rows of a scoreboard.
    public static func rows(_ standings: some Sequence<PlayerStanding>, requester: String, limit: Int = 10) -> [ScoreboardRow] {
        let ordered = standings.sorted(by: PlayerStanding.ranksBefore)
        var rows = ordered.prefix(limit).enumerated().map { index, standing in
            ScoreboardRow(rank: index + 1, account: standing.account, score: standing.score)
        }
        if !rows.contains(where: { $0.account == requester }) {
            if let index = ordered.firstIndex(where: { $0.account == requester }) {
                rows.append(ScoreboardRow(rank: index + 1, account: requester, score: ordered[index].score))
            } else {
                rows.append(ScoreboardRow(rank: ordered.count + 1, account: requester, score: 0))
            }
        }
        return rows
    }
}
