import DeviceSim
import DeviceSimScenario
import Testing

/// Issue 47 item 11: `stored:` and `server:` rows are compared as typed values: an unquoted number matches the
/// integer and the real of its value, a quoted value only text, an unquoted `null` only NULL.
@Suite struct StoredValueTests {
    init() throws { try ScenarioAppRegistry.register(BundledApps.all) }

    @Test func valuesAreTheSameOnlyWithTheirType() {
        #expect(StoredValue.integer(1).isSame(as: .real(1.0)))
        #expect(StoredValue.real(1.0).isSame(as: .integer(1)))
        #expect(!StoredValue.integer(1).isSame(as: .real(1.5)))
        #expect(!StoredValue.integer(9_007_199_254_740_993).isSame(as: .real(9_007_199_254_740_992)), "no rounding through Double")
        #expect(!StoredValue.text("1").isSame(as: .integer(1)))
        #expect(!StoredValue.text("null").isSame(as: .null))
        #expect(StoredValue.null.isSame(as: .null))
        #expect(!StoredValue.null.isSame(as: .integer(0)))
        #expect(StoredProbe.text(of: [[.text("Milk, eggs"), .integer(0), .real(1.5), .null]]) == #"[["Milk, eggs",0,1.5,null]]"#)
    }

    /// A scenario whose one `stored:` expectation reads `SELECT 1, 1.0, NULL, '1', 'null'` against `rows`.
    func outcome(rows: String) throws -> ExpectationOutcome {
        try #require(result(rows: rows).outcomes.first)
    }

    func result(rows: String) throws -> ScenarioResult {
        let text = """
            name: typed
            devices:
              - { id: phone, at: [55.03, 82.92], app: { name: task-list, settings: { signed-in: ivan@mail.ru } } }
            expect:
              - { stored: "SELECT 1, 1.0, NULL, '1', 'null'", database: task-list, at: 10s, rows: \(rows) }
            """
        return ScenarioRunner().run(try ScenarioParser.parse(text, file: "typed.yaml"))
    }

    @Test func anUnquotedNumberMatchesIntegerAndRealAQuotedValueOnlyText() throws {
        let exactRun = try result(rows: "[[1, 1, null, '1', 'null']]")
        let exact = try #require(exactRun.outcomes.first)
        #expect(exact.passed, "\(exact.observed)")
        let read = try #require(exactRun.events.first { $0.name == "stored.rows" })
        #expect(read.fields.contains { $0.key == "rows" && $0.value == .string(#"[[1,1.0,null,"1","null"]]"#) }, "the trace keeps the types: \(read.fields)")
        let written = try outcome(rows: "[[1.0, 1e0, ~, \"1\", \"null\"]]")
        #expect(written.passed, "1.0 matches integer 1, 1e0 real 1.0, ~ NULL: \(written.observed)")
    }

    @Test func aValueOfAnotherTypeFailsAndSaysHowToWriteIt() throws {
        let quotedNumber = try outcome(rows: "[['1', 1, null, '1', 'null']]")
        #expect(!quotedNumber.passed)
        #expect(quotedNumber.observed.contains(#"("1" is text, quoted in the scenario, but the value read is a number or NULL: write it unquoted, 1)"#), "\(quotedNumber.observed)")
        #expect(try !outcome(rows: "[[1, 1, 'null', '1', 'null']]").passed, "quoted 'null' is text, not NULL")
        #expect(try !outcome(rows: "[[1, 1, null, 1, 'null']]").passed, "unquoted 1 is a number, not the text '1'")
        #expect(try !outcome(rows: "[[1, 1, null, '1', null]]").passed, "unquoted null is NULL, not the text 'null'")
        #expect(try !outcome(rows: "[[1, 1.5, null, '1', 'null']]").passed)
    }

