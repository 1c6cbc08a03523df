import CafeCheckIn
import DeviceSim
import DeviceSimScenario
import Foundation
import Testing

/// Scenario files run apps whose code is `@MainActor` (``CafeCheckInModel``) as tests do, and stop at
/// once, saying why and where, when that code cannot run in virtual time. Serialized: each synchronous
/// run holds a Dispatch worker thread while it waits for the main actor, whose queue, in a test process,
/// is served by those same workers (the CLI serves it from its main thread; `MainActorAppCLITests` runs
/// a sweep over seeds in parallel there).
@Suite(.serialized) struct MainActorScenarioTests {
    init() throws {
        try ScenarioAppRegistry.register([CafeCheckInScenarioApp.self, UnmarkedCafeCheckInScenarioApp.self, DoorCounterScenarioApp.self])
    }

    /// A walk of 500 m to the café (about 6 minutes), three minutes there, then `leave`.
    static func scenario(app: String = "cafe-check-in", settings: String = "", leaveAt: String = "15m") -> String {
        """
        name: check in at the café
        seed: 3
        duration: 20m
        devices:
          - id: phone
            at: [52.51450, 13.34275]
            route: { start: 10s, speed: walk, waypoints: [[52.51450, 13.35010]] }
            geofences: { timing: realistic }
            app:
              name: \(app)
              settings: { cafe: [52.51450, 13.35010]\(settings) }
        timeline:
        \(app == "cafe-check-in" ? "  - { at: \(leaveAt), do: leave }" : "  []")
        expect:
          - { event: checkin.arrived, count: 1 }
          - { event: checkin.checked-in, count: 1 }
          - { event: checkin.left, count: 1 }
          - { order: [checkin.arrived, checkin.checked-in, checkin.left] }
        """
    }

    @Test func aMainActorViewModelRunsInAScenarioAtItsVirtualInstants() throws {
        let result = ScenarioRunner().run(try ScenarioParser.parse(Self.scenario(), file: "cafe.yaml"))
        #expect(result.runError == nil)
        #expect(result.passed, "\(result.outcomes.filter { !$0.passed })")
        let arrived = try #require(result.events.first { $0.name == "checkin.arrived" })
        let checkedIn = try #require(result.events.first { $0.name == "checkin.checked-in" })
        let entered = try #require(result.events.first { $0.name == "geofence.entered" })
        #expect(arrived.time == entered.time, "the view model heard the geofence at its instant")
        #expect(checkedIn.time == arrived.time.advanced(by: .seconds(180)), "its Task {} woke from the device's clock three minutes later, in virtual time")
    }

    @Test func theSameSeedGivesTheSameTrace() throws {
        let scenario = try ScenarioParser.parse(Self.scenario(), file: "cafe.yaml")
        let first = ScenarioRunner().run(scenario)
        let second = ScenarioRunner().run(scenario)
        #expect(first.passed)
        #expect(first.traceJSONLines == second.traceJSONLines)
    }

    @Test func aViewModelSleepingOnContinuousClockStopsTheRunWithTheCauseAndWhere() throws {
        // Without the check, `never:` would have passed: the check-in never comes.
        let text = Self.scenario(settings: ", real-clock: true").replacingOccurrences(
            of: "  - { event: checkin.checked-in, count: 1 }", with: "  - { event: checkin.checked-in, never: true }")
        let result = ScenarioRunner().run(try ScenarioParser.parse(text, file: "cafe.yaml"))
        #expect(!result.passed)
        let error = try #require(result.runError)
        #expect(error.contains("slept on a real clock"), "\(error)")
        #expect(error.contains("'cafe-check-in' on phone at cafe.yaml:5:5"), "the app and the file:line that started it: \(error)")
        // The function and its file:line, when its frame is on the stack (a sleep run as a job of its own has none).
        if error.contains("CafeCheckInModel.arrived()") {
            #expect(error.contains("CafeCheckInModel.swift:33"), "the file:line of the sleep: \(error)")
        }
        #expect(result.inputError == nil, "the app's code is at fault, not the scenario file")
        let stoppedAt = try #require(result.events.last { $0.name == "checkin.arrived" }).time
        #expect(result.events.allSatisfy { $0.time <= stoppedAt }, "the run stopped at once")
    }

    @Test func mainActorWorkFromAnAdapterThatDoesNotSaySoStopsTheRun() throws {
        let result = ScenarioRunner().run(try ScenarioParser.parse(Self.scenario(app: "cafe-check-in-unmarked"), file: "cafe.yaml"))
        #expect(!result.passed)
        let error = try #require(result.runError)
        #expect(error.contains("main-actor work"), "\(error)")
        #expect(error.contains("UnmarkedCafeCheckInScenarioApp"), "\(error)")
        #expect(error.contains("CafeCheckInModel.swift:122"), "the file:line of the Task: \(error)")
        #expect(error.contains("runsOnMainActor = true"), "what to change: \(error)")
    }

    @Test func onTheWallClockAsLiveAndServeRunItTheViewModelRunsToo() throws {
        let scenario = try ScenarioParser.parse(Self.scenario(), file: "cafe.yaml")
        let simulation = ScenarioSimulation(scenario)
        // 20 minutes at 20,000 times the wall clock: some 60 ms.
        try simulation.runLive(driver: WallClockDriver(speed: 20_000), stop: StopSignal())
        let outcomes = ExpectationEvaluator.evaluate(scenario.expectations, events: simulation.trace.events)
        #expect(outcomes.allSatisfy { $0.passed }, "\(outcomes.filter { !$0.passed })")
    }

    @MainActor @Test func aMainActorTestRunsTheScenarioWithAwait() async throws {
        let simulation = ScenarioSimulation(try ScenarioParser.parse(Self.scenario(), file: "cafe.yaml"))
        #expect(throws: SchedulerError.self) { try simulation.run() }
        let again = ScenarioSimulation(try ScenarioParser.parse(Self.scenario(), file: "cafe.yaml"))
        try await again.runOnMainActor()
        #expect(again.trace.events.filter { $0.name == "checkin.checked-in" }.count == 1)
    }
}
