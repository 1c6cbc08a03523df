import DeviceSimHAL
import DeviceSimScenario
import DeviceSimStorage
import DeviceSimTime
import Foundation

/// The campus game in scenario files. The devices share one game server, made from the game file
/// the first device names; each device plays as its `account`.
///
/// ```yaml
/// app:
///   name: campus-game
///   settings:
///     game: ../../Simulator/games/tu-campus.yaml
///     server-players: { bob: [library] }      # already in today's game on the server
///     joined: { achieved: [mensa] }           # today's game already on this phone
/// timeline:
///   - { at: 0s, do: join-game }
///   - { at: 10m, do: objective-achieved }
///   - { at: 11m, do: view-daily-scoreboard }
/// ```
public final class CampusGameScenarioApp: ScenarioApp {
    public struct Settings: Sendable {
        var game: GameDefinition
        var latency: Duration = .milliseconds(200)
        var failures: [(operation: SimulatedGameServer.Operation, from: Duration, until: Duration?, count: Int?)] = []
        /// Other players already in today's game on the server, with the objectives they achieved.
        var serverPlayers: [(account: String, achieved: [String])] = []
        /// The objectives achieved in today's game, when the device joined it before the scenario.
        var joined: [String]?
    }

    public enum Action: String, Sendable {
        case join = "join-game"
        case viewObjectives = "view-objectives"
        case achieved = "objective-achieved"
        case daily = "view-daily-scoreboard"
        case weekly = "view-weekly-scoreboard"
    }

    public static let name = "campus-game"
    public static var serverTables: [String]? { SimulatedGameServer.tables.keys.sorted() }
    public static var serverTableColumns: [String: [String]]? { SimulatedGameServer.tables }
    public static let settingKeys = ["game", "time-zone", "week-starts", "server-latency", "server-failures", "server-players", "joined"]
    public static let prompts: [String]? = []
    public static let actions: [String: [String]] = Dictionary(uniqueKeysWithValues: [Action.join, .viewObjectives, .achieved, .daily, .weekly].map { ($0.rawValue, [String]()) })

    let app: CampusGameApp

    public static func parseSettings(_ settings: YAMLMapping?) throws(ScenarioError) -> Settings {
        guard let settings, let gameNode = settings.optional("game") else {
            let message = "the campus game needs its game file: app: { name: campus-game, settings: { game: path/to/game.yaml } }"
            throw settings.map { $0.node.error(message) } ?? ScenarioError(message, at: nil)
        }
        let url = try ScenarioParser.readableFile(gameNode, kind: "game", what: "a game file path")
        var parsed = Settings(game: try GameFileParser.parse(contentsOf: url.path))
        if let node = settings.optional("time-zone") {
            let zone = try node.string(what: "an IANA time zone name")
            guard TimeZone(identifier: zone) != nil else { throw node.error("unknown time zone '\(zone)'; use an IANA name such as Europe/Berlin") }
            parsed.game.timeZone = zone
        }
        if let node = settings.optional("week-starts") {
            parsed.game.weekStarts = GameCalendar.Weekday(rawValue: try node.choice(GameCalendar.Weekday.allCases.map(\.rawValue), what: "a day of the week"))!
        }
        if let node = settings.optional("server-latency") { parsed.latency = try node.duration(what: "the server's latency") }
        if let node = settings.optional("server-failures") {
            for item in try node.sequence(what: "list of failures") {
                let failure = try item.mapping(allowing: ["operation", "within", "count"], what: "failure")
                let operation = SimulatedGameServer.Operation(rawValue: try failure.required("operation").choice(SimulatedGameServer.Operation.allCases.map(\.rawValue), what: "a game server operation"))!
                var from: Duration = .zero, until: Duration?
                if let within = failure.optional("within") {
                    let window = try ScenarioParser.parseFailureWindow(within)
                    from = window.lowerBound
                    until = window.upperBound
                }
                let count = try failure.optional("count").map { (n) throws(ScenarioError) in try ScenarioParser.parseFailureCount(n) }
                parsed.failures.append((operation, from, until, count))
            }
        }
        let objectiveIDs = parsed.game.objectives.map(\.id)
        func objectives(_ node: YAMLNode) throws(ScenarioError) -> [String] {
            try node.sequence(what: "list of objective ids").map { (item) throws(ScenarioError) -> String in
                let id = try item.string(what: "an objective id")
                guard objectiveIDs.contains(id) else {
                    throw item.error("unknown objective '\(id)': the game's objectives are \(objectiveIDs.joined(separator: ", "))")
                }
                return id
            }
        }
        if let node = settings.optional("server-players") {
            for (account, list) in try node.entries(what: "server-players (account: [objective ids achieved today])") {
                parsed.serverPlayers.append((account, try objectives(list)))
            }
        }
        if let node = settings.optional("joined") {
            if node.isMapping {
                let joined = try node.mapping(allowing: ["achieved"], what: "joined (today's game, stored on the device)")
                parsed.joined = try joined.optional("achieved").map { (n) throws(ScenarioError) in try objectives(n) } ?? []
            } else if try node.bool() {
                parsed.joined = []
            }
        }
        return parsed
    }

    public static let keepsDataOnDevice = true

    public static let dataFileKeys = ["objectives"]
    public static let dataFileHint =
        "a campus game file, not a scenario: a scenario's campus-game device names it with 'app: { name: campus-game, settings: { game: <path relative to the scenario> } }'"