    /// A scenario whose server holds `tasks` for ivan@mail.ru, with one `server:` expectation (`expect`).
    func serverOutcome(tasks: String, _ expect: String) throws -> ExpectationOutcome {
        let text = """
            name: server
            devices:
              - { id: phone, at: [55.03, 82.92], app: { name: task-list, settings: { signed-in: ivan@mail.ru, server-tasks: { ivan@mail.ru: \(tasks) } } } }
            expect:
              - { server: task-list, at: 10s, \(expect) }
            """
        return try #require(ScenarioRunner().run(try ScenarioParser.parse(text, file: "server.yaml")).outcomes.first)
    }

    @Test func aServersNumbersAreNumbersAndItsTextOnlyText() throws {
        let counts = try serverOutcome(tasks: "[Buy bread]", "table: lists, rows: [[ivan@mail.ru, 1, 1.0]]")
        #expect(counts.passed, "the revision and the count are numbers: \(counts.observed)")
        let quotedCount = try serverOutcome(tasks: "[Buy bread]", #"table: lists, rows: [[ivan@mail.ru, 1, "1"]]"#)
        #expect(!quotedCount.passed, "a quoted \"1\" is text, not the count 1")
        #expect(quotedCount.observed.contains(#"("1" is text, quoted in the scenario, but the value read is a number or NULL: write it unquoted, 1)"#), "\(quotedCount.observed)")
        let quotedText = try serverOutcome(tasks: #"["12"]"#, #"table: tasks, columns: [text], rows: [["12"]]"#)
        #expect(quotedText.passed, "a task's text 12 is text: \(quotedText.observed)")
        #expect(try !serverOutcome(tasks: #"["12"]"#, "table: tasks, columns: [text], rows: [[12]]").passed, "an unquoted 12 is a number, not the text of a task")
    }

    @Test func aServersRowsAreComparedValueByValueNotAsJoinedText() throws {
        let tasks = #"["a, b", c]"#
        let exact = try serverOutcome(tasks: tasks, #"table: tasks, columns: [text], rows: [["a, b"], [c]]"#)
        #expect(exact.passed, "\(exact.observed)")
        let threeValues = try serverOutcome(tasks: tasks, "table: tasks, columns: [text], rows: [[a, b, c]]")
        #expect(threeValues.observed.contains(#"the rows are [["a, b"],["c"]], not [["a","b","c"]]"#), "the rows read keep their values apart: \(threeValues.observed)")
        for joined in ["[[a, b, c]]", #"[["a, b, c"]]"#, "[[a, b], [c]]", #"[["a, b", c]]"#] {
            #expect(try !serverOutcome(tasks: tasks, "table: tasks, columns: [text], rows: \(joined)").passed, "rows: \(joined)")
        }
    }

    @Test func aDatabaseIsComparedWithAServerAsTypedValues() throws {
        func outcome(_ query: String) throws -> ExpectationOutcome {
            let text = """
                name: same
                devices:
                  - { id: phone, at: [55.03, 82.92], app: { name: task-list, settings: { signed-in: ivan@mail.ru, server-tasks: { ivan@mail.ru: [Buy bread] } } } }
                expect:
                  - { stored: "\(query)", database: task-list, at: 10s, same-as: { server: task-list, table: lists, account: ivan@mail.ru, columns: [count] } }
                """
            return try #require(ScenarioRunner().run(try ScenarioParser.parse(text, file: "same.yaml")).outcomes.first)
        }
        let number = try outcome("SELECT count(*) FROM tasks")
        #expect(number.passed, "the phone's count 1 is the server's count 1: \(number.observed)")
        let real = try outcome("SELECT count(*) * 1.0 FROM tasks")
        #expect(real.passed, "1.0 is the number 1: \(real.observed)")
        let text = try outcome("SELECT CAST(count(*) AS TEXT) FROM tasks")
        #expect(!text.passed, "the text '1' is not the server's number 1")
        #expect(text.observed.contains(#"these rows [["1"]] are not those of the task-list server's lists of ivan@mail.ru [[1]]"#), "\(text.observed)")
    }
}
