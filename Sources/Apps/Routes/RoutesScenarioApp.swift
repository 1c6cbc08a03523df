import DeviceSimHAL
import DeviceSimRoads
import DeviceSimScenario
import DeviceSimSimulated
import DeviceSimStorage

/// The routes app in scenario files: its map service searches the world's places and OpenStreetMap
/// names and routes on the world's roads; saved routes live in the device's `routes` database.
///
/// ```yaml
/// world: ../../Simulator/worlds/helsinki.yaml
/// devices:
///   - id: phone
///     at: railway-station
///     app:
///       name: routes
///       settings:
///         mode: foot                                   # foot (default), bike or car
///         saved-routes:                                # in the database before the scenario starts
///           - { name: Museums, through: [ateneum, kiasma] }
///           - { name: Market, from: kamppi, through: [kauppatori] }   # from: its start (default: where the phone starts)
/// timeline:
///   - { at: 5s, do: search, text: senate }
///   - { at: 10s, do: select-suggestion, place: senate-square }
///   - { at: 20s, do: save-route, name: To the Senate Square }
/// ```
public final class RoutesScenarioApp: ScenarioApp {
    /// A `saved-routes` entry: a route as the user saved it, its start and its stops.
    struct SavedRouteSetting: Sendable {
        /// Where the route starts: a place name, or a position.
        enum Start: Sendable {
            case place(String)
            case position(GeoCoordinate)
        }

        var name: String
        var through: [String]
        /// nil: where the device stands when the app first starts.
        var from: Start?
    }

    public struct Settings: Sendable {
        var mode: TravelMode = .foot
        var savedRoutes: [SavedRouteSetting] = []
    }

    public enum Action: Sendable {
        case openMap, openRoutes, editRoute, saveChanges, discardChanges, deleteRoute
        case search(text: String)
        case selectSuggestion(place: String)
        case saveRoute(name: String?)
        case cancelRouteName
        case swipeRoute(name: String)
        case removeStop(place: String)
        case moveStop(place: String, to: Int)
        case selectRoute(name: String)
        case renameRoute(name: String)
        case swipeDelete(name: String)
    }

    public static let name = "routes"
    public static let settingKeys = ["mode", "saved-routes"]
    public static let prompts: [String]? = ["delete-route"]
    public static let actions: [String: [String]] = [
        "open-map": [], "open-routes": [], "edit-route": [], "save-changes": [], "discard-changes": [], "delete-route": [],
        "search": ["text"], "select-suggestion": ["place"], "save-route": ["name"], "select-route": ["route"], "rename-route": ["name"],
        "swipe-delete": ["route"], "cancel-route-name": [], "swipe-route": ["route"], "remove-stop": ["place"], "move-stop": ["place", "to"],
    ]
    public static var keepsDataOnDevice: Bool { true }

    let app: RoutesApp

    public static func parseSettings(_ settings: YAMLMapping?) throws(ScenarioError) -> Settings {
        var parsed = Settings()
        guard let settings else { return parsed }
        if let node = settings.optional("mode") {
            parsed.mode = TravelMode(rawValue: try node.choice(TravelMode.allCases.map(\.rawValue), what: "travel mode"))!
        }
        if let node = settings.optional("saved-routes") {
            for item in try node.sequence(what: "list of saved routes") {
                let route = try item.mapping(allowing: ["name", "from", "through"], what: "saved route")
                let places = try route.required("through").sequence(what: "list of places").map { (place) throws(ScenarioError) in
                    try place.string(what: "a place name")
                }
                guard !places.isEmpty else { throw try route.required("through").error("a saved route goes through at least one place") }
                var start: SavedRouteSetting.Start?
                if let node = route.optional("from") {
                    start = node.isSequence ? .position(try node.coordinate()) : .place(try node.string(what: "a place name or [lat, lon]"))
                }
                let name = try route.requiredText("name", what: "the route's name").trimmingCharacters(in: .whitespaces)
                guard !parsed.savedRoutes.contains(where: { $0.name == name }) else {
                    throw try route.required("name").error("a second saved route named '\(name)': each saved route has its own name (steps select, edit and delete routes by it)")
                }
                parsed.savedRoutes.append(SavedRouteSetting(name: name, through: places, from: start))
            }
        }
        return parsed
    }

