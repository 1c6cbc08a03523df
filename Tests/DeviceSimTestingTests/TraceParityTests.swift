import DeviceSim
import DeviceSimTesting
import Foundation
import Testing

/// A test's trace records the same events as a scenario's trace for the same movement (issue 45:
/// `fence.entered` was in scenario traces only: the scenario runner recorded beacon fence crossings
/// itself, and `TestSimulation` did not).
@Suite struct TraceParityTests {
    static let campus = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Simulator/worlds/campus.yaml").path

    /// Alice walks from the south gate into the library, past its iBeacons, with no app.
    static let scenario = """
        name: A walk into the library's beacon fence
        world: \(campus)
        seed: 11
        duration: 6m
        devices:
          - id: alice
            at: south-gate
            route: { speed: walk, waypoints: [library] }
        """

    /// What a trace says about beacon fences and the device's radios, as JSON lines.
    static func fenceEvents(_ events: [TraceEvent]) -> [String] {
        events.filter { $0.device == "alice" && $0.name.hasPrefix("fence.") }.map(\.jsonLine)
    }

    @Test func aTestRecordsTheFenceCrossingsAScenarioRecordsForTheSameWalk() throws {
        let parsed = try ScenarioParser.parse(Self.scenario, file: "fences.yaml")
        let scenarioEvents = Self.fenceEvents(ScenarioRunner().run(parsed).events)

        let spec = try #require(parsed.devices.first)
        let route = try #require(spec.route)
        let simulation = TestSimulation(seed: parsed.seed, world: parsed.world, startDate: parsed.startDate)
        let alice = simulation.addDevice("alice", at: spec.start, gps: spec.gps)
        alice.walk(to: route.waypoints.map(\.coordinate), speed: route.speed)
        try simulation.advance(by: parsed.duration)
        let testEvents = Self.fenceEvents(simulation.trace.events)

        #expect(scenarioEvents.contains { $0.contains("\"fence.entered\"") && $0.contains("\"beacon\"") && $0.contains("\"rssi\"") })
        #expect(testEvents == scenarioEvents)
    }
}
