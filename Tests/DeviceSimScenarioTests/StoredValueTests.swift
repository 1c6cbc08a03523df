import DeviceSim
import DeviceSimScenario
import Testing

/// Issue 47 item 11: `stored:` rows are compared as typed values: an unquoted number matches the
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

    @Test func aServersTextIsComparedAsTextQuotedOrNot() throws {
        let text = """
            name: server
            devices:
              - { id: phone, at: [55.03, 82.92], app: { name: task-list, settings: { signed-in: ivan@mail.ru, server-tasks: { ivan@mail.ru: [Buy bread] } } } }
            expect:
              - { server: task-list, table: lists, at: 10s, rows: [[ivan@mail.ru, 1, "1"]] }
            """
        let result = ScenarioRunner().run(try ScenarioParser.parse(text, file: "server.yaml"))
        #expect(result.passed, "\(result.outcomes.map(\.observed))")
    }
}
