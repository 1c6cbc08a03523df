import DeviceSimHAL
import DeviceSimServer

/// An objective of the campus game: a building to reach, with its points and an informative message.
public struct GameObjective: Sendable, Hashable {
    /// A short id (`library`, `main-building`).
    public var id: String
    /// The name players see.
    public var name: String
    /// Where it is.
    public var center: GeoCoordinate
    /// How close a player must be, in metres.
    public var radius: Double
    /// Points for achieving it.
    public var points: Int
    /// The building's info message, returned when it is achieved.
    public var info: String

    /// Creates an objective.
    public init(id: String, name: String? = nil, center: GeoCoordinate, radius: Double, points: Int, info: String = "") {
        self.id = id
        self.name = name ?? id
        self.center = center
        self.radius = radius
        self.points = points
        self.info = info
    }

    /// The largest horizontal accuracy, in metres, that ``isReached(by:accuracy:)`` gives a fix the
    /// benefit of: a worse fix counts as if it were this precise.
    public static let accuracyAllowance = 20.0

    /// Whether a fix at `coordinate` with the given 68 % `accuracy` (metres) counts as at the
    /// objective: the fix's accuracy circle (capped at ``accuracyAllowance``) must reach into the
    /// objective's circle, that is `distance <= radius + min(accuracy, 20)`. The app and the server
    /// both use this rule, so they never disagree.
    ///
    /// ```swift
    /// library.isReached(by: fix.coordinate, accuracy: fix.horizontalAccuracy)
    /// ```
    public func isReached(by coordinate: GeoCoordinate, accuracy: Double) -> Bool {
        margin(from: coordinate, accuracy: accuracy) <= 0
    }

    /// How far (metres) a fix is from counting as at the objective (<= 0: it counts).
    public func margin(from coordinate: GeoCoordinate, accuracy: Double) -> Double {
        let allowance = accuracy.isFinite ? min(max(accuracy, 0), Self.accuracyAllowance) : 0
        return coordinate.distance(to: center) - radius - allowance
    }

    /// The objective among `objectives` that a fix is at: the one whose edge it is deepest inside
    /// (the smallest ``margin(from:accuracy:)``), ties to the earlier in the list; nil when none.
    public static func reached(
        among objectives: [GameObjective], by coordinate: GeoCoordinate, accuracy: Double
    ) -> GameObjective? {
        var best: (objective: GameObjective, margin: Double)?
        for objective in objectives {
            let margin = objective.margin(from: coordinate, accuracy: accuracy)
            if margin <= 0, margin < (best?.margin ?? .infinity) { best = (objective, margin) }
        }
        return best?.objective
    }
}

/// Today's game as the server describes it.
public struct GameOfTheDay: Sendable, Hashable {
    /// The game's id: its local date (`2026-05-04`) in the game's time zone.
    public var id: String
    /// Its objectives.
    public var objectives: [GameObjective]

    /// Creates a game description.
    public init(id: String, objectives: [GameObjective]) {
        self.id = id
        self.objectives = objectives
    }
}

/// What joining the game did.
public struct GameJoin: Sendable, Hashable {
    /// The game joined.
    public var game: GameOfTheDay
    /// False when the user was already in it (not added twice).
    public var added: Bool

    /// Creates a join result.
    public init(game: GameOfTheDay, added: Bool) {
        self.game = game
        self.added = added
    }
}

/// The server's answer to "objective achieved".
public enum ObjectiveOutcome: Sendable, Hashable {
    /// Marked as achieved: the points earned, the player's daily and weekly totals, and the
    /// building's info message.
    case achieved(points: Int, daily: Int, weekly: Int, info: String)
    /// The player had already achieved it in this game; the message to show.
    case alreadyAchieved(message: String)
}

/// Which scoreboard.
public enum ScoreboardPeriod: String, Sendable, Hashable, CaseIterable {
    /// Points since local midnight.
    case daily
    /// Points since the start of the local week.
    case weekly
}

/// One row of a scoreboard.
public struct ScoreboardRow: Sendable, Hashable {
    /// 1 for the best; rows are numbered in order (ties are broken, never shared).
    public var rank: Int
    /// The player.
    public var account: String
    /// Their points in the period.
    public var score: Int

    /// Creates a row.
    public init(rank: Int, account: String, score: Int) {
        self.rank = rank
        self.account = account
        self.score = score
    }
}

/// A scoreboard as the server returns it: the top ten of the period, and the requesting player's own
/// row after them when they are not among the ten.
public struct Scoreboard: Sendable, Hashable {
    /// Daily or weekly.
    public var period: ScoreboardPeriod
    /// The period's first local day (`2026-05-04`).
    public var periodStart: String
    /// The rows, best first; the requester's own row last when outside the top ten.
    public var rows: [ScoreboardRow]
    /// Who asked (the row the app highlights).
    public var requester: String

