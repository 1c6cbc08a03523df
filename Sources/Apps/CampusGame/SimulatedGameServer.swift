import DeviceSimHAL
import DeviceSimServer
import DeviceSimTime

/// The campus game's server in virtual time: one game a day with the same objectives, players who
/// join it, "objective achieved" with the server's own checks, points, and daily and weekly
/// scoreboards that roll over at local midnight and at the start of the local week.
///
/// Requests take ``Configuration/latency`` of virtual time, may fail as injected, and go to the trace
/// as `game.*` events (no device): `game.joined`, `game.achieved`, `game.already-achieved`,
/// `game.repeated` (a retried request answered as before), `game.over` (a request for a day's game
/// that ended before it arrived), `game.position-rejected`, `game.failed`.
///
/// ```swift
/// let server = SimulatedGameServer(scheduler: scheduler, events: trace, calendar: calendar, objectives: [
///     GameObjective(id: "library", center: library, radius: 30, points: 10, info: "Built in 1956."),
/// ])
/// let join = try await server.join("alice")
/// ```
public final class SimulatedGameServer: CampusGameBackend {
    /// The server's requests, as failures name them.
    public enum Operation: String, Sendable, Hashable, CaseIterable {
        case join, objectives, achieve, scoreboard
    }

    /// Latency of every request.
    public struct Configuration: Sendable, Hashable {
        /// How long each request takes.
        public var latency: Duration = .milliseconds(200)

        /// The defaults.
        public init() {}
    }

    /// One achievement the server accepted.
    public struct Achievement: Sendable, Hashable {
        public var account: String
        public var objective: String
        public var game: String
        public var time: VirtualInstant
        public var points: Int
    }

    /// The game's calendar (time zone, first weekday).
    public let calendar: GameCalendar
    /// The objectives of every day's game.
    public let objectives: [GameObjective]
    /// The server's settings.
    public let configuration: Configuration
    /// Every achievement accepted, in order.
    public private(set) var achievements: [Achievement] = []
    /// Players of each day's game, by game id.
    public private(set) var players: [String: Set<String>] = [:]

    private let scheduler: EventScheduler
    private let events: any EventSink
    private var failures = InjectedFailures<Operation>()
    private var daily: [String: [String: PlayerStanding]] = [:]
    /// Each day's game's standings, by game id.
    var dailyStandings: [String: [String: PlayerStanding]] { daily }
    private var weekly: [String: [String: PlayerStanding]] = [:]
    private var achieved: Set<AchievementKey> = []
    /// The answer to every "objective achieved" by account and request id (a retry after a lost
    /// reply gets it again).
    private var answered: [String: ObjectiveOutcome] = [:]

    private struct AchievementKey: Hashable {
        var game: String
        var account: String
        var objective: String
    }

    /// Creates the server.
    public init(scheduler: EventScheduler, events: any EventSink, calendar: GameCalendar, configuration: Configuration = Configuration(), objectives: [GameObjective]) {
        self.scheduler = scheduler
        self.events = events
        self.calendar = calendar
        self.configuration = configuration
        self.objectives = objectives
    }

    /// Makes requests of `operation` fail from `from` until `until` (nil: for good), or only the next `count`.
    public func injectFailure(_ operation: Operation, from: VirtualInstant? = nil, until: VirtualInstant? = nil, count: Int? = nil) {
        failures.add(operation, from: from ?? scheduler.now, until: until, count: count)
    }

    // MARK: Requests

    public func join(_ account: String) async throws(BackendError) -> GameJoin {
        try await travel(.join)
        return try serveJoin(account)
    }

    /// Handles a join that has arrived (injected failures apply).
    func serveJoin(_ account: String) throws(BackendError) -> GameJoin {
        try failIfInjected(.join, account: account)
        let game = todaysGame()
        let added = players[game.id, default: []].insert(account).inserted
        if added {
            let now = scheduler.now
            daily[game.id, default: [:]][account] = daily[game.id]?[account] ?? PlayerStanding(account: account, score: 0, reachedAt: now)
            let week = calendar.weekStart(of: now)
            weekly[week, default: [:]][account] = weekly[week]?[account] ?? PlayerStanding(account: account, score: 0, reachedAt: now)
        }
        record("game.joined", account: account, [("game", .string(game.id)), ("added", .bool(added))])
        return GameJoin(game: game, added: added)
    }

