import DeviceSimHAL
import DeviceSimSimulated
import DeviceSimTime
import Synchronization

/// An app that scenario files can put on a device: how to read its settings and user actions from a
/// scenario file, how to launch it, and how to perform its actions.
///
/// Each app registers one definition in ``ScenarioAppRegistry``; the parser validates settings and
/// actions against it (so `devicesim validate` catches mistakes), and the runner launches it.
///
/// ```swift
/// struct MyApp: ScenarioApp {
///     static let name = "my-app"
///     static let settingKeys = ["interval"]
///     static let actions = ["tap": [String]()]
///     ...
/// }
/// ```
public protocol ScenarioApp: AnyObject, SendableMetatype {
    /// The settings type, parsed from the `settings:` mapping.
    associatedtype Settings: Sendable
    /// A parsed user action.
    associatedtype Action: Sendable

    /// The name scenario files use (`app: { name: … }`).
    static var name: String { get }
    /// The keys allowed under `settings:`.
    static var settingKeys: [String] { get }
    /// The user actions (`do:` values) and the extra keys each one accepts.
    static var actions: [String: [String]] { get }
    /// The ids of the prompts the app can show, so that `do: answer` steps naming another are refused
    /// with the nearest id (nil, the default: not checked).
    static var prompts: [String]? { get }

    /// Reads the settings (nil when the file gives none).
    static func parseSettings(_ settings: YAMLMapping?) throws(ScenarioError) -> Settings
    /// Reads one action; `step` holds the step's keys, of which only the action's own are yours.
    static func parseAction(_ name: String, step: YAMLMapping) throws(ScenarioError) -> Action

    /// Launches the app on a device.
    init(context: ScenarioAppContext, settings: Settings)
    /// Performs a user action.
    func perform(_ action: Action)

    /// The top-level keys of a scenario file that configure the app's server, which every device of
    /// the scenario shares (the friend locator reads `backend:`); none unless the app says so.
    static var serverKeys: [String] { get }
    /// Reads the app's server configuration from a scenario file's top-level keys (its
    /// ``serverKeys``), once per scenario file that names one of them or has a device running the app;
    /// nil when the app keeps no configuration. Launched apps find the result with
    /// ``ScenarioSimulation/serverConfiguration(of:)``.
    static func parseServer(_ sections: ScenarioServerSections) throws(ScenarioError) -> (any Sendable)?

    /// The top-level keys that mark a YAML file as one of the app's own data files (a campus game's
    /// `objectives`), which scenario folders may hold beside their scenarios: `devicesim run` leaves
    /// such files out and `devicesim validate` checks them with ``validateDataFile(atPath:)``.
    static var dataFileKeys: [String] { get }
    /// What such a file is and how a scenario names it, for the error when one is run as a scenario
    /// ("a campus game file, not a scenario: a scenario's campus-game device names it with ...").
    static var dataFileHint: String { get }
    /// Reads one of the app's data files and says what it holds (`devicesim validate` prints it after
    /// the path), or throws where the file is wrong.
    static func validateDataFile(atPath path: String) throws(ScenarioError) -> String

    /// Whether the app keeps its data in the device's database, so `kill-app` and `restart-app` apply.
    static var keepsDataOnDevice: Bool { get }
    /// The database file the app keeps on each device, which `stored:` expectations read (nil: none,
    /// and a `stored:` expectation on a device running the app is refused). The default, for an app
    /// that ``keepsDataOnDevice``, is `<device id>.<app name>.sqlite`, the file
    /// ``ScenarioSimulation/database(on:named:migrations:)`` opens with the app's name.
    static var deviceDatabase: ScenarioAppDatabase? { get }
    /// The tables of the app's server that `server:` expectations read (its ``InspectableServer``'s),
    /// so that `validate` refuses a table name the server does not have (nil, the default: not checked).
    static var serverTables: [String]? { get }
    /// The columns of each table of ``serverTables``, in the order its rows give them, so that a
    /// `server:` expectation's `columns:` is checked by `validate` (nil, the default: `columns:` refused).
    static var serverTableColumns: [String: [String]]? { get }
    /// Stops the app (it is killed or restarted): its tasks end and it touches nothing afterwards.
    func stop()

    /// Whether the app's code runs on the main actor (a `@MainActor` view model, the `Task {}`s it starts):
    /// then the runner drives each scenario running it from the main actor, as a `@MainActor` test drives
    /// its simulation, and calls ``init(context:settings:)``, ``perform(_:)`` and ``stop()`` there, so the
    /// adapter may enter the main actor with `MainActor.assumeIsolated`. False (the default): the
    /// scenario runs on a worker thread, in parallel with others, and main-actor work its app queues
    /// stops the run (nothing would run it in step with the simulation).
    ///
    /// ```swift
    /// final class CheckInScenarioApp: ScenarioApp {
    ///     static let runsOnMainActor = true
    ///     let model: CheckInViewModel
    ///     init(context: ScenarioAppContext, settings: Settings) {
    ///         model = MainActor.assumeIsolated { CheckInViewModel(device: context.device, clock: context.device.clock) }
    ///     }
    ///     ...
    /// }
    /// ```
    static var runsOnMainActor: Bool { get }
}

