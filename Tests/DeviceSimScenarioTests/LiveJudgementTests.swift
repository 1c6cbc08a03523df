import DeviceSim
import DeviceSimHAL
import DeviceSimScenario
import DeviceSimTime
import Testing

/// How `live` and `serve` judge expectations: an early stop and a person's own answers are said as
/// such, and only other failures fail the run (issue 36, item 5).
@Suite struct LiveJudgementTests {
    init() throws { try ScenarioAppRegistry.register(BundledApps.all) }

    var scenario: Scenario { try! ScenarioParser.parse("""
        name: judged
        devices: [{ id: walker, at: [52.5, 13.4], app: { name: dog-walk } }]
        expect:
          - { event: marker.shown, within: [0s, 1m] }
          - { event: marker.moved, within: [5m, 6m] }
          - { event: service.stopped }
          - { position: marker, at: 8m, near: [52.5, 13.4], radius: 5 }
        duration: 10m
        """, file: "judged.yaml") }

    func outcomes(passed: [Bool]) -> [ExpectationOutcome] {
        passed.map { ExpectationOutcome(passed: $0, expected: "x", observed: "y", location: SourceLocation(file: "judged.yaml", line: 1, column: 1)) }
    }

    @Test func expectationsPastAnEarlyStopAreNotJudged() {
        let judged = LiveJudgement(scenario, outcomes: outcomes(passed: [true, false, false, false]), stoppedAt: VirtualInstant(offset: .seconds(120)))
        #expect(judged.entries.map(\.verdict) == [
            .passed,
            .notReached("the run stopped at 2m, before the end of its window [5m, 6m]"),
            .notReached("the run stopped at 2m, before the end of the whole run (10m)"),
            .notReached("the run stopped at 2m, before the end of its instant 8m"),
        ])
        #expect(!judged.failed)
        #expect(judged.lines[1] == "– not judged (the run stopped at 2m, before the end of its window [5m, 6m]): expected x")
    }

    @Test func aFailureWithinTheRunFailsIt() {
        let judged = LiveJudgement(scenario, outcomes: outcomes(passed: [false, true, true, true]), stoppedAt: VirtualInstant(offset: .seconds(120)))
        #expect(judged.entries[0].verdict == .failed)
        #expect(judged.failed)
        // A run to its end judges everything.
        let whole = LiveJudgement(scenario, outcomes: outcomes(passed: [true, false, true, true]), stoppedAt: VirtualInstant(offset: .seconds(600)))
        #expect(whole.failed)
    }

    /// One expectation of each kind, tallied from `events` and judged at `stop` (in seconds).
    func judge(_ expectations: String, events: [(seconds: Int, name: String)], stop: Int) throws -> [LiveJudgement.Verdict] {
        let scenario = try ScenarioParser.parse("""
            name: stopped early
            devices: [{ id: walker, at: [52.5, 13.4], app: { name: dog-walk } }]
            expect:
            \(expectations)
            duration: 10m
            """, file: "early.yaml")
        let tally = ExpectationTally(scenario.expectations)
        for event in events { tally.record(TraceEvent(time: VirtualInstant(offset: .seconds(event.seconds)), device: "walker", name: event.name, fields: [])) }
        return LiveJudgement(scenario, outcomes: tally.outcomes, stoppedAt: VirtualInstant(offset: .seconds(stop))).entries.map(\.verdict)
    }

    @Test func aNeverWhoseWindowTheRunDidNotReachIsNotJudged() throws {
        // The tester's never.yaml under serve --duration 1m: the window [3m, 4m] never opened.
        let verdicts = try judge("  - { event: location.unavailable, never: true, within: [3m, 4m] }", events: [], stop: 60)
        #expect(verdicts == [.notReached("the run stopped at 1m, before the end of its window [3m, 4m]")])
        // Stopped inside the window, with none seen yet: still open.
        #expect(try judge("  - { event: location.unavailable, never: true, within: [3m, 4m] }", events: [], stop: 200)
            == [.notReached("the run stopped at 3m20s, before the end of its window [3m, 4m]")])
        // Stopped after the window: judged.
        #expect(try judge("  - { event: location.unavailable, never: true, within: [3m, 4m] }", events: [], stop: 240) == [.passed])
    }

    @Test func aNeverAlreadyBrokenFailsWhateverItsWindow() throws {
        // The tester's live never.yaml --duration 3s: location.unavailable at 0s breaks the whole-run never.
        let expectations = """
              - { event: location.unavailable, never: true }
              - { event: location.unavailable, never: true, within: [0s, 5m] }
              - { event: location.unavailable, at-most: 1 }
              - { event: location.unavailable, count: 1 }
            """
        let verdicts = try judge(expectations, events: [(0, "location.unavailable"), (2, "location.unavailable")], stop: 3)
        #expect(verdicts == [.failed, .failed, .failed, .failed])
    }

    @Test func anExactCountOrAtMostMetSoFarIsNotJudgedBeforeItsWindowEnds() throws {
        // tunnel.yaml under serve stopped at 4m: "exactly 1 location.unavailable" for the whole run.
        let expectations = """
              - { event: location.unavailable, count: 1 }
              - { event: location.unavailable, at-most: 2 }
              - { event: marker.moved, never: true, within: [3m1s, 5m] }
            """
        let verdicts = try judge(expectations, events: [(180, "location.unavailable")], stop: 240)
        #expect(verdicts == [
            .notReached("the run stopped at 4m, before the end of the whole run (10m)"),
            .notReached("the run stopped at 4m, before the end of the whole run (10m)"),
            .notReached("the run stopped at 4m, before the end of its window [3m1s, 5m]"),
        ])
        // The same at the scenario's end: judged.
        #expect(try judge(expectations, events: [(180, "location.unavailable")], stop: 600) == [.passed, .passed, .passed])
    }

    @Test func anAtLeastAlreadyMetPassesAndOneNotMetYetIsNotJudged() throws {
        let expectations = """
              - { event: marker.shown }
              - { event: marker.moved, at-least: 2, within: [0s, 5m] }
              - { event: location.unavailable, at-least: 1, within: [0s, 1m] }
              - { event: marker.shown, count: 2, within: [0s, 5m] }
            """
        let verdicts = try judge(expectations, events: [(10, "marker.shown"), (20, "marker.moved"), (30, "marker.moved")], stop: 90)
        #expect(verdicts == [
            .passed,   // exists, met
            .passed,   // at least 2 in a window still open, met
            .failed,   // its window [0s, 1m] ended before the stop without one
            .notReached("the run stopped at 1m30s, before the end of its window [0s, 5m]"),   // exactly 2: 1 so far
        ])
    }

    @Test func anOrderIsJudgedOnceItsItemsAreFoundOrOneCameFirst() throws {
        let order = "  - { order: [marker.shown, marker.moved] }"
        #expect(try judge(order, events: [(10, "marker.shown"), (20, "marker.moved")], stop: 30) == [.passed])
        #expect(try judge(order, events: [(10, "marker.moved"), (20, "marker.shown")], stop: 30) == [.failed])
        // The later item came first: the earlier one can only come after it.
        #expect(try judge(order, events: [(10, "marker.moved")], stop: 30) == [.failed])
        #expect(try judge(order, events: [(10, "marker.shown")], stop: 30) == [.notReached("the run stopped at 30s, before the end of the whole run (10m)")])
    }

    @Test func positionsAndStoredReadsAfterTheStopAreNotJudged() throws {
        let expectations = """
              - { position: marker, at: 8m, near: [52.5, 13.4], radius: 5 }
              - { position: marker, at: 10s, near: [52.5, 13.4], radius: 5 }
              - { stored: "SELECT name FROM dogs", at: 5m, rows: [[Rex]] }
            """
        let verdicts = try judge(expectations, events: [], stop: 60)
        #expect(verdicts == [
            .notReached("the run stopped at 1m, before the end of its instant 8m"),
            .failed,   // its instant passed with no marker
            .notReached("the run stopped at 1m, before the end of its window [5m, 5m]"),
        ])
    }

    @Test func ownAnswersThatDifferFromTheScriptAreSaid() {
        let log = OwnAnswerLog(devices: ["walker"])
        let at = VirtualInstant(offset: .seconds(3))
        log.record(TraceEvent(time: at, device: "walker", name: "step.skipped", fields: [("do", .string("answer")), ("prompt", .string("sign-in-options")), ("choice", .string("sign-up"))]))
        #expect(log.difference == "the script answers sign-in-options with sign-up on walker; you did not answer it")
        log.record(TraceEvent(time: at, device: "walker", name: "prompt.answered", fields: [("prompt", .string("sign-in-options")), ("choice", .string("offline"))]))
        let difference = log.difference
        #expect(difference == "the script answers sign-in-options with sign-up on walker; you answered offline")
        let judged = LiveJudgement(scenario, outcomes: outcomes(passed: [false, true, true, true]), stoppedAt: VirtualInstant(offset: .seconds(600)), ownAnswers: difference)
        #expect(judged.entries[0].verdict == .afterOwnAnswers("the script answers sign-in-options with sign-up on walker; you answered offline"))
        #expect(!judged.failed)
        log.record(TraceEvent(time: at, device: "walker", name: "prompt.answered", fields: [("prompt", .string("sign-in-options")), ("choice", .string("sign-up"))]))
        #expect(log.difference == nil)
    }
}
