import DeviceSim
import DeviceSimScenario
import Testing

/// Inputs the app documents make invalid are refused where they are written, and a step that finds
/// nothing to act on says so in the trace.
@Suite struct DocumentedInputTests {
    init() throws { try ScenarioAppRegistry.register(BundledApps.all) }

    func dogWalk(dateOfBirth: String) -> String {
        """
        name: dates
        devices:
          - id: walker
            at: [52.52, 13.405]
            app: { name: dog-walk }
        timeline:
          - { at: 1s, do: fill-dog-profile, name: Rex, date-of-birth: \(dateOfBirth) }
        """
    }

    @Test func aDateOfBirthMustBeACalendarDate() throws {
        let error = try #require(throws: ScenarioError.self) { try ScenarioParser.parse(dogWalk(dateOfBirth: "2025-02-29"), file: "d.yaml") }
        #expect(error.description.contains("d.yaml:7:"))
        #expect(error.description.contains("2025-02-29 is not a date: 2025-02 has 28 days"))
        _ = try ScenarioParser.parse(dogWalk(dateOfBirth: "2024-02-29"), file: "d.yaml")
        #expect(throws: ScenarioError.self) { try ScenarioParser.parse(dogWalk(dateOfBirth: "2023-04-31"), file: "d.yaml") }
    }

    @Test func cancellingAnAddAccountScreenThatIsNotOpenIsRecorded() throws {
        let text = """
            name: nothing to cancel
            devices:
              - { id: phone, at: [55.75, 37.61], app: { name: task-list, settings: { signed-in: anna@gmail.com } } }
            timeline:
              - { at: 5s, do: cancel-add-account, method: google }
            expect:
              - { event: action.ignored, where: { action: cancel-add-account, reason: "no 'google' add-account screen is open" }, count: 1 }
            """
        let result = ScenarioRunner().run(try ScenarioParser.parse(text, file: "c.yaml"))
        #expect(result.passed, "\(result.outcomes.filter { !$0.passed })")
    }

    @Test func anAppsErrorAboutMissingSettingsPointsAtTheApp() throws {
        let text = """
            name: no game
            devices:
              - id: player
                at: [60.18, 24.83]
                app: { name: campus-game }
            """
        let error = try #require(throws: ScenarioError.self) { try ScenarioParser.parse(text, file: "g.yaml") }
        #expect(error.description.hasPrefix("g.yaml:5:"), "\(error)")
        #expect(error.description.contains("the campus game needs its game file"))
    }
}
