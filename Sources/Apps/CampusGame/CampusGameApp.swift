import DeviceSimHAL
import DeviceSimServer
import DeviceSimTime

/// The device-facing flows of the campus game, written against the HAL, a ``CampusGameBackend`` and
/// a ``CampusGameStore`` only:
///
/// - **Join the game** (1-6): the server adds the user to today's game unless already in it and
///   returns its objectives; the app stores the game on the device and shows that the user was added
///   (or already was) and the objectives.
/// - **View objectives** (1-5): today's objectives from the server.
/// - **Objective achieved** (1-8): the current GPS fix against the stored objectives
///   (``GameObjective/reached(among:by:accuracy:)``: the fix's accuracy circle, capped at 20 m, must
///   reach into the objective's circle). Not at one: a message. Already achieved on the device: a
///   message and no request. Otherwise the server is asked; its confirmation (points, daily and weekly
///   totals, the building's info) or its "already achieved" is shown, and the device marks the
///   objective only once the server has accepted it, so the device never disagrees with the server.
/// - **Daily and weekly scoreboards** (1-6): the top ten and the user's own row, highlighted.
///
/// No fix, no joined game, offline and server errors each show a message and change nothing.
///
/// **Stopped.** Killed or restarted (``stop()``), the app shows and records nothing more: not the
/// answer of a request that was on its way (the request is abandoned, ``BackendError/cancelled(operation:)``,
/// which is no server failure), and nothing after a save it was killed in the middle of.
///
/// Events (device's trace): `game.join-shown` (`added`, `game`, `objectives`), `objectives.shown`,
/// `objective.not-here` (`objective`, `nearest`: the nearest one's id and name, `distance`), `objective.pending` (`objective`, `message`: a second
/// tap while the request is on its way), `objective.queued` (`message`: a tap on a new day while its
/// join is on its way, checked when the join answers), `objective.already-achieved` (`objective`, `by`:
/// `device` / `server`, `message`), `objective.confirmed` (`objective`, `points`, `daily`, `weekly`,
/// `info`), `scoreboard.shown` (`period`, `rows`, `you`), `game.error` (`operation`, `message`: what
/// the user is shown; `reason`: why, for every error). A field `objective` is always the objective's id
/// (as the game file gives it, `library`); its name appears only where the user reads it (`message`,
/// `nearest`, the lists `objectives`).
///
/// **Days.** A game is one local day's, in the game's time zone (``calendar``). After local midnight
/// the stored game is an earlier day's: "Objective Achieved" asks the user to join today's game
/// instead of judging today's tap by yesterday's achievements. Each request names the game it was
/// tapped in; the server refuses one that arrives after that day's midnight (counted in neither
/// day), so a tap and the points it earns always belong to one day. A request whose answer never
/// came (the phone timed out: the server may have counted it) is kept on the phone
/// (``CampusGameLocalState/unanswered``): tapped again at that objective, it is sent again with its
/// game and request id even after midnight, and the phone shows the server's answer (the points it
/// counted that day); only then does a new day's game ask to be joined first.
///
/// ```swift
/// let app = CampusGameApp(device: device, account: "alice", server: server, store: InMemoryCampusGameStore())
/// app.joinGame()
/// app.objectiveAchieved()
/// ```
public final class CampusGameApp {
    /// The device.
    public let device: Device
    /// The player's account.
    public let account: String
    /// The game's server.
    public let server: any CampusGameBackend
    /// Where the app keeps today's game.
    public let store: any CampusGameStore
    /// The game's calendar: the local day a game belongs to (its id), in the game's time zone.
    public let calendar: GameCalendar
    /// The app's state, as saved on the device.
    public private(set) var state = CampusGameLocalState()
    /// The last scoreboard shown.
    public private(set) var lastScoreboard: Scoreboard?
    /// The objectives whose "Objective Achieved" request is on its way (a second tap sends no second
    /// request).
    public private(set) var pendingObjectives: Set<String> = []
    /// Whether the app was stopped (killed or restarted): it does nothing afterwards.
    public var isStopped: Bool { appTasks.isStopped }
    private lazy var appTasks = AppTasks(device: device)

    /// Creates the app; it loads what the device saved. `calendar` tells the game's local days (nil:
    /// the device's own time zone, weeks from Monday).
    public init(device: Device, account: String, server: any CampusGameBackend, store: any CampusGameStore, calendar: GameCalendar? = nil) {
        self.device = device
        self.account = account
        self.server = server
        self.store = store
        self.calendar = calendar ?? GameCalendar(civilClock: device.civilClock)
        do {
            state = try store.load()
        } catch {
            device.record("game.error", [
                ("operation", .string("load")), ("message", .string("This phone could not read its saved game: join today's game again.")),
                ("reason", .string(error.description)),
            ])
        }
    }

    /// The id of today's game on the device's clock (its local date in the game's time zone).
    public var todaysGameID: String { calendar.day(of: device.scheduler.now) }

    // MARK: User actions

    /// "Join Game".
    public func joinGame() { run { await $0.performJoin() } }

    /// "View Objectives".
    public func viewObjectives() { run { await $0.performViewObjectives() } }