    public static func parseAction(_ name: String, step: YAMLMapping) throws(ScenarioError) -> Action {
        switch name {
        case "open-map": return .openMap
        case "open-routes": return .openRoutes
        case "edit-route": return .editRoute
        case "save-changes": return .saveChanges
        case "discard-changes": return .discardChanges
        case "delete-route": return .deleteRoute
        case "search": return .search(text: try step.requiredText("text", what: "the text searched for"))
        case "select-suggestion": return .selectSuggestion(place: try step.requiredText("place", what: "a suggested place"))
        case "save-route": return .saveRoute(name: try step.optional("name")?.string(what: "the route's name (\"\" for a name left empty)"))
        case "cancel-route-name": return .cancelRouteName
        case "swipe-route": return .swipeRoute(name: try step.requiredText("route", what: "a saved route's name"))
        case "remove-stop": return .removeStop(place: try step.requiredText("place", what: "a stop of the route"))
        case "move-stop":
            let node = try step.required("to")
            let position = try node.int(what: "a position among the stops (1 for the first)")
            guard position >= 1 else { throw node.error("expected a position among the stops, 1 for the first; found \(position)") }
            return .moveStop(place: try step.requiredText("place", what: "a stop of the route"), to: position)
        case "select-route": return .selectRoute(name: try step.requiredText("route", what: "a saved route's name"))
        case "rename-route": return .renameRoute(name: try step.typedText("name"))   // what the user types: the app decides
        case "swipe-delete": return .swipeDelete(name: try step.requiredText("route", what: "a saved route's name"))
        default: throw step.node.error("unknown routes action '\(name)'")
        }
    }


    public init(context: ScenarioAppContext, settings: Settings) {
        let device = context.device
        let service = RoadMapService(world: context.simulation.scenario.world ?? World(name: "none"), mode: settings.mode)
        let store: any RoutesStore
        if let database = context.simulation.database(on: device, named: "routes", migrations: SQLiteRoutesStore.migrations) {
            store = SQLiteRoutesStore(database: database)
        } else {
            store = InMemoryRoutesStore()
        }
        // `saved-routes`: routes as the user saved them (the routes document: a saved route is its
        // start, its stops and the route planned then), put in the database before the app first
        // opens, once (a restarted app finds them there). Each starts at its `from:`, or else where
        // the device stands at that first start; selecting it later shows it as saved, never
        // planned again from wherever the phone is.
        // Only at the app's first launch in the run: a restarted app finds its database as it was left
        // (a damaged one that was set aside and started empty included), and reading it here would
        // use up an injected read fault meant for the app's own load.
        if !settings.savedRoutes.isEmpty, !context.isRelaunch {
            let here = context.simulation.device(device.id)?.motion.state(at: device.scheduler.now).coordinate ?? GeoCoordinate(latitude: 0, longitude: 0)
            for saved in settings.savedRoutes {
                let start: GeoCoordinate
                switch saved.from {
                case nil: start = here
                case .position(let position): start = position
                case .place(let name):
                    guard let place = service.place(named: name) else {
                        let reason = "unknown start '\(name)': neither a place of the world nor a name on its OpenStreetMap roads"
                        device.record("settings.ignored", [("route", .string(saved.name)), ("reason", .string(reason))])
                        continue
                    }
                    start = place.coordinate
                }
                let places = saved.through.compactMap { service.place(named: $0) }
                guard places.count == saved.through.count else {
                    let unknown = saved.through.filter { service.place(named: $0) == nil }.map { "'\($0)'" }.joined(separator: ", ")
                    let reason = "unknown place \(unknown): neither a place of the world nor a name on its OpenStreetMap roads"
                    device.record("settings.ignored", [("route", .string(saved.name)), ("reason", .string(reason))])
                    continue
                }
                do {
                    _ = try store.insert(name: saved.name, route: try service.fastestRoute(from: start, through: places))
                } catch {
                    device.record("settings.ignored", [("route", .string(saved.name)), ("reason", .string("\(error)"))])
                }
            }
        }
        app = RoutesApp(device: device, maps: service, store: store)
        app.start()
    }

    public func stop() {
        app.stop()
    }

    public func perform(_ action: Action) {
        switch action {
        case .openMap: app.openMap()
        case .openRoutes: app.openRoutes()
        case .editRoute: app.editRoute()
        case .saveChanges: app.saveChanges()
        case .discardChanges: app.discardChanges()
        case .deleteRoute: app.deleteShownRoute()
        case .search(let text): app.search(text)
        case .selectSuggestion(let place): app.selectSuggestion(place)
        case .saveRoute(let name): app.saveRoute(named: name)
        case .cancelRouteName: app.cancelRouteName()
        case .swipeRoute(let name): app.swipeRoute(name)
        case .removeStop(let place): app.removeStop(place)
        case .moveStop(let place, let position): app.moveStop(place, to: position)
        case .selectRoute(let name): app.selectRoute(name)
        case .renameRoute(let name): app.renameRoute(name)
        case .swipeDelete(let name): app.swipeToDelete(name)
        }
    }
}