    public func todaysGame(for account: String) async throws(BackendError) -> GameOfTheDay {
        try await travel(.objectives)
        return try serveTodaysGame(for: account)
    }

    /// Handles a request for today's game that has arrived.
    func serveTodaysGame(for account: String) throws(BackendError) -> GameOfTheDay {
        try failIfInjected(.objectives, account: account)
        return todaysGame()
    }

    public func achieve(
        objective id: String, by account: String, at coordinate: GeoCoordinate, accuracy: Double, in game: String?, requestID: String?
    ) async throws(BackendError) -> ObjectiveOutcome {
        try await travel(.achieve)
        return try serveAchieve(objective: id, by: account, at: coordinate, accuracy: accuracy, in: game, requestID: requestID)
    }

    /// Handles an "objective achieved" that has arrived: a request id answered before gets its first
    /// answer again (`game.repeated`); a request naming a day's game that is over is refused
    /// (`game.over`); otherwise the server's checks, and the points.
    func serveAchieve(
        objective id: String, by account: String, at coordinate: GeoCoordinate, accuracy: Double, in named: String? = nil, requestID: String? = nil
    ) throws(BackendError) -> ObjectiveOutcome {
        try failIfInjected(.achieve, account: account)
        let requestKey = requestID.map { account + "\u{1F}" + $0 }
        if let requestKey, let earlier = answered[requestKey] {
            record("game.repeated", account: account, [("objective", .string(id)), ("request", .string(requestID ?? ""))])
            return earlier
        }
        let outcome = try decideAchieve(objective: id, by: account, at: coordinate, accuracy: accuracy, in: named)
        if let requestKey { answered[requestKey] = outcome }
        return outcome
    }

    private func decideAchieve(objective id: String, by account: String, at coordinate: GeoCoordinate, accuracy: Double, in named: String?) throws(BackendError) -> ObjectiveOutcome {
        let game = todaysGame()
        if let named, named != game.id {
            // Tapped in a day's game that ended before the request arrived: counted in neither day.
            record("game.over", account: account, [("objective", .string(id)), ("game", .string(named)), ("today", .string(game.id))])
            throw .gameOver(named)
        }
        guard players[game.id]?.contains(account) == true else { throw .notInGame(account) }
        guard let objective = objectives.first(where: { $0.id == id }) else { throw .unknownObjective(id) }
        let key = AchievementKey(game: game.id, account: account, objective: id)
        guard !achieved.contains(key) else {
            record("game.already-achieved", account: account, [("objective", .string(id)), ("game", .string(game.id))])
            return .alreadyAchieved(message: "You have already achieved \(objective.name) in today's game.")
        }
        guard objective.isReached(by: coordinate, accuracy: accuracy) else {
            record("game.position-rejected", account: account, [("objective", .string(id))])
            throw .notAtObjective(id)
        }
        let now = scheduler.now
        achieved.insert(key)
        achievements.append(Achievement(account: account, objective: id, game: game.id, time: now, points: objective.points))
        let dailyTotal = add(objective.points, to: &daily[game.id, default: [:]], account: account, at: now)
        let weeklyTotal = add(objective.points, to: &weekly[calendar.weekStart(of: now), default: [:]], account: account, at: now)
        record("game.achieved", account: account, [
            ("objective", .string(id)), ("points", .int(objective.points)), ("daily", .int(dailyTotal)), ("weekly", .int(weeklyTotal)),
        ])
        return .achieved(points: objective.points, daily: dailyTotal, weekly: weeklyTotal, info: objective.info)
    }