extension ScenarioApp {
    public static var keepsDataOnDevice: Bool { false }
    public static var deviceDatabase: ScenarioAppDatabase? { keepsDataOnDevice ? .named(name) : nil }
    public static var serverTables: [String]? { nil }
    public static var serverTableColumns: [String: [String]]? { nil }
    public static var prompts: [String]? { nil }
    public static var serverKeys: [String] { [] }
    public static var dataFileKeys: [String] { [] }
    public static var dataFileHint: String { "a data file of the app '\(name)', not a scenario" }
    public static func validateDataFile(atPath path: String) throws(ScenarioError) -> String { "a data file of the app '\(name)'" }
    public static func parseServer(_ sections: ScenarioServerSections) throws(ScenarioError) -> (any Sendable)? { nil }
    public func stop() {}
    public static var runsOnMainActor: Bool { false }
}

/// The database file an app keeps on each device (``ScenarioApp/deviceDatabase``), and how a `stored:`
/// expectation names it.
///
/// ```yaml
/// - stored: "SELECT text FROM tasks"
///   database: task-list     # .named("task-list"): phone.task-list.sqlite
/// - stored: "SELECT kind FROM business_records"
///                           # .unnamed (the dog walk's): phone.sqlite, no `database:`
/// ```
public enum ScenarioAppDatabase: Sendable, Hashable {
    /// `<device id>.sqlite`, which a `stored:` expectation reads when it gives no `database:`.
    case unnamed
    /// `<device id>.<name>.sqlite`, which a `stored:` expectation reads with `database: <name>`.
    case named(String)

    /// The file's name on the device `device`.
    public func file(onDevice device: String) -> String {
        switch self {
        case .unnamed: "\(device).sqlite"
        case .named(let name): "\(device).\(name).sqlite"
        }
    }

    /// What to change in a `stored:` expectation that names another database, so it reads this one.
    var fix: String {
        switch self {
        case .unnamed: "leave out `database:`"
        case .named(let name): "write `database: \(name)`"
        }
    }
}

/// What an app's ``ScenarioApp/parseServer(_:)`` reads: the scenario file's top-level mapping (of
/// which only the app's ``ScenarioApp/serverKeys`` are its own), the devices and the world.
///
/// ```swift
/// static func parseServer(_ sections: ScenarioServerSections) throws(ScenarioError) -> (any Sendable)? {
///     let latency = try sections.mapping.optional("my-server")?.duration(what: "a latency")
///     return latency ?? .milliseconds(200)
/// }
/// ```
public struct ScenarioServerSections {
    /// The scenario file's top-level mapping.
    public let mapping: YAMLMapping
    /// The scenario's devices (after `count:` copies).
    public let devices: [DeviceSpec]
    /// The scenario's world, when it names one.
    public let world: World?
}

/// What a launched app gets: its device and the simulation it lives in.
public struct ScenarioAppContext {
    /// The device the app runs on.
    public let device: Device
    /// The simulation (other devices, the world and the backend).
    public let simulation: ScenarioSimulation
    /// Whether the app ran on this device before in this run (`restart-app`, or `restart-app` after
    /// `kill-app`): its database is as that run left it, so the scenario's data for the device (what
    /// it held before the scenario began) is not put in place again.
    public let isRelaunch: Bool
}

/// A type-erased ``ScenarioApp``.
struct AnyScenarioApp: Sendable {
    let type: ObjectIdentifier
    let name: String
    let settingKeys: [String]
    let actions: [String: [String]]
    let prompts: [String]?
    let parseSettings: @Sendable (YAMLMapping?) throws(ScenarioError) -> any Sendable
    let parseAction: @Sendable (String, YAMLMapping) throws(ScenarioError) -> any Sendable
    let launch: @Sendable (ScenarioAppContext, any Sendable) -> LaunchedApp
    let keepsDataOnDevice: Bool
    let runsOnMainActor: Bool
    let deviceDatabase: ScenarioAppDatabase?
    let serverTables: [String]?
    let serverTableColumns: [String: [String]]?
    let serverKeys: [String]
    let dataFileKeys: [String]
    let dataFileHint: String
    let validateDataFile: @Sendable (String) throws(ScenarioError) -> String
    let parseServer: @Sendable (ScenarioServerSections) throws(ScenarioError) -> (any Sendable)?
    /// The events the app records on its device and on its server, with their fields (nil: not described, see ``ScenarioAppEvents``).
    let events: [String: [String]]?
    let serverEvents: [String: [String]]?

