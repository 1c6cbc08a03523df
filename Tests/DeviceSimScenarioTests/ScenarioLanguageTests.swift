import DeviceSim
import DeviceSimHAL
import DeviceSimScenario
import Foundation
import Testing

/// Issue 33: values captured during a run and used by later steps (`capture:`, `${name}`), the order of
/// events (`order:`), numbers with a tolerance and list fields that include items (`where:`).
@Suite struct ScenarioLanguageTests {
    init() throws { try ScenarioAppRegistry.register(BundledApps.all) }

    /// A dog-walk sign-up, then a sign-in at 20 s with `password` (and `extra` expectations).
    func signUp(password: String, expect extra: String = "") -> String {
        """
        name: capture
        devices:
          - id: walker
            at: [60.16925, 24.93960]
            app: { name: dog-walk }
        timeline:
          - { at: 0s, do: start-app }
          - { at: 0s, do: answer, prompt: sign-in-options, choice: sign-up, after: 1s }
          - { at: 4s, do: sign-up, email: dora@example.org }
          - { at: 10s, do: answer, prompt: sign-in-options, choice: sign-in, after: 1s }
          - { at: 20s, do: enter-credential, email: dora@example.org, password: "\(password)" }
        expect:
          - event: account.temporary-password-sent
            where: { email: dora@example.org }
            capture: { password: temp }
          - { event: account.new-password-required, within: [20s, 21s] }
        \(extra)
        duration: 30s
        """
    }

    func run(_ text: String, file: String = "language.yaml") throws -> ScenarioResult {
        ScenarioRunner().run(try ScenarioParser.parse(text, file: file))
    }

    func parseError(_ text: String) throws -> ScenarioError {
        try #require(throws: ScenarioError.self) { try ScenarioParser.parse(text, file: "language.yaml") }
    }

    // MARK: capture and ${name}

    @Test func aCapturedPasswordIsTypedByALaterStep() throws {
        let result = try run(signUp(password: "${temp}"))
        #expect(result.passed, "\(result.outcomes.filter { !$0.passed })")
        let mailed = try #require(result.events.first { $0.name == "account.temporary-password-sent" }?["password"]?.description)
        let typed = try #require(result.events.first { $0.name == "step" && $0["do"]?.description == "enter-credential" })
        #expect(typed["password"]?.description == mailed)
        // Without the variable, a made-up password fails: the test above is not passing by chance.
        #expect(try !run(signUp(password: "Tmp-000000")).passed)
    }

    @Test func aCapturedValueIsComparedInALaterWhere() throws {
        // The step that typed the password carries the mailed one.
        let same = try run(signUp(password: "${temp}", expect: "  - { event: step, where: { do: enter-credential, password: \"${temp}\" } }"))
        #expect(same.passed, "\(same.outcomes.filter { !$0.passed })")
        let other = try run(signUp(password: "Tmp-000000", expect: "  - { event: step, where: { do: enter-credential, password: \"${temp}\" } }"))
        #expect(!other.passed)
        let mailed = try #require(other.events.first { $0.name == "account.temporary-password-sent" }?["password"]?.description)
        #expect(other.outcomes[2].observed.contains("password=Tmp-000000, not ${temp} (\(mailed))"), "\(other.outcomes[2].observed)")
        let unknown = try parseError(signUp(password: "x", expect: "  - { event: step, where: { password: \"${tmp}\" } }"))
        #expect(unknown.description.contains("unknown variable ${tmp}; did you mean ${temp}?"), "\(unknown)")
    }

    @Test func aVariableWithoutAValueSkipsTheStepWithTheReason() throws {
        // The capture looks only after the step, so it has no value when the step runs.
        let text = signUp(password: "${temp}").replacingOccurrences(
            of: "where: { email: dora@example.org }\n    capture", with: "where: { email: nobody@example.org }\n    capture")
        let result = try run(text)
        let skipped = try #require(result.events.first { $0.name == "step.skipped" })
        #expect(skipped["do"]?.description == "enter-credential")
        #expect(skipped["reason"]?.description.contains("${temp} has no value at 20s") == true)
        #expect(skipped["reason"]?.description.contains("language.yaml:13:5") == true)
    }

    @Test func anUnknownVariableIsRefusedWithTheNearestName() throws {
        let error = try parseError(signUp(password: "${tmep}"))
        #expect(error.description.contains("language.yaml:11:73:"), "\(error)")
        #expect(error.description.contains("unknown variable ${tmep}; did you mean ${temp}?"), "\(error)")
    }

    @Test func aCaptureAfterTheStepThatNeedsItIsRefused() throws {
        let text = signUp(password: "${temp}").replacingOccurrences(of: "capture: { password: temp }", with: "capture: { password: temp }\n    within: [25s, 30s]")
        let error = try parseError(text)
        #expect(error.description.contains("the step at 20s uses ${temp}"), "\(error)")
        #expect(error.description.contains("after the step"), "\(error)")
    }

    @Test func variablesStandOnlyForValues() throws {
        let text = signUp(password: "x").replacingOccurrences(of: "- { at: 20s, do: enter-credential", with: "- { at: \"${temp}\", do: enter-credential")
        let error = try parseError(text)
        #expect(error.description.contains("not for its 'at'"), "\(error)")
    }

    // MARK: order