    /// Creates a scoreboard.
    public init(period: ScoreboardPeriod, periodStart: String, rows: [ScoreboardRow], requester: String) {
        self.period = period
        self.periodStart = periodStart
        self.rows = rows
        self.requester = requester
    }

    /// The requester's row.
    public var requesterRow: ScoreboardRow? { rows.first { $0.account == requester } }
}

/// The campus game's server as the app sees it (a REST API): join today's game, its objectives,
/// "objective achieved" and the two scoreboards. DeviceSim's `SimulatedGameServer` implements it in
/// virtual time. Every call may fail with a ``BackendError``.
///
/// ```swift
/// let join = try await server.join("alice")
/// let outcome = try await server.achieve(objective: "library", by: "alice", at: fix.coordinate, accuracy: 5)
/// let board = try await server.scoreboard(.daily, for: "alice")
/// ```
public protocol CampusGameBackend: AnyObject {
    /// Adds `account` to today's game (unless already in it) and returns the game.
    func join(_ account: String) async throws(BackendError) -> GameJoin
    /// Today's game and its objectives.
    func todaysGame(for account: String) async throws(BackendError) -> GameOfTheDay
    /// Marks `objective` achieved by `account` in the day's `game` the phone plays (nil: today's),
    /// after the server's own checks. A request naming a game that is over is refused with
    /// ``BackendError/gameOver(_:)`` and counts nothing. A request whose `requestID` the server has
    /// answered before (a retry after a lost reply) gets that answer again, and is not applied twice.
    func achieve(
        objective: String, by account: String, at coordinate: GeoCoordinate, accuracy: Double, in game: String?, requestID: String?
    ) async throws(BackendError) -> ObjectiveOutcome
    /// The daily or weekly scoreboard as `account` sees it.
    func scoreboard(_ period: ScoreboardPeriod, for account: String) async throws(BackendError) -> Scoreboard
}

extension CampusGameBackend {
    /// Marks `objective` achieved by `account` in today's game, as a request of its own (no request id).
    public func achieve(objective: String, by account: String, at coordinate: GeoCoordinate, accuracy: Double) async throws(BackendError) -> ObjectiveOutcome {
        try await achieve(objective: objective, by: account, at: coordinate, accuracy: accuracy, in: nil, requestID: nil)
    }
}

/// What the campus game app keeps on the device: today's game (stored when joining) and the
/// objectives the user achieved in it.
public struct CampusGameLocalState: Sendable, Hashable, Codable {
    /// The joined game's id (its local date) and objectives, nil before joining.
    public var gameID: String?
    /// The objectives of the joined game.
    public var objectives: [StoredObjective]
    /// Ids of the objectives achieved in the joined game, as the server accepted them.
    public var achieved: Set<String>
    /// Ids of the objectives of the joined game whose "Objective Achieved" got no answer (the phone
    /// timed out; the server may have counted it): tapped again there, the request is sent again with
    /// its game and request id, even after that day's midnight.
    public var unanswered: Set<String>

    /// Creates a state.
    public init(gameID: String? = nil, objectives: [StoredObjective] = [], achieved: Set<String> = [], unanswered: Set<String> = []) {
        self.gameID = gameID
        self.objectives = objectives
        self.achieved = achieved
        self.unanswered = unanswered
    }
}

/// A ``GameObjective`` as the device stores it.
public struct StoredObjective: Sendable, Hashable, Codable {
    public var id: String
    public var name: String
    public var latitude: Double
    public var longitude: Double
    public var radius: Double
    public var points: Int

    /// The stored form of `objective`.
    public init(_ objective: GameObjective) {
        id = objective.id
        name = objective.name
        latitude = objective.center.latitude
        longitude = objective.center.longitude
        radius = objective.radius
        points = objective.points
    }

    /// The objective (its info message stays on the server).
    public var objective: GameObjective {
        GameObjective(id: id, name: name, center: GeoCoordinate(latitude: latitude, longitude: longitude), radius: radius, points: points)
    }
}

/// Where the campus game app keeps its ``CampusGameLocalState``; a save is all or nothing.
public protocol CampusGameStore: AnyObject {
    /// The saved state (empty when nothing was saved).
    func load() throws(StorageError) -> CampusGameLocalState
    /// Replaces the saved state.
    func save(_ state: CampusGameLocalState) throws(StorageError)
}

/// A ``CampusGameStore`` in memory, for tests.
public final class InMemoryCampusGameStore: CampusGameStore {
    /// What is saved.
    public private(set) var state: CampusGameLocalState

    /// A store holding `state`.
    public init(_ state: CampusGameLocalState = CampusGameLocalState()) {
        self.state = state
    }

    public func load() throws(StorageError) -> CampusGameLocalState { state }

    public func save(_ state: CampusGameLocalState) throws(StorageError) { self.state = state }
}
