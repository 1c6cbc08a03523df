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
