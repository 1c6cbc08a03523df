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
            app: { name: dog-walk, settings: { user-data: { account: offline } } }
        timeline:
          - { at: 0s, do: start-app }
          - { at: 5s, do: fill-dog-profile, name: Rex, date-of-birth: \(dateOfBirth) }
          - { at: 6s, do: confirm-dog-profile }
        """
    }

    /// A typed date of birth is data: the scenario takes any text and the app's dialog refuses one
    /// that is not a calendar date (issue 48, item 8); a date of `user-data` (a setting) is refused
    /// where it is written.
    @Test func aTypedDateOfBirthThatIsNoDateIsRefusedByTheApp() throws {
        func events(_ date: String) throws -> [String] {
            let result = ScenarioRunner().run(try ScenarioParser.parse(dogWalk(dateOfBirth: date), file: "d.yaml"))
            return result.events.filter { $0.name.hasPrefix("dog-profile.") }.map { "\($0.name) \($0["reason"]?.description ?? "")" }
        }
        #expect(try events("2025-02-29").contains("dog-profile.refused 2025-02-29 is not a date: 2025-02 has 28 days"))
        #expect(try !events("2024-02-29").contains { $0.hasPrefix("dog-profile.refused") })
        #expect(try events("2024-02-29").contains { $0.hasPrefix("dog-profile.added") })
        #expect(try events("April").contains("dog-profile.refused 'April' is not a date: write it as year-month-day, such as 2020-04-01"))
        let setting = dogWalk(dateOfBirth: "2024-02-29").replacingOccurrences(of: "account: offline", with: "account: offline, dogs: [{ date-of-birth: 2023-04-31 }]")
        let error = try #require(throws: ScenarioError.self) { try ScenarioParser.parse(setting, file: "d.yaml") }
        #expect(error.description.hasPrefix("d.yaml:5:"), "\(error)")
        #expect(error.description.contains("2023-04-31 is not a date: 2023-04 has 30 days"))
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
