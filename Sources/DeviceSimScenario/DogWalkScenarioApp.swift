import DeviceSimFlows
import DeviceSimHAL

/// The dog-walk map app in scenario files.
///
/// ```yaml
/// app:
///   name: dog-walk
///   settings:
///     update-interval: 5s
/// timeline:
///   - { at: 0s, device: walker, do: start-service }
///   - { at: 10m, device: walker, do: center-map }
/// ```
final class DogWalkScenarioApp: ScenarioApp {
    enum Action: String, Sendable {
        case startService = "start-service"
        case stopService = "stop-service"
        case centerMap = "center-map"
    }

    static let name = "dog-walk"
    static let settingKeys = ["update-interval"]
    static let actions: [String: [String]] = ["start-service": [], "stop-service": [], "center-map": []]

    let app: DogWalkApp

    static func parseSettings(_ settings: YAMLMapping?) throws(ScenarioError) -> DogWalkApp.Settings {
        var parsed = DogWalkApp.Settings()
        if let interval = settings?.optional("update-interval") {
            parsed.updateInterval = try interval.duration(what: "an update interval")
            guard parsed.updateInterval >= .milliseconds(100) else {
                throw interval.error("update-interval must be at least 100ms")
            }
        }
        return parsed
    }

    static func parseAction(_ name: String, step: YAMLMapping) throws(ScenarioError) -> Action {
        guard let action = Action(rawValue: name) else { throw step.node.error("unknown dog-walk action '\(name)'") }
        return action
    }

    init(context: ScenarioAppContext, settings: DogWalkApp.Settings) {
        app = DogWalkApp(device: context.device, settings: settings)
    }

    func perform(_ action: Action) {
        switch action {
        case .startService: app.startService()
        case .stopService: app.stopService()
        case .centerMap: app.centerMap()
        }
    }
}
