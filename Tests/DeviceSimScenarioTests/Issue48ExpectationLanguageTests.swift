import DeviceSim
@testable import DeviceSimScenario
import Foundation
import Testing

/// Issue 48, items 10 and 11: `any-of:` (either-or outcomes) and rows checked without predicting ids
/// (`contains:`, `count:`, order-free rows, a column subset, one database compared with another or
/// with the server): what passes, what fails and what validate refuses at its line and column.
@Suite struct Issue48ExpectationLanguageTests {
    init() throws { try ScenarioAppRegistry.register(BundledApps.all) }

    /// A dog walker who signs up at 4s (the server registers her at 4s200ms).
    func signUp(_ expect: String) -> String {
        """
        name: issue 48
        devices:
          - { id: walker, at: [69.6492, 18.9558], app: { name: dog-walk } }
        timeline:
          - { at: 0s, do: start-app }
          - { at: 0s, do: answer, prompt: sign-in-options, choice: sign-up, after: 1s }
          - { at: 4s, do: sign-up, email: dora@example.org }
        expect:
        \(expect)
        """
    }

    func outcomes(_ text: String) throws -> [ExpectationOutcome] {
        ScenarioRunner().run(try ScenarioParser.parse(text, file: "s.yaml")).outcomes
    }

    func error(_ text: String) throws -> String {
        try #require(throws: ScenarioError.self) { try ScenarioParser.parse(text, file: "s.yaml") }.description
    }

    @Test func anyOfPassesWhenOneAlternativeHoldsAndFailsNamingEachWhenNoneDoes() throws {
        let one = try outcomes(signUp("""
              - any-of:
                  - { event: sign-up.failed, count: 1 }
                  - { event: sign-up.succeeded, where: { email: dora@example.org }, within: [4s, 5s] }
            """))
        #expect(one.count == 1)
        #expect(one[0].passed, "\(one[0].observed)")
        #expect(one[0].observed.hasPrefix("(b) holds"), "\(one[0].observed)")
        let none = try outcomes(signUp("""
              - any-of:
                  - { event: sign-up.failed, count: 1 }
                  - { event: sign-up.succeeded, within: [10s, 20s] }
            """))
        #expect(!none[0].passed)
        #expect(none[0].observed.hasPrefix("none holds: (a) 0 found"), "\(none[0].observed)")
        #expect(none[0].observed.contains("(b) 0 found"), "\(none[0].observed)")
    }

    @Test func anyOfMisuseIsRefusedAtItsLineAndColumn() throws {
        #expect(try error(signUp("  - any-of: [{ event: sign-up.failed }]")).hasPrefix("s.yaml:9:13: any-of needs two expectations or more"))
        #expect(try error(signUp("  - any-of: [{ event: sign-up.failed }, { any-of: [] }]")).hasPrefix("s.yaml:9:41: an any-of inside an any-of"))
        #expect(try error(signUp("  - { any-of: [{ event: sign-up.failed }, { event: app.started }], device: walker }")).contains("unknown key 'device' in any-of expectation"))
        let capture = try error(signUp("  - any-of: [{ event: sign-up.succeeded, capture: { email: e } }, { event: app.started }]"))
        #expect(capture.hasPrefix("s.yaml:9:42: an alternative of any-of cannot capture"), "\(capture)")
    }
}

/// Item 11: rows checked without ids, counts, order-free rows, column subsets, `same-as:`.
@Suite struct Issue48RowsCheckTests {
    init() throws { try ScenarioAppRegistry.register(BundledApps.all) }

    func twoDevices(_ expect: String) -> String {
        """
        name: rows
        devices:
          - { id: phone, at: [69.6492, 18.9558], app: { name: task-list, settings: { signed-in: kari@gmail.com, server-tasks: { kari@gmail.com: [Kjøp melk, Ring mamma] } } } }
          - { id: tablet, at: [69.6429, 18.9579], app: { name: task-list, settings: { signed-in: kari@gmail.com } } }
        timeline:
          - { at: 10s, device: phone, do: add-task, text: Hent pakken }
          - { at: 30s, device: tablet, do: restart-app }
        expect:
        \(expect)
        """
    }

    func outcomes(_ text: String) throws -> [ExpectationOutcome] {
        ScenarioRunner().run(try ScenarioParser.parse(text, file: "r.yaml")).outcomes
    }

    @Test func containsCountColumnsAndAnyOrderJudgeTheRowsWithoutIds() throws {
        let server = "  - { server: task-list, table: tasks, account: kari@gmail.com, columns: [text], at: 1m"
        let passing = try outcomes(twoDevices("""
            \(server), contains: [[Hent pakken]], count: 3 }
            \(server), order: any, rows: [[Hent pakken], [Ring mamma], [Kjøp melk]] }
            """))
        let observed = passing.map { $0.observed }
        #expect(passing.allSatisfy { $0.passed }, "\(observed)")
        let failing = try outcomes(twoDevices("""
            \(server), contains: [[Vask bilen]], count: 4 }
            \(server), rows: [[Hent pakken], [Ring mamma], [Kjøp melk]] }
            """))
        #expect(!failing[0].passed)
        #expect(failing[0].observed.contains("verdict=3 rows, not 4; no [\"Vask bilen\"] among 3 rows"), "\(failing[0].observed)")
        #expect(!failing[1].passed, "in order, the rows differ")
    }