    @Test func anOrderAtOneInstantIsTheTraceOrder() throws {
        let right = try run(signUp(password: "${temp}", expect: "  - order: [account.registered, account.temporary-password-sent, sign-up.succeeded]\n    within: [4s, 5s]"))
        #expect(right.passed, "\(right.outcomes.filter { !$0.passed })")
        #expect(right.outcomes[2].observed.contains("at 4s200ms"), "\(right.outcomes[2].observed)")

        // The same three events at the same instant, written in the wrong order.
        let wrong = try run(signUp(password: "${temp}", expect: "  - order: [sign-up.succeeded, { event: account.registered, where: { email: dora@example.org } }]"))
        #expect(!wrong.passed)
        #expect(wrong.outcomes[2].observed == "'account.registered' (email=dora@example.org) at 4s200ms came before 'sign-up.succeeded' at 4s200ms on walker")

        let missing = try run(signUp(password: "${temp}", expect: "  - order: [sign-up.succeeded, sign-in.succeeded]\n    within: [0s, 10s]"))
        #expect(missing.outcomes[2].observed == "no 'sign-in.succeeded'")
    }

    @Test func anOrderNeedsTwoEvents() throws {
        let error = try parseError(signUp(password: "x", expect: "  - order: [sign-up.succeeded]"))
        #expect(error.description.contains("an order needs two events or more"), "\(error)")
    }

    // MARK: tolerances and lists

    static let routes = """
        name: tolerance
        world: ../../Simulator/worlds/kluuvi.yaml
        devices:
          - id: phone
            at: oodi
            gps: { noise: false }
            app: { name: routes }
        timeline:
          - { at: 10s, do: search, text: theatre }
          - { at: 20s, do: select-suggestion, place: national-theatre }
        expect:

        """

    func routes(_ expectation: String) throws -> ScenarioResult {
        let file = FileManager.default.currentDirectoryPath + "/Scenarios/routes/language.yaml"
        return try run(Self.routes + expectation, file: file)
    }

    func routeLength() throws -> Double {
        let result = try routes("  - { event: route.shown }")
        return try #require(result.events.first { $0.name == "route.shown" }?["length"]?.number)
    }

    @Test func aNumberMatchesWithinARelativeOrAnAbsoluteTolerance() throws {
        let length = try routeLength()
        let within = try routes("  - { event: route.shown, where: { length: { approx: \(length * 1.009), tolerance: 1% } } }")
        #expect(within.passed, "\(within.outcomes)")
        let outside = try routes("  - { event: route.shown, where: { length: { approx: \(length * 1.011), tolerance: 1% } } }")
        #expect(!outside.passed)
        #expect(outside.outcomes[0].observed.contains("length=\(TraceValue.format(length)), not ≈"), "\(outside.outcomes[0].observed)")
        #expect(try routes("  - { event: route.shown, where: { length: { approx: \(length + 4), tolerance: 5 } } }").passed)
        #expect(try !routes("  - { event: route.shown, where: { length: { approx: \(length + 6), tolerance: 5 } } }").passed)
    }

    @Test func aListFieldIncludesItems() throws {
        // search.results lists its places as "a, b, c".
        #expect(try routes("  - { event: search.results, where: { places: { includes: national-theatre } } }").passed)
        #expect(try routes("  - { event: search.results, where: { places: { includes: [national-theatre] } } }").passed)
        let absent = try routes("  - { event: search.results, where: { places: { includes: [national-theatre, oodi] } } }")
        #expect(!absent.passed)
        #expect(absent.outcomes[0].observed.contains("not including national-theatre, oodi"), "\(absent.outcomes[0].observed)")
        // Part of an item is not the item.
        #expect(try !routes("  - { event: search.results, where: { places: { includes: national } } }").passed)
    }

    @Test func listSeparatorsOfTheTrace() {
        #expect(FieldCondition.elements(of: "1. bob 30|2. alice 20") == ["1. bob 30", "2. alice 20"])
        #expect(FieldCondition.elements(of: "ateneum > senate-square") == ["ateneum", "senate-square"])
        #expect(FieldCondition.elements(of: "Theatre, Market and cathedral") == ["Theatre", "Market and cathedral"])
        #expect(FieldCondition.elements(of: "one") == ["one"])
    }

    @Test func badTolerancesAreRefusedWhereTheyAreWritten() throws {
        let file = FileManager.default.currentDirectoryPath + "/Scenarios/routes/t.yaml"
        let percent = try #require(throws: ScenarioError.self) {
            try ScenarioParser.parse(Self.routes + "  - { event: route.shown, where: { length: { approx: 10, tolerance: one% } } }", file: file)
        }
        #expect(percent.description.contains("t.yaml:12:69: expected a percentage such as 1%"), "\(percent)")
        let key = try #require(throws: ScenarioError.self) {
            try ScenarioParser.parse(Self.routes + "  - { event: route.shown, where: { length: { aprox: 10 } } }", file: file)
        }
        #expect(key.description.contains("unknown key 'aprox' in field condition; did you mean 'approx'?"), "\(key)")
    }

    // MARK: a device without an app

    @Test func aPlainWalkIsCheckedByTheDevicesOwnLocation() throws {
        let walk = """
            name: plain walk
            devices:
              - id: walker
                at: [60.16925, 24.93960]
                gps: { noise: false }
                route: { speed: 2, waypoints: [[60.16925, 24.94320]] }
            expect:
              - { position: location, at: 1m, near: [60.16925, 24.94177], radius: 5 }

            """
        let there = try run(walk)
        #expect(there.passed, "\(there.outcomes)")
        #expect(there.events.contains { $0.name == "location.read" && $0.device == "walker" })
        // 120 m east at 2 m/s after a minute, not 60 m.
        #expect(try !run(walk.replacingOccurrences(of: "24.94177", with: "24.94068")).passed)
    }
}