    init<App: ScenarioApp>(_ app: App.Type) {
        type = ObjectIdentifier(App.self)
        name = App.name
        settingKeys = App.settingKeys
        actions = App.actions
        prompts = App.prompts
        keepsDataOnDevice = App.keepsDataOnDevice
        runsOnMainActor = App.runsOnMainActor
        deviceDatabase = App.deviceDatabase
        serverTables = App.serverTables
        serverTableColumns = App.serverTableColumns
        serverKeys = App.serverKeys
        dataFileKeys = App.dataFileKeys
        dataFileHint = App.dataFileHint
        let described = App.self as? any ScenarioAppEvents.Type
        events = described?.events
        serverEvents = described?.serverEvents
        validateDataFile = { (path: String) throws(ScenarioError) -> String in try App.validateDataFile(atPath: path) }
        parseServer = { (sections: ScenarioServerSections) throws(ScenarioError) -> (any Sendable)? in try App.parseServer(sections) }
        parseSettings = { (map: YAMLMapping?) throws(ScenarioError) -> any Sendable in try App.parseSettings(map) }
        parseAction = { (name: String, step: YAMLMapping) throws(ScenarioError) -> any Sendable in try App.parseAction(name, step: step) }
        launch = { context, settings in
            let instance = App(context: context, settings: settings as! App.Settings)
            return LaunchedApp(instance: instance, stop: { instance.stop() }) { action in instance.perform(action as! App.Action) }
        }
    }
}

/// A running app and the way to hand it actions.
struct LaunchedApp {
    let instance: AnyObject
    let stop: () -> Void
    let perform: (any Sendable) -> Void
}

/// The apps scenario files can name: those the program registered before reading any scenario file.
///
/// The runner knows no app of its own: `devicesim` registers the bundled ones (`BundledApps.all` in
/// the `DeviceSim` module) and a user's program registers its own the same way (no edit of
/// DeviceSim); from then on scenario files name it like a bundled app, `devicesim validate` checks its
/// settings and actions, and traces, expectations and reports cover it.
///
/// ```swift
/// try ScenarioAppRegistry.register(CommuteScenarioApp.self)
/// let scenario = try ScenarioParser.parse(contentsOf: "Scenarios/leave-home.yaml")
/// ```
public enum ScenarioAppRegistry {
    private static let registered = Mutex<[AnyScenarioApp]>([])

    static var apps: [AnyScenarioApp] { registered.withLock { $0 } }

    /// The names of every registered app.
    public static var names: [String] { apps.map(\.name) }

    /// Adds `app`, so scenario files can name it. Registering the very same type again does nothing.
    ///
    /// - Throws: ``ScenarioAppRegistrationError`` when another type already uses the app's name, or
    ///   the name is not a valid app name (letters, digits and `-`).
    public static func register<App: ScenarioApp>(_ app: App.Type) throws(ScenarioAppRegistrationError) {
        let entry = AnyScenarioApp(app)
        guard !entry.name.isEmpty, entry.name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
            throw .invalidName(entry.name)
        }
        let result: Result<Void, ScenarioAppRegistrationError> = registered.withLock { apps in
            if let existing = apps.first(where: { $0.name == entry.name }) {
                return existing.type == entry.type ? .success(()) : .failure(.nameTaken(entry.name))
            }
            apps.append(entry)
            return .success(())
        }
        try result.get()
    }

    /// Adds every app in `apps` (see ``register(_:)``).
    public static func register(_ apps: [any ScenarioApp.Type]) throws(ScenarioAppRegistrationError) {
        for app in apps { try register(app) }
    }

    static func app(named name: String) -> AnyScenarioApp? {
        apps.first { $0.name == name }
    }

    /// The app whose data files have these top-level keys (the first registered app one of whose
    /// ``ScenarioApp/dataFileKeys`` is among them).
    static func dataFileOwner(topLevelKeys keys: [String]) -> AnyScenarioApp? {
        apps.first { app in app.dataFileKeys.contains(where: keys.contains) }
    }

    /// The app whose data file `text` is, told by a scan of its top-level keys (no YAML parse).
    static func dataFileOwner(ofText text: String) -> AnyScenarioApp? {
        apps.first { app in app.dataFileKeys.contains { YAMLFileKind.topLevelValue(of: $0, in: text) != nil } }
    }

    /// Checks the app data file at `path` (see ``YAMLFileKind/appData``) with its app, and says what it
    /// holds; nil when no registered app owns a file with its top-level keys.
    ///
    /// ```swift
    /// if YAMLFileKind(contentsOf: path) == .appData, let summary = try ScenarioAppRegistry.validateDataFile(atPath: path) { ... }
    /// ```
    public static func validateDataFile(atPath path: String) throws(ScenarioError) -> String? {
        let text = try ScenarioParser.readText(of: path, kind: "YAML", limit: ScenarioParser.maximumFileSize)
        guard let owner = dataFileOwner(ofText: text) else { return nil }
        return try owner.validateDataFile(path)
    }
}

/// Why ``ScenarioAppRegistry/register(_:)`` refused an app.
public enum ScenarioAppRegistrationError: Error, Equatable, CustomStringConvertible {
    /// Another app type already has this name.
    case nameTaken(String)
    /// The name is empty or has characters other than letters, digits, `-` and `_`.
    case invalidName(String)

    public var description: String {
        switch self {
        case .nameTaken(let name): "another app is already registered as '\(name)'; give your app's `name` a different value"
        case .invalidName(let name): "'\(name)' is not a usable app name: use letters, digits and '-' (e.g. 'commute-timer')"
        }
    }
}