    public static func validateDataFile(atPath path: String) throws(ScenarioError) -> String {
        let game = try GameFileParser.parse(contentsOf: path)
        return "campus game \(game.name) (\(game.objectives.count) objective\(game.objectives.count == 1 ? "" : "s"), \(game.timeZone))"
    }

    /// The game server is one for the whole scenario, made from these settings: every campus-game
    /// device must give the same ones (or none but the first).
    static let serverSettingKeys = ["game", "time-zone", "week-starts", "server-latency", "server-failures", "server-players"]

    /// Refuses a scenario whose campus-game devices configure the one shared server differently.
    public static func parseServer(_ sections: ScenarioServerSections) throws(ScenarioError) -> (any Sendable)? {
        var first: (id: String, settings: Settings)?
        for device in sections.devices where device.app?.name == name {
            guard let settings = device.app?.settings as? Settings else { continue }
            guard let reference = first else {
                first = (device.id, settings)
                continue
            }
            let same = settings.game == reference.settings.game && settings.latency == reference.settings.latency
                && String(describing: settings.failures) == String(describing: reference.settings.failures)
                && String(describing: settings.serverPlayers) == String(describing: reference.settings.serverPlayers)
            guard same else {
                throw ScenarioError(
                    "device '\(device.id)' gives the campus game's server other settings than device '\(reference.id)': "
                        + "\(serverSettingKeys.joined(separator: ", ")) configure the one game server every device shares; give them the same values",
                    at: device.location)
            }
        }
        // server-players are the other players: a device's own account is in the game through its
        // phone (`joined:`), or the server would credit it with what its phone never stored.
        let playedOnDevices = Set(sections.devices.filter { $0.app?.name == name }.map(\.account))
        if let (id, settings) = first, let own = settings.serverPlayers.first(where: { playedOnDevices.contains($0.account) }) {
            throw ScenarioError(
                "server-players lists \(own.account), whose phone is a device of this scenario; server-players are the other players: "
                    + "what that device's player achieved today is its joined: { achieved: [...] }",
                at: sections.devices.first { $0.id == id }?.location ?? sections.devices[0].location)
        }
        return nil
    }

    public static func parseAction(_ name: String, step: YAMLMapping) throws(ScenarioError) -> Action {
        guard let action = Action(rawValue: name) else { throw step.node.error("unknown campus-game action '\(name)'") }
        return action
    }

    public init(context: ScenarioAppContext, settings: Settings) {
        let simulation = context.simulation
        let scheduler = context.device.scheduler
        let server = simulation.sharedService { () -> SimulatedGameServer in
            let calendar = GameCalendar(
                startDate: simulation.scenario.startDate,
                timeZone: TimeZone(identifier: settings.game.timeZone) ?? TimeZone(secondsFromGMT: 0)!,
                firstWeekday: settings.game.weekStarts)
            var configuration = SimulatedGameServer.Configuration()
            configuration.latency = settings.latency
            let server = SimulatedGameServer(scheduler: scheduler, events: simulation.trace, calendar: calendar, configuration: configuration, objectives: settings.game.objectives)
            for failure in settings.failures {
                server.injectFailure(failure.operation, from: VirtualInstant(offset: failure.from), until: failure.until.map { VirtualInstant(offset: $0) }, count: failure.count)
            }
            for player in settings.serverPlayers { server.preload(account: player.account, achieved: player.achieved) }
            return server
        }
        let firstLaunch = !context.isRelaunch
        simulation.registerInspectableServer(server, for: Self.name)
        let account = simulation.spec(ofDevice: context.device.id)?.account ?? context.device.id
        // The app's state lives in the device's campus-game database (an SQLite file in the run's data folder).
        let store: any CampusGameStore = simulation.database(on: context.device, named: "campus-game", migrations: SQLiteCampusGameStore.migrations)
            .map(SQLiteCampusGameStore.init(database:)) ?? InMemoryCampusGameStore()
        // `joined`: the device joined today's game before the scenario, on the server and in its
        // database (once: a restarted app finds its database as it was left).
        if firstLaunch, let achieved = settings.joined {
            server.preload(account: account, achieved: achieved)
            let state = CampusGameLocalState(
                gameID: server.calendar.day(of: context.device.scheduler.now), objectives: settings.game.objectives.map(StoredObjective.init),
                achieved: Set(achieved))
            do {
                try store.save(state)
            } catch {
                context.device.record("game.error", [
                    ("operation", .string("load")), ("message", .string("This phone could not save its game: join today's game again.")),
                    ("reason", .string(error.description)),
                ])
            }
        }
        // Each phone reaches the one game server through its own connection: its connectivity, and
        // requests lost when the connection drops.
        let client = server.client(connection: simulation.serverConnection(of: context.device, app: Self.name, latency: settings.latency))
        app = CampusGameApp(device: context.device, account: account, server: client, store: store, calendar: server.calendar)
    }

    public func perform(_ action: Action) {
        switch action {
        case .join: app.joinGame()
        case .viewObjectives: app.viewObjectives()
        case .achieved: app.objectiveAchieved()
        case .daily: app.viewScoreboard(.daily)
        case .weekly: app.viewScoreboard(.weekly)
        }
    }

    public func stop() {
        app.stop()
    }
}
