import DeviceSim
import DeviceSimScenario
import Testing

/// `stored:` and `server:` expectations: what a device's database and an app's server hold.
@Suite struct StoredExpectationTests {
    init() throws { try ScenarioAppRegistry.register(BundledApps.all) }

    func scenario(_ expectation: String) -> String {
        """
        name: stored
        devices:
          - id: phone
            at: [55.03, 82.92]
            app: { name: task-list, settings: { signed-in: ivan@mail.ru, server-tasks: { ivan@mail.ru: [Buy bread] } } }
        timeline:
          - { at: 5s, do: add-task, text: Fix the bike }
        expect:
        \(expectation)
        """
    }

    func run(_ text: String) throws -> ScenarioResult {
        ScenarioRunner().run(try ScenarioParser.parse(text, file: "stored.yaml"))
    }

    @Test func theDevicesRowsAndTheServersRowsAreChecked() throws {
        let passing = try run(scenario("""
              - { stored: "SELECT id, text, important FROM tasks ORDER BY position", database: task-list, at: 10s, rows: [[t1, Buy bread, 0], [t2, Fix the bike, 0]] }
              - { server: task-list, table: tasks, account: ivan@mail.ru, at: 10s, rows: [[t1, Buy bread, "false"], [t2, Fix the bike, "false"]] }
              - { server: task-list, table: lists, at: 10s, rows: [[ivan@mail.ru, "2", "2"]] }
            """))
        #expect(passing.passed, "\(passing.outcomes.filter { !$0.passed })")

        let before = try run(scenario("""
              - { server: task-list, table: tasks, account: ivan@mail.ru, at: 4s, rows: [[t1, Buy bread, "false"], [t2, Fix the bike, "false"]] }
            """))
        #expect(!before.passed, "at 4 s the task is not added yet")
        #expect(before.outcomes[0].observed.contains("rows=[[t1, Buy bread, false]]"))
    }

    @Test func aQueryThatFailsFailsTheExpectationWithTheReason() throws {
        let result = try run(scenario("""
              - { stored: "SELECT text FROM shopping", database: task-list, at: 10s, rows: [] }
            """))
        #expect(!result.passed)
        #expect(result.outcomes[0].observed.contains("no such table: shopping"))
    }

    @Test func onlyReadingQueriesAreAcceptedAndASecondDeviceMustBeNamed() throws {
        let write = try #require(throws: ScenarioError.self) {
            try ScenarioParser.parse(scenario("  - { stored: \"DELETE FROM tasks\", database: task-list, at: 10s, rows: [] }"), file: "stored.yaml")
        }
        #expect(write.description.contains("stored.yaml:9:15:"))
        #expect(write.description.contains("reads with a SELECT query"))

        let two = scenario("  - { stored: \"SELECT 1\", at: 10s, rows: [[\"1\"]] }")
            .replacingOccurrences(of: "timeline:", with: "  - { id: tablet, at: [55.03, 82.92] }\ntimeline:")
            .replacingOccurrences(of: "do: add-task", with: "device: phone, do: add-task")
        let unnamed = try #require(throws: ScenarioError.self) { try ScenarioParser.parse(two, file: "stored.yaml") }
        #expect(unnamed.description.contains("say whose database with 'device:'"))
    }
}
