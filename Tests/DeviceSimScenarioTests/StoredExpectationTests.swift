import DeviceSim
import DeviceSimHAL
import DeviceSimScenario
import Testing

/// A user's app that keeps `<device>.notebook.sqlite`, opened only when the user taps `open`: a
/// `stored:` expectation before then finds no database.
final class NotebookScenarioApp: ScenarioApp {
    static let name = "notebook"
    static let settingKeys: [String] = []
    static let actions: [String: [String]] = ["open": []]
    static let keepsDataOnDevice = true

    let context: ScenarioAppContext

    static func parseSettings(_ settings: YAMLMapping?) throws(ScenarioError) {}
    static func parseAction(_ name: String, step: YAMLMapping) throws(ScenarioError) {}
    init(context: ScenarioAppContext, settings: Void) { self.context = context }

    func perform(_ action: Void) {
        _ = context.simulation.database(on: context.device, named: Self.name, migrations: [["CREATE TABLE notes (text TEXT)"]])
    }
}

/// `stored:` and `server:` expectations: what a device's database and an app's server hold.
@Suite struct StoredExpectationTests {
    init() throws { try ScenarioAppRegistry.register(BundledApps.all + [NotebookScenarioApp.self, DoorCounterScenarioApp.self]) }

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
              - { server: task-list, table: lists, at: 10s, rows: [[ivan@mail.ru, 2, 2]] }
            """))
        #expect(passing.passed, "\(passing.outcomes.filter { !$0.passed })")

        let before = try run(scenario("""
              - { server: task-list, table: tasks, account: ivan@mail.ru, at: 4s, rows: [[t1, Buy bread, "false"], [t2, Fix the bike, "false"]] }
            """))
        #expect(!before.passed, "at 4 s the task is not added yet")
        #expect(before.outcomes[0].observed.contains("verdict=the rows are [[\"t1\",\"Buy bread\",\"false\"]], not"), "\(before.outcomes[0].observed)")
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

    @Test func aDatabaseNotOpenedYetFailsItsOwnExpectationWithTheReason() throws {
        // Two probes: the failure of the first shows its own error, not the second's rows.
        let result = try run("""
            name: stored
            devices:
              - { id: phone, at: [55.03, 82.92], app: { name: notebook } }
            timeline:
              - { at: 5s, do: open }
            expect:
              - { stored: "SELECT count(*) FROM notes", database: notebook, at: 1s, rows: [[0]] }
              - { stored: "SELECT count(*) FROM notes", database: notebook, at: 10s, rows: [[0]] }
            """)
        #expect(!result.passed)
        #expect(result.outcomes[1].passed, "\(result.outcomes[1].observed)")
        let observed = result.outcomes[0].observed
        #expect(observed.contains("verdict=error: phone has no database phone.notebook.sqlite (yet"), "\(observed)")
        let event = try #require(result.events.first { $0.name == "stored.rows" && $0.fields.contains { $0.key == "probe" && $0.value == .string("0") } })
        #expect(event.device == "phone", "the probe's error is recorded on its device, as its stored.rows")
        #expect(!result.events.contains { $0.name == "server.rows" })
    }

    @Test func aStoredExpectationMustNameTheDatabaseTheDevicesAppKeeps() throws {
        func error(_ expectation: String, app: String? = nil) throws -> String {
            var text = scenario(expectation)
            if let app { text = text.replacingOccurrences(of: "{ name: task-list, settings: { signed-in: ivan@mail.ru, server-tasks: { ivan@mail.ru: [Buy bread] } } }", with: app) }
            text = text
                .replacingOccurrences(of: "  - { at: 5s, do: add-task, text: Fix the bike }", with: "  - { at: 5s, do: gps-off }")
            return try #require(throws: ScenarioError.self) { try ScenarioParser.parse(text, file: "stored.yaml") }.description
        }
        #expect(try error("  - { stored: \"SELECT 1\", at: 10s, rows: [[\"1\"]] }") == "stored.yaml:9:5: without 'database:', a stored: expectation reads phone.sqlite, but phone runs task-list, whose database is phone.task-list.sqlite: add `database: task-list`")
        let unknown = try error("  - { stored: \"SELECT 1\", database: nosuch, at: 10s, rows: [[\"1\"]] }")
        // The apps are listed in the order they were registered, which other tests of the process change.
        let listed = "stored.yaml:9:37: unknown database 'nosuch'; the databases are named after the apps that keep them: "
        #expect(unknown.hasPrefix(listed), "\(unknown)")
        let names = Set(unknown.dropFirst(listed.count).prefix { $0 != "(" }.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
        #expect(names.isSuperset(of: ["friend-locator", "task-list", "campus-game", "routes"]), "\(unknown)")
        #expect(unknown.hasSuffix("(phone runs task-list, whose database is phone.task-list.sqlite: write `database: task-list`)"), "\(unknown)")
        #expect(try error("  - { stored: \"SELECT 1\", database: task-lst, at: 10s, rows: [[\"1\"]] }") == "stored.yaml:9:37: unknown database 'task-lst'; did you mean 'task-list'?")
        #expect(try error("  - { stored: \"SELECT 1\", database: routes, at: 10s, rows: [[\"1\"]] }") == "stored.yaml:9:37: 'database: routes' reads phone.routes.sqlite, but phone runs task-list, whose database is phone.task-list.sqlite: write `database: task-list`")
        #expect(try error("  - { stored: \"SELECT 1\", database: task-list, at: 10s, rows: [[\"1\"]] }", app: "{ name: dog-walk }") == "stored.yaml:9:37: 'database: task-list' reads phone.task-list.sqlite, but phone runs dog-walk, whose database is phone.sqlite: leave out `database:`")
        #expect(try error("  - { stored: \"SELECT 1\", at: 10s, rows: [[\"1\"]] }", app: "{ name: door-counter }").contains("phone runs door-counter, which keeps no database on the device; a stored: expectation reads the database of a device whose app keeps one"))
        // The dog walk's database is read without `database:`.
        let text = scenario("  - { stored: \"SELECT count(*) FROM dogs\", at: 10s, rows: [[0]] }")
            .replacingOccurrences(of: "{ name: task-list, settings: { signed-in: ivan@mail.ru, server-tasks: { ivan@mail.ru: [Buy bread] } } }", with: "{ name: dog-walk }")
            .replacingOccurrences(of: "do: add-task, text: Fix the bike", with: "do: start-app")
        #expect(try run(text).passed)
    }
}
