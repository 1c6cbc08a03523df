import CommuteTimer
import DeviceSim

/// The commute timer in scenario files:
///
/// ```yaml
/// app:
///   name: commute
///   settings:
///     home: [52.51450, 13.35010]
///     office: [52.51450, 13.37000]
///     radius: 150
///     question-timeout: 2m
/// timeline:
///   - { at: 0s, do: start }
/// ```
public final class CommuteScenarioApp: ScenarioApp {
    public enum Action: String, Sendable {
        case start
        case stop
    }

    public static let name = "commute"
    public static let settingKeys = ["home", "office", "radius", "question-timeout"]
    public static let actions: [String: [String]] = ["start": [], "stop": []]
    /// The prompt it shows, so that a `do: answer` naming another is refused at its `file:line:column`.
    public static let prompts: [String]? = ["arrived"]

    public let timer: CommuteTimer

    public static func parseSettings(_ settings: YAMLMapping?) throws(ScenarioError) -> CommuteTimer.Settings {
        guard let settings else { throw ScenarioError("the commute app needs settings: home and office, each [latitude, longitude]", at: nil) }
        var parsed = CommuteTimer.Settings(home: try settings.required("home").coordinate(), office: try settings.required("office").coordinate())
        if let radius = settings.optional("radius") {
            parsed.radius = try radius.double(what: "a radius in metres")
            guard parsed.radius > 0 else { throw radius.error("radius must be a positive number of metres") }
        }
        if let timeout = settings.optional("question-timeout") {
            parsed.questionTimeout = try timeout.duration(what: "how long the question stays up")
        }
        return parsed
    }

    public static func parseAction(_ name: String, step: YAMLMapping) throws(ScenarioError) -> Action {
        guard let action = Action(rawValue: name) else { throw step.node.error("unknown commute action '\(name)'") }
        return action
    }

    public init(context: ScenarioAppContext, settings: CommuteTimer.Settings) {
        timer = CommuteTimer(device: context.device, settings: settings)
    }

    public func perform(_ action: Action) {
        switch action {
        case .start:
            do { try timer.start() } catch { timer.device.record("app.error", [("error", .string("\(error)"))]) }
        case .stop:
            timer.stop()
        }
    }

    /// The app is killed or restarted (`kill-app`, `restart-app`): it stops listening.
    public func stop() {
        timer.stop()
    }
}
