import DeviceSimHAL
import DeviceSimTime

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

    /// Reads the settings (nil when the file gives none).
    static func parseSettings(_ settings: YAMLMapping?) throws(ScenarioError) -> Settings
    /// Reads one action; `step` holds the step's keys, of which only the action's own are yours.
    static func parseAction(_ name: String, step: YAMLMapping) throws(ScenarioError) -> Action

    /// Launches the app on a device.
    init(context: ScenarioAppContext, settings: Settings)
    /// Performs a user action.
    func perform(_ action: Action)

    /// Whether the app keeps its data in the device's database, so `kill-app` and `restart-app` apply.
    static var keepsDataOnDevice: Bool { get }
    /// Stops the app (it is killed or restarted): its tasks end and it touches nothing afterwards.
    func stop()
}

extension ScenarioApp {
    public static var keepsDataOnDevice: Bool { false }
    public func stop() {}
}

/// What a launched app gets: its device and the simulation it lives in.
public struct ScenarioAppContext {
    /// The device the app runs on.
    public let device: Device
    /// The simulation (other devices, the world and the backend).
    public let simulation: ScenarioSimulation
}

/// A type-erased ``ScenarioApp``.
struct AnyScenarioApp: Sendable {
    let name: String
    let settingKeys: [String]
    let actions: [String: [String]]
    let parseSettings: @Sendable (YAMLMapping?) throws(ScenarioError) -> any Sendable
    let parseAction: @Sendable (String, YAMLMapping) throws(ScenarioError) -> any Sendable
    let launch: @Sendable (ScenarioAppContext, any Sendable) -> LaunchedApp
    let keepsDataOnDevice: Bool

    init<App: ScenarioApp>(_ app: App.Type) {
        name = App.name
        settingKeys = App.settingKeys
        actions = App.actions
        keepsDataOnDevice = App.keepsDataOnDevice
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

/// The apps scenario files can name.
public enum ScenarioAppRegistry {
    static let apps: [AnyScenarioApp] = [
        AnyScenarioApp(DogWalkScenarioApp.self),
        AnyScenarioApp(FriendLocatorScenarioApp.self),
        AnyScenarioApp(TaskListScenarioApp.self),
        AnyScenarioApp(CampusGameScenarioApp.self),
        AnyScenarioApp(RoutesScenarioApp.self),
    ]

    /// The names of every registered app.
    public static var names: [String] { apps.map(\.name) }

    static func app(named name: String) -> AnyScenarioApp? {
        apps.first { $0.name == name }
    }
}