    /// Puts `account` in today's game with `achieved` (objective ids) counted, as data the server
    /// holds before a run starts: no request, no latency, no failure, no event. Objectives already
    /// counted for the account today, and ids that are not objectives of the game, are left out.
    ///
    /// ```swift
    /// server.preload(account: "bob", achieved: ["library", "mensa"])
    /// ```
    public func preload(account: String, achieved ids: [String]) {
        let game = todaysGame()
        let now = scheduler.now
        if players[game.id, default: []].insert(account).inserted {
            daily[game.id, default: [:]][account] = daily[game.id]?[account] ?? PlayerStanding(account: account, score: 0, reachedAt: now)
            let week = calendar.weekStart(of: now)
            weekly[week, default: [:]][account] = weekly[week]?[account] ?? PlayerStanding(account: account, score: 0, reachedAt: now)
        }
        for id in ids {
            guard let objective = objectives.first(where: { $0.id == id }),
                  achieved.insert(AchievementKey(game: game.id, account: account, objective: id)).inserted else { continue }
            achievements.append(Achievement(account: account, objective: id, game: game.id, time: now, points: objective.points))
            _ = add(objective.points, to: &daily[game.id, default: [:]], account: account, at: now)
            _ = add(objective.points, to: &weekly[calendar.weekStart(of: now), default: [:]], account: account, at: now)
        }
    }

    public func scoreboard(_ period: ScoreboardPeriod, for account: String) async throws(BackendError) -> Scoreboard {
        try await travel(.scoreboard)
        return try serveScoreboard(period, for: account)
    }

    /// Handles a scoreboard request that has arrived.
    func serveScoreboard(_ period: ScoreboardPeriod, for account: String) throws(BackendError) -> Scoreboard {
        try failIfInjected(.scoreboard, account: account)
        return currentScoreboard(period, for: account)
    }

    /// A client of the server for one device: its requests cross `connection` (the device's
    /// connectivity, drops in flight, timeouts) instead of the server's own latency.
    public func client(connection: ServerConnection) -> any CampusGameBackend {
        GameServerClient(server: self, connection: connection)
    }

    /// The scoreboard of the period that contains the current instant, as `account` would get it
    /// (no latency, no failure, nothing traced): for tests and expectations.
    public func currentScoreboard(_ period: ScoreboardPeriod, for account: String) -> Scoreboard {
        let now = scheduler.now
        let key: String
        let standings: [String: PlayerStanding]
        switch period {
        case .daily:
            key = calendar.day(of: now)
            standings = daily[key] ?? [:]
        case .weekly:
            key = calendar.weekStart(of: now)
            standings = weekly[key] ?? [:]
        }
        return Scoreboard(period: period, periodStart: key, rows: ScoreboardRanking.rows(standings.values, requester: account), requester: account)
    }

    // MARK: Internals

    private func todaysGame() -> GameOfTheDay {
        GameOfTheDay(id: calendar.day(of: scheduler.now), objectives: objectives)
    }

    private func add(_ points: Int, to standings: inout [String: PlayerStanding], account: String, at now: VirtualInstant) -> Int {
        var standing = standings[account] ?? PlayerStanding(account: account, score: 0, reachedAt: now)
        standing.score += points
        standing.reachedAt = now
        standings[account] = standing
        return standing.score
    }

    /// The request's way to the server: its latency.
    private func travel(_ operation: Operation) async throws(BackendError) {
        do {
            try await VirtualClock(scheduler).sleep(for: configuration.latency)
        } catch {
            throw .cancelled(operation: operation.rawValue)   // the app was stopped while waiting
        }
    }

    private func failIfInjected(_ operation: Operation, account: String) throws(BackendError) {
        if failures.consume(operation, at: scheduler.now) {
            record("game.failed", account: account, [("operation", .string(operation.rawValue))])
            throw .serverError(operation: operation.rawValue)
        }
    }

    private func record(_ name: String, account: String, _ fields: [(key: String, value: TraceValue)]) {
        events.record(TraceEvent(time: scheduler.now, device: nil, name: name, fields: [("account", .string(account))] + fields))
    }
}
