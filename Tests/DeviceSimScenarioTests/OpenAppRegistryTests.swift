import DeviceSim
import DeviceSimHAL
import DeviceSimScenario
import Testing

/// A user's app, defined outside DeviceSim: it counts taps and records each one.
final class DoorCounterScenarioApp: ScenarioApp {
    struct Settings: Sendable { var step = 1 }
    struct Action: Sendable { var times: Int }

    static let name = "door-counter"
    static let settingKeys = ["step"]
    static let actions: [String: [String]] = ["tap": ["times"]]

    let device: Device
    let settings: Settings
    var count = 0

    static func parseSettings(_ settings: YAMLMapping?) throws(ScenarioError) -> Settings {
        Settings(step: try settings?.optional("step")?.int(what: "a step") ?? 1)
    }

    static func parseAction(_ name: String, step: YAMLMapping) throws(ScenarioError) -> Action {
        Action(times: try step.optional("times")?.int(what: "a number of taps") ?? 1)
    }

    init(context: ScenarioAppContext, settings: Settings) {
        device = context.device
        self.settings = settings
    }

    func perform(_ action: Action) {
        for _ in 0..<action.times {
            count += settings.step
            device.record("door.counted", [("count", .int(count))])
        }
    }
}

/// Another type that claims the same name.
final class ImpostorScenarioApp: ScenarioApp {
    static let name = "door-counter"
    static let settingKeys: [String] = []
    static let actions: [String: [String]] = [:]
    static func parseSettings(_ settings: YAMLMapping?) throws(ScenarioError) {}
    static func parseAction(_ name: String, step: YAMLMapping) throws(ScenarioError) {}
    init(context: ScenarioAppContext, settings: Void) {}
    func perform(_ action: Void) {}
}

@Suite struct OpenAppRegistryTests {
    init() throws { try ScenarioAppRegistry.register(BundledApps.all + [DoorCounterScenarioApp.self]) }

    func scenario(settings: String = "step: 2", step: String = "{ at: 1s, do: tap, times: 3 }") -> String {
        """
        name: Door counter
        duration: 10s
        devices:
          - id: phone
            at: [52.5, 13.4]
            app:
              name: door-counter
              settings:
                \(settings)
        timeline:
          - \(step)
        expect:
          - event: door.counted
            count: 3
        """
    }

    @Test func aUsersAppRunsFromAScenarioFileWithTraceAndExpectations() throws {
        #expect(ScenarioAppRegistry.names.contains("door-counter"))
        // In any order: a suite of another target may register one app before the bundled ones.
        #expect(Set(["dog-walk", "friend-locator", "task-list", "campus-game"]).isSubset(of: ScenarioAppRegistry.names), "the bundled apps register the same way")
        let result = ScenarioRunner().run(try ScenarioParser.parse(scenario(), file: "door.yaml"))
        #expect(result.passed)
        let counts = result.events.filter { $0.name == "door.counted" }.compactMap { $0.fields.first?.value }
        #expect(counts == [.int(2), .int(4), .int(6)], "the settings and the action's keys reached the app")
        #expect(result.traceJSONLines.contains("\"device\":\"phone\",\"event\":\"door.counted\",\"count\":6"))
    }

    @Test func validationCatchesAnUnknownActionOfTheUsersAppWithItsPlaceAndASuggestion() {
        #expect {
            try ScenarioParser.parse(scenario(step: "{ at: 1s, do: tapp }"), file: "door.yaml")
        } throws: { error in
            let text = "\(error)"
            return text.hasPrefix("door.yaml:11:") && text.contains("'tap'")
        }
    }

    @Test func validationCatchesAnUnknownSettingOfTheUsersAppWithItsPlaceAndASuggestion() {
        #expect {
            try ScenarioParser.parse(scenario(settings: "stepp: 2"), file: "door.yaml")
        } throws: { error in
            let text = "\(error)"
            return text.hasPrefix("door.yaml:9:") && text.contains("'step'")
        }
    }

    @Test func registeringTheSameTypeTwiceIsHarmlessButAnotherTypeCannotTakeItsName() throws {
        try ScenarioAppRegistry.register(DoorCounterScenarioApp.self)
        #expect(ScenarioAppRegistry.names.filter { $0 == "door-counter" }.count == 1)
        #expect(throws: ScenarioAppRegistrationError.nameTaken("door-counter")) { try ScenarioAppRegistry.register(ImpostorScenarioApp.self) }
    }
}
