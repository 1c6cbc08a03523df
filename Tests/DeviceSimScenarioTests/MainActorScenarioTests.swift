import CafeCheckIn
import DeviceSim
import DeviceSimScenario
import Foundation
import Testing

/// Scenario files run apps whose code is `@MainActor` (``CafeCheckInModel``) as tests do, and stop at
/// once, saying why and where, when that code cannot run in virtual time. The runs driven from the main
/// actor are checked through a developer's own devicesim (`MainActorAppCLITests`), in a process of their
/// own: in this test process the main actor is shared with other suites' `@MainActor` tests.
@Suite struct MainActorScenarioTests {
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

    @Test func mainActorWorkFromAnAdapterThatDoesNotSaySoStopsTheRun() throws {
        let result = ScenarioRunner().run(try ScenarioParser.parse(Self.scenario(app: "cafe-check-in-unmarked"), file: "cafe.yaml"))
        #expect(!result.passed)
        let error = try #require(result.runError)
        #expect(error.contains("main-actor work"), "\(error)")
        #expect(error.contains("UnmarkedCafeCheckInScenarioApp"), "\(error)")
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../CafeCheckInExample/Sources/CafeCheckIn/CafeCheckInModel.swift"), encoding: .utf8)
        let taskLine = try #require(source.split(separator: "\n", omittingEmptySubsequences: false).lastIndex { $0.contains("Task { @MainActor in") }) + 1
        #expect(error.contains("CafeCheckInModel.swift:\(taskLine)"), "the file:line of the Task: \(error)")
        #expect(error.contains("runsOnMainActor = true"), "what to change: \(error)")
    }

    @MainActor @Test func aSynchronousRunOnTheMainActorIsRefusedNotDeadlocked() throws {
        let simulation = ScenarioSimulation(try ScenarioParser.parse(Self.scenario(), file: "cafe.yaml"))
        #expect(throws: SchedulerError.self) { try simulation.run() }
    }
}