    @Test func sameAsComparesTwoDatabasesAndADatabaseWithTheServer() throws {
        let results = try outcomes(twoDevices("""
              - { stored: "SELECT text FROM tasks", device: phone, database: task-list, at: 1m, order: any, same-as: { device: tablet } }
              - { stored: "SELECT id, text, CASE important WHEN 1 THEN 'true' ELSE 'false' END FROM tasks", device: phone, database: task-list, at: 1m, same-as: { server: task-list, table: tasks, account: kari@gmail.com } }
              - { stored: "SELECT text FROM tasks", device: phone, database: task-list, at: 1m, same-as: { server: task-list, table: tasks, account: kari@gmail.com, columns: [id] } }
            """))
        #expect(results[0].passed, "\(results[0].observed)")
        #expect(results[1].passed, "\(results[1].observed)")
        #expect(!results[2].passed)
        #expect(results[2].observed.contains("are not those of the task-list server's tasks of kari@gmail.com [[\"t1\"],"), "\(results[2].observed)")
    }

    @Test func misuseIsRefusedAtItsLineAndColumn() throws {
        func error(_ expect: String) throws -> String {
            try #require(throws: ScenarioError.self) { try ScenarioParser.parse(twoDevices(expect), file: "r.yaml") }.description
        }
        #expect(try error("  - { server: task-list, table: tasks, columns: [txt], at: 1s, count: 0 }")
            .hasPrefix("r.yaml:9:50: the task-list server's table tasks has no column 'txt' (it has id, text, important); did you mean 'text'?"))
        #expect(try error("  - { server: task-list, table: tasks, at: 1s, order: any, count: 0 }").contains("order: any compares rows: or same-as:"))
        #expect(try error("  - { server: task-list, table: tasks, at: 1s }").hasPrefix("r.yaml:9:5: say what the rows read must be"))
        #expect(try error("  - { stored: \"SELECT text FROM tasks\", device: phone, database: task-list, columns: [text], at: 1s, count: 0 }")
            .contains("columns: picks columns of a server table"))
        #expect(try error("  - { stored: \"SELECT text FROM tasks\", device: phone, database: task-list, at: 1s, same-as: { device: phone } }")
            .contains("same-as names the device the query already reads"))
    }
}

/// Item 12: the dog walk's and the task list's servers take `server-failures` in the campus game's words.
@Suite struct Issue48ServerFailuresTests {
    init() throws { try ScenarioAppRegistry.register(BundledApps.all) }

    func scenario(_ app: String, _ failures: String, timeline: String = "") -> String {
        """
        name: failures
        devices:
          - { id: a, at: [69.6492, 18.9558], app: { name: \(app), settings: { signed-in: kari@gmail.com, server-failures: \(failures) } } }
        \(timeline)
        """
    }

    @Test func anUnknownOperationOrAnEmptyWindowIsRefusedAtItsLineAndColumn() throws {
        let unknown = try #require(throws: ScenarioError.self) {
            try ScenarioParser.parse(scenario("task-list", "[{ operation: uplaod }]"), file: "f.yaml")
        }
        #expect(unknown.description.hasPrefix("f.yaml:3:"), "\(unknown)")
        #expect(unknown.message.contains("unknown task list server operation 'uplaod'; did you mean 'upload'?"), "\(unknown)")
        let empty = try #require(throws: ScenarioError.self) {
            try ScenarioParser.parse(scenario("task-list", "[{ operation: upload, within: [1m, 1m] }]"), file: "f.yaml")
        }
        #expect(empty.message.contains("the failure window [1m, 1m] is empty"), "\(empty)")
    }

    @Test func aTaskListUploadFailsOnceAndTheServerSaysSo() throws {
        let text = scenario("task-list", "[{ operation: upload, count: 1 }]", timeline: """
            timeline:
              - { at: 10s, do: add-task, text: Hent pakken }
            expect:
              - { event: tasks.failed, where: { operation: upload }, count: 1 }
              - { event: upload.failed, where: { reason: "the server failed the request 'upload'" }, count: 1 }
            """)
        let result = ScenarioRunner().run(try ScenarioParser.parse(text, file: "f.yaml"))
        #expect(result.passed, "\(result.outcomes.filter { !$0.passed }.map(\.observed))")
    }
}

/// Item 14: what is needed to diagnose is in the trace: a shown route's path, the friends drawn.
@Suite struct Issue48DiagnosisTraceTests {
    init() throws { try ScenarioAppRegistry.register(BundledApps.all) }

    @Test func aShownRouteCarriesItsPathFromTheStartToItsPlace() throws {
        let result = ScenarioRunner().run(try ScenarioParser.parse(contentsOf: "Scenarios/routes/aerobyen-search-5-the-route-shown-has-its-path-in-the-trace.yaml"))
        #expect(result.passed)
        let shown = try #require(result.events.first { $0.name == "route.shown" })
        let points = try #require(shown["path"]?.description).split(separator: "|")
        #expect(points.first == "69.6001 18.9002", "the path starts where the phone is")
        #expect(points.count >= 3, "it follows the streets, not a straight line: \(points)")
    }

    @Test func eachFriendDrawnOnTheMapHasItsPosition() throws {
        let result = ScenarioRunner().run(try ScenarioParser.parse(contentsOf: "Scenarios/friend-locator/tromso-find-friends-the-map-draws-each-friend-where-she-is.yaml"))
        #expect(result.passed)
        let drawn = result.events.filter { $0.name == "friend.shown" }
        #expect(drawn.count == 1)
        #expect(drawn.first?.device == "ola")
        #expect(drawn.first?.coordinate == GeoCoordinate(latitude: 69.648, longitude: 18.9877))
    }
}