    /// "Objective Achieved".
    public func objectiveAchieved() { run { await $0.performObjectiveAchieved() } }

    /// "View Daily Scoreboard" / "View Weekly Scoreboard".
    public func viewScoreboard(_ period: ScoreboardPeriod) { run { await $0.performViewScoreboard(period) } }

    /// Stops the app (killed, or restarted): its requests are abandoned and it touches nothing
    /// afterwards; a new app on the device loads what was saved.
    public func stop() {
        appTasks.stop()
    }

    // MARK: Flows

    /// The number of "Join Game" requests on their way.
    private var joinsOnTheirWay = 0
    /// "Objective Achieved" taps made while a join was on its way to a new day's game, each with the
    /// position it was tapped at: sent when the join answers.
    private var tapsAwaitingJoin: [LocationFix] = []

    private func performJoin() async {
        joinsOnTheirWay += 1
        defer {
            joinsOnTheirWay -= 1
            if joinsOnTheirWay == 0, !isStopped, !tapsAwaitingJoin.isEmpty {
                let taps = tapsAwaitingJoin
                tapsAwaitingJoin = []
                for fix in taps { run { await $0.performObjectiveAchieved(tappedAt: fix) } }
            }
        }
        do throws(BackendError) {
            let join = try await online().join(account)
            guard !isStopped else { return }
            let sameGame = state.gameID == join.game.id
            state = CampusGameLocalState(
                gameID: join.game.id, objectives: join.game.objectives.map(StoredObjective.init),
                achieved: sameGame ? state.achieved : [], unanswered: sameGame ? state.unanswered : [])
            guard save("join"), !isStopped else { return }
            let message = join.added ? "You have been added to today's game." : "You are already in today's game."
            device.record("game.join-shown", [
                ("added", .bool(join.added)), ("game", .string(join.game.id)), ("message", .string(message)),
                ("objectives", .string(join.game.objectives.map(\.name).joined(separator: "|"))),
            ])
        } catch {
            failed("join", error)
        }
    }

    private func performViewObjectives() async {
        do throws(BackendError) {
            let game = try await online().todaysGame(for: account)
            guard !isStopped else { return }
            device.record("objectives.shown", [
                ("game", .string(game.id)), ("count", .int(game.objectives.count)),
                ("objectives", .string(game.objectives.map { "\($0.name) (\($0.points))" }.joined(separator: "|"))),
            ])
        } catch {
            failed("objectives", error)
        }
    }

    /// "Objective Achieved" at the position `tappedAt` (nil: the current fix; a tap queued behind a
    /// join keeps the position it was made at).
    private func performObjectiveAchieved(tappedAt: LocationFix? = nil) async {
        guard let fix = tappedAt ?? device.location.currentFix else {
            device.record("game.error", [
                ("operation", .string("achieve")), ("message", .string("No GPS position yet: go outside and try again.")), ("reason", .string("no GPS fix")),
            ])
            return
        }
        guard let joined = state.gameID, !state.objectives.isEmpty else {
            device.record("game.error", [
                ("operation", .string("achieve")), ("message", .string("Join today's game first.")), ("reason", .string("no game joined on this phone")),
            ])
            return
        }
        let today = todaysGameID
        let objectives = state.objectives.map(\.objective)
        let accuracy = fix.horizontalAccuracy ?? GameObjective.accuracyAllowance
        let reached = GameObjective.reached(among: objectives, by: fix.coordinate, accuracy: accuracy)
        // A retry of a request whose answer never came goes to the server as it was (its game and
        // request id), even after midnight: the server may have counted it in that day's game.
        let isRetry = reached.map { state.unanswered.contains($0.id) } ?? false
        if joined != today, !isRetry, joinsOnTheirWay > 0 {
            // The user joined today's game and tapped before the join answered: the tap waits for it.
            tapsAwaitingJoin.append(fix)
            device.record("objective.queued", [
                ("message", .string("Joining today's game... your tap is checked as soon as the game server answers.")),
            ])
            return
        }
        guard joined == today || isRetry else {
            // The stored game is an earlier day's: what was achieved in it says nothing about today.
            device.record("game.error", [
                ("operation", .string("achieve")), ("message", .string("A new day's game has begun: join today's game first.")),
                ("reason", .string("today's game (\(today)) not joined on this phone; its game is of \(joined)")),
            ])
            return
        }
        guard let objective = reached else {
            let nearest = objectives.min { $0.center.distance(to: fix.coordinate) < $1.center.distance(to: fix.coordinate) }!
            device.record("objective.not-here", [
                ("objective", .string(nearest.id)), ("nearest", .string(nearest.name)), ("distance", .double((nearest.center.distance(to: fix.coordinate)).rounded())),
                ("message", .string("You are not at an objective. The nearest is \(nearest.name).")),
            ])
            return
        }
        guard !state.achieved.contains(objective.id) else {
            device.record("objective.already-achieved", [
                ("objective", .string(objective.id)), ("by", .string("device")),
                ("message", .string("You have already achieved \(objective.name) today.")),
            ])
            return
        }
        guard !pendingObjectives.contains(objective.id) else {
            // A second tap while the first request is on its way: no second request.
            device.record("objective.pending", [
                ("objective", .string(objective.id)), ("message", .string("Checking \(objective.name) with the game server...")),
            ])
            return
        }
        let game = joined
        // One id for every attempt of this objective in this game from this phone: a retry after a
        // lost reply gets the server's first answer (the points) again, and is not counted twice.
        let requestID = "\(device.id)/\(game)/\(objective.id)"
        pendingObjectives.insert(objective.id)
        defer { pendingObjectives.remove(objective.id) }
        do throws(BackendError) {
            let outcome = try await online().achieve(
                objective: objective.id, by: account, at: fix.coordinate, accuracy: accuracy, in: game, requestID: requestID)
            guard !isStopped else { return }
            // The server counted it in `game` (it refuses a game that is over), so the phone marks it
            // there, whatever else happened meanwhile (a join of the same game keeps it).
            if state.gameID == game {
                state.achieved.insert(objective.id)   // accepted now, or already by the server
                state.unanswered.remove(objective.id)
                // The server has counted it: the confirmation shows even if the phone cannot save
                // (it says so), and a later tap finds it achieved.
                _ = save("achieve", afterServerAccepted: true)
                guard !isStopped else { return }   // killed in the middle of the save: shows nothing
            }
            switch outcome {
            case .achieved(let points, let daily, let weekly, let info):
                device.record("objective.confirmed", [
                    ("objective", .string(objective.id)), ("points", .int(points)), ("daily", .int(daily)), ("weekly", .int(weekly)),
                    ("info", .string(info)),
                ])
            case .alreadyAchieved(let message):
                device.record("objective.already-achieved", [("objective", .string(objective.id)), ("by", .string("server")), ("message", .string(message))])
            }
        } catch {
            guard !isStopped else { return }
            failed("achieve", error)
            guard state.gameID == game else { return }
            switch error {
            case .timedOut, .connectionLost:
                // No answer: the server may have counted it. The phone keeps the request to send
                // again (its game and id), also after midnight.
                guard state.unanswered.insert(objective.id).inserted else { return }
            case .unreachable, .cancelled:
                return   // not sent (offline), or abandoned: nothing changes
            default:
                // The server answered (it refused): nothing of this request is left to retry.
                guard state.unanswered.remove(objective.id) != nil else { return }
            }
            _ = save("achieve")
        }
    }

