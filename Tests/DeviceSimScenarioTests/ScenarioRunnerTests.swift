import DeviceSim
import DeviceSimScenario
import Foundation
import Testing

@Suite struct ScenarioRunnerTests {
    init() throws { try ScenarioAppRegistry.register(BundledApps.all) }

    static let walk = """
        name: walk
        seed: 42
        duration: 10m
        devices:
          - id: walker
            at: [52.5145, 13.3501]
            route:
              speed: walk
              waypoints: [[52.5145, 13.3601]]
            app: { name: dog-walk }
        timeline:
          - { at: 0s, do: start-service }
          - { at: 2m, do: signal-loss, for: 1m }
        expect:
          - event: marker.shown
            within: [0s, 1s]
          - event: location.unavailable
            count: 1
          - position: marker
            at: 10m
            near: [52.5145, 13.3601]
            radius: 30
        """

    func run(_ text: String, seed: UInt64? = nil) throws -> ScenarioResult {
        ScenarioRunner(seedOverride: seed).run(try ScenarioParser.parse(text, file: "walk.yaml"))
    }

    @Test func aScenarioPassesWhenEveryExpectationHolds() throws {
        let result = try run(Self.walk)
        #expect(result.passed, "\(result.outcomes.filter { !$0.passed })")
        #expect(result.outcomes.count == 3)
    }

    @Test func aFailedExpectationFailsTheScenarioAndSaysWhy() throws {
        let text = Self.walk.replacingOccurrences(of: "near: [52.5145, 13.3601]", with: "near: [52.5145, 13.3501]")
        let result = try run(text)
        #expect(!result.passed)
        let failed = try #require(result.outcomes.first { !$0.passed })
        #expect(failed.location.line == 19)
        #expect(failed.observed.contains("m away"))
    }

    @Test func theSameSeedGivesAByteIdenticalTrace() throws {
        let first = try run(Self.walk).traceJSONLines
        let second = try run(Self.walk).traceJSONLines
        #expect(first == second)
        #expect(first.split(separator: "\n").count > 100)
    }

    @Test func anotherSeedChangesTheNoiseButNotTheOutcome() throws {
        let a = try run(Self.walk, seed: 1), b = try run(Self.walk, seed: 2)
        #expect(a.traceJSONLines != b.traceJSONLines)
        #expect(a.passed && b.passed)
        #expect(a.events.map(\.name) == b.events.map(\.name))
    }

    @Test func aRunawayScenarioStopsAtItsBoundWithAClearError() throws {
        let scenario = try ScenarioParser.parse(Self.walk.replacingOccurrences(of: "duration: 10m", with: "duration: 20d"), file: "walk.yaml")
        let result = ScenarioRunner(limits: .init(maximumEvents: 10_000)).run(scenario)
        #expect(!result.passed)
        #expect(result.runError?.contains("more than 10000 events") == true)
    }

    @Test func anEventBoundPerDeviceHourLetsALargeFleetRunButStillStopsARunaway() throws {
        // Three walkers for an hour: some 11,000 events (1 Hz fixes each), over a bound of 5,000.
        let withoutExpectations = String(Self.walk[..<Self.walk.range(of: "expect:")!.lowerBound])
        let fleet = try ScenarioParser.parse(
            withoutExpectations.replacingOccurrences(of: "duration: 10m", with: "duration: 1h")
                .replacingOccurrences(of: "  - id: walker\n", with: "  - id: walker\n    count: 3\n")
                .replacingOccurrences(of: "do: start-service", with: "device: walker-1, do: start-service")
                .replacingOccurrences(of: "do: signal-loss", with: "device: walker-1, do: signal-loss"),
            file: "walk.yaml")
        var runner = ScenarioRunner(limits: .init(maximumEvents: 5_000))
        #expect(runner.run(fleet).runError?.contains("more than 5000 events") == true)
        runner.eventLimitPerDeviceHour = 20_000  // 3 devices x 1 h x 20,000 = 60,000
        let scaled = runner.run(fleet)
        #expect(scaled.runError == nil)
        runner.eventLimitPerDeviceHour = 1_000  // 3,000 < 5,000: the bound given stays
        #expect(runner.run(fleet).runError?.contains("more than 5000 events") == true)
    }

    @Test func junitReportsFailuresWithTheirLocations() throws {
        let pass = try run(Self.walk)
        let fail = try run(Self.walk.replacingOccurrences(of: "count: 1", with: "count: 2"))
        let invalid = ScenarioError("unknown key 'x'", at: SourceLocation(file: "bad.yaml", line: 3, column: 1))
        let xml = JUnitReport().xml(for: [pass, fail], invalid: [invalid])
        #expect(xml.contains(#"tests="3" failures="1" errors="1""#))
        #expect(xml.contains(#"<failure message="walk.yaml:17:5: expected exactly 2 &apos;location.unavailable&apos;"#) || xml.contains("walk.yaml:17:5: expected exactly 2 'location.unavailable'"))
        #expect(xml.contains(#"<error message="bad.yaml:3:1: unknown key &apos;x&apos;""#) || xml.contains("bad.yaml:3:1: unknown key 'x'"))
    }
}
