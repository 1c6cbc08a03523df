import DeviceSimHAL
import DeviceSimScenario
import DeviceSimStorage

/// The friend-locator app in scenario files. The app starts with the scenario, signed in as the
/// device's `account`, and talks to the scenario's simulated backend.
///
/// ```yaml
/// app:
///   name: friend-locator
///   settings: { auto-ping: true, auto-locate: false, group: family, area: 2km }
/// timeline:
///   - { at: 2m, device: alice, do: answer, prompt: locate-precisely, choice: "yes" }
///   - { at: 5m, device: alice, do: add-friend, email: carol@tu-berlin.de }
///   - { at: 6m, device: alice, do: find-friends }
///   - { at: 9m, device: alice, do: turn-off-location }
/// ```
public final class FriendLocatorScenarioApp: ScenarioApp {
    public enum Action: Sendable {
        case signUp(email: String)
        case addFriend(email: String)
        case findFriends
        case turnOffLocation
    }

    public static let name = "friend-locator"
    public static let settingKeys = [
        "auto-ping", "auto-locate", "group", "manual-pinning", "prompt-timeout", "locate-timeout", "enter-after", "leave-after", "minimum-rssi",
        "area", "signed-in",
    ]
    public static let prompts: [String]? = ["inform-group", "locate-precisely", "locate-method", "pin-position"]
    public static let actions: [String: [String]] = ["sign-up": ["email"], "add-friend": ["email"], "find-friends": [], "turn-off-location": []]

    let app: FriendLocatorApp

    public static func parseSettings(_ settings: YAMLMapping?) throws(ScenarioError) -> FriendLocatorApp.Settings {
        var parsed = FriendLocatorApp.Settings()
        guard let settings else { return parsed }
        if let n = settings.optional("auto-ping") { parsed.autoPing = try n.bool() }
        if let n = settings.optional("auto-locate") { parsed.autoLocate = try n.bool() }
        if let n = settings.optional("group") { parsed.group = try n.string(what: "a group name") }
        if let n = settings.optional("manual-pinning") { parsed.manualPinning = try n.bool() }
        if let n = settings.optional("prompt-timeout") {
            parsed.promptTimeout = try n.duration(what: "how long prompts wait")
            guard parsed.promptTimeout > .zero else { throw n.error("prompt-timeout must be greater than zero") }
        }
        if let n = settings.optional("locate-timeout") {
            parsed.locateTimeout = try n.duration(what: "how long Bluetooth may take")
            guard parsed.locateTimeout > .zero else { throw n.error("locate-timeout must be greater than zero") }
        }
        if let n = settings.optional("enter-after") {
            parsed.enterAfter = try n.int(what: "a number of scans")
            guard (1...100).contains(parsed.enterAfter) else { throw n.error("enter-after must be within 1...100 scans") }
        }
        if let n = settings.optional("leave-after") {
            parsed.leaveAfter = try n.int(what: "a number of scans")
            guard (1...100).contains(parsed.leaveAfter) else { throw n.error("leave-after must be within 1...100 scans") }
        }
        if let n = settings.optional("minimum-rssi") {
            parsed.minimumRSSI = try n.double(what: "a signal strength in dBm")
            guard (-120 ... -20).contains(parsed.minimumRSSI) else { throw n.error("minimum-rssi must be within -120...-20 dBm") }
        }
        if let n = settings.optional("area") { parsed.area = try parseArea(n) }
        if let n = settings.optional("signed-in") { parsed.signedIn = try n.bool() }
        return parsed
    }

    /// `any`, or a radius: `500m`, `2km`, or a number of metres.
    private static func parseArea(_ node: YAMLNode) throws(ScenarioError) -> FriendLocatorApp.FriendsArea {
        let text = node.scalarText ?? ""
        if text == "any" { return .any }
        var number = text, scale = 1.0
        if text.hasSuffix("km") {
            number = String(text.dropLast(2)); scale = 1000
        } else if text.hasSuffix("m") {
            number = String(text.dropLast())
        }
        guard let value = Double(number), value > 0, value * scale <= 20_000_000 else {
            throw node.error("expected 'any' or a radius such as 500m or 2km, found '\(text)'")
        }
        return .within(metres: value * scale)
    }

    public static func parseAction(_ name: String, step: YAMLMapping) throws(ScenarioError) -> Action {
        switch name {
        // What the user types: any text; the backend validates it ("Backend validates input").
        case "sign-up": return .signUp(email: try step.typedText("email"))
        case "add-friend": return .addFriend(email: try step.typedText("email"))
        case "find-friends": return .findFriends
        case "turn-off-location": return .turnOffLocation
        default: throw step.node.error("unknown friend-locator action '\(name)'")
        }
    }

    public static let serverKeys = ["backend"]
    public static var serverTables: [String]? { FriendLocatorServer.tables.keys.sorted() }
    public static var serverTableColumns: [String: [String]]? { FriendLocatorServer.tables }

    public static func parseServer(_ sections: ScenarioServerSections) throws(ScenarioError) -> (any Sendable)? {
        try FriendLocatorServerSpec.parse(sections)
    }

    public init(context: ScenarioAppContext, settings: FriendLocatorApp.Settings) {
        let simulation = context.simulation
        let account = simulation.spec(ofDevice: context.device.id)?.account ?? context.device.id
        let server = simulation.sharedService { () -> FriendLocatorServer in
            let spec = simulation.serverConfiguration(of: Self.name) as? FriendLocatorServerSpec ?? FriendLocatorServerSpec()
            let server = FriendLocatorServer(
                scheduler: simulation.scheduler, events: simulation.trace, configuration: spec.configuration,
                hotspots: simulation.scenario.world?.hotspotInfos ?? [], accounts: spec.accounts)
            for failure in spec.failures { server.injectFailure(failure) }
            for location in spec.locations { server.preload(location: location) }
            return server
        }
        simulation.registerInspectableServer(server, for: Self.name)
        // Each phone reaches the one server through its own connection: the backend's latency, the
        // phone's connectivity, and requests lost when the connection drops.
        let latency = (simulation.serverConfiguration(of: Self.name) as? FriendLocatorServerSpec)?.configuration.latency ?? server.configuration.latency
        let backend = server.client(connection: simulation.serverConnection(of: context.device, app: Self.name, latency: latency))
        // The app's state lives in the device's friend-locator database (an SQLite file in the run's
        // data folder): a killed or restarted app goes on signed in, with what it had not sent.
        let store: any FriendLocatorStore = simulation.database(on: context.device, named: "friend-locator", migrations: SQLiteFriendLocatorStore.migrations)
            .map(SQLiteFriendLocatorStore.init(database:)) ?? InMemoryFriendLocatorStore()
        app = FriendLocatorApp(device: context.device, account: account, backend: backend, settings: settings, store: store, restoring: context.isRelaunch)
        app.start()
    }

    public static let keepsDataOnDevice = true


    public func stop() {
        app.stop()
    }

    public func perform(_ action: Action) {
        switch action {
        case .signUp(let email): app.signUp(email: email)
        case .addFriend(let email): app.addFriend(email: email)
        case .findFriends: app.findFriendsInArea()
        case .turnOffLocation: app.turnOffLocation()
        }
    }
}