    private func performViewScoreboard(_ period: ScoreboardPeriod) async {
        do throws(BackendError) {
            let board = try await online().scoreboard(period, for: account)
            guard !isStopped else { return }
            lastScoreboard = board
            device.record("scoreboard.shown", [
                ("period", .string(period.rawValue)), ("since", .string(board.periodStart)),
                ("rows", .string(board.rows.map { "\($0.rank). \($0.account) \($0.score)" }.joined(separator: "|"))),
                ("you", .string(board.requesterRow.map { "\($0.rank). \($0.account) \($0.score)" } ?? "")),
            ])
        } catch {
            failed("scoreboard", error)
        }
    }

    // MARK: Helpers

    /// Shows `error` of `operation` (nothing once the app is stopped).
    private func failed(_ operation: String, _ error: BackendError) {
        guard !isStopped else { return }
        let message: String
        switch error {
        case .unreachable: message = "No internet connection: try again when you are online."
        case .serverError: message = "The game server had a problem: try again later."
        case .cancelled: message = "The request was abandoned before the game server answered: try again."
        case .timedOut, .connectionLost: message = "The connection was lost before the game server answered: try again."
        case .notInGame: message = "Join today's game first."
        case .gameOver: message = "That day's game ended before the game server got your tap: join today's game and try again."
        case .unknownObjective: message = "This objective is not part of today's game: view the objectives to see today's."
        case .notAtObjective(let objective):
            let name = state.objectives.first { $0.objective.id == objective }?.objective.name ?? objective
            message = "The game server could not confirm that you are at \(name): move closer and try again."
        case .unknownAccount: message = "The game server does not know your account: sign in again."
        case .notFound, .unknownGroup, .locationOff: message = "The game server refused the request: try again later."
        }
        device.record("game.error", [("operation", .string(operation)), ("message", .string(message)), ("reason", .string(error.description))])
    }

    /// Saves the state; a failure is shown unless the app was stopped (killed in the middle of the
    /// write). Callers check ``isStopped`` afterwards.
    private func save(_ operation: String, afterServerAccepted: Bool = false) -> Bool {
        do {
            try store.save(state)
            return true
        } catch {
            guard !isStopped else { return false }
            let message = afterServerAccepted
                ? "The game server has counted it, but this phone could not save it: \(error)"
                : "Could not save on the device: \(error)"
            device.record("game.error", [("operation", .string(operation)), ("message", .string(message)), ("reason", .string(error.description))])
            return false
        }
    }

    private func online() throws(BackendError) -> any CampusGameBackend {
        if device.connectivity?.state == .offline { throw .unreachable }
        return server
    }

    private func run(_ operation: @escaping @Sendable (CampusGameApp) async -> Void) {
        appTasks.run(self, operation)
    }
}
