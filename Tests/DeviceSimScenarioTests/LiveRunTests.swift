import DeviceSim
import DeviceSimHAL
import DeviceSimScenario
import DeviceSimSimulated
import DeviceSimTime
import Testing

@Suite struct LiveRunTests {
    init() throws { try ScenarioAppRegistry.register(BundledApps.all) }

    static let text = """
        name: live
        devices:
          - id: walker
            at: [52.5, 13.4]
            gps: { interval: 100ms, noise: false }
            app: { name: dog-walk, settings: { update-interval: 200ms } }
        timeline:
          - { at: 0s, do: start-service }
          - { at: 300ms, do: gps-off }
        """

    @Test func theSameScenarioRunsOnTheWallClock() throws {
        let scenario = try ScenarioParser.parse(Self.text, file: "live.yaml")
        let simulation = ScenarioSimulation(scenario)
        let clock = ContinuousClock()
        let started = clock.now
        try simulation.runLive(stop: StopSignal(), for: .milliseconds(700))
        #expect(started.duration(to: clock.now) >= .milliseconds(700))
        let names = simulation.trace.events.map(\.name)
        #expect(names.starts(with: ["scenario.started", "step", "service.started", "map.shown", "marker.shown"]))
        #expect(names.contains("marker.moved"))
        #expect(names.contains("location.unavailable"))
    }

    @Test func aStopSignalEndsALiveRunEarly() throws {
        let scenario = try ScenarioParser.parse(Self.text, file: "live.yaml")
        let simulation = ScenarioSimulation(scenario)
        let stop = StopSignal()
        simulation.scheduler.schedule(after: .milliseconds(100)) { stop.raise() }
        let clock = ContinuousClock()
        let started = clock.now
        try simulation.runLive(stop: stop, for: .seconds(60))
        #expect(started.duration(to: clock.now) < .seconds(30))
        #expect(simulation.trace.events.last?.name == "scenario.finished")
    }

    @Test func aLiveSourceReplacesTheSimulatedGPSAndGPSStepsAreSkipped() throws {
        let scenario = try ScenarioParser.parse(Self.text, file: "live.yaml")
        let simulation = ScenarioSimulation(scenario, locationSources: ["walker": { scheduler in
            let motion = DeviceMotion(at: GeoCoordinate(latitude: 1, longitude: 2))
            var configuration = SimulatedGPS.Configuration()
            configuration.noise = false
            let source = SimulatedGPS(scheduler: scheduler, motion: motion, configuration: configuration, random: SeededRandomGenerator(seed: 1))
            source.start()
            return source
        }])
        try simulation.run()
        #expect(simulation.device("walker")?.gps == nil)
        let shown = try #require(simulation.trace.events.first { $0.name == "marker.shown" })
        #expect(shown.coordinate == GeoCoordinate(latitude: 1, longitude: 2))
        #expect(simulation.trace.events.contains { $0.name == "step.skipped" && $0["do"]?.description == "gps-off" })
    }

    /// Live, a device's location may come from gpsd while its radios, prompts and the backend are still
    /// simulated from the world file, on the wall clock.
    @Test func simulatedRadiosAndTheBackendRunOnTheWallClockToo() throws {
        let world = repositoryRoot.appendingPathComponent("Simulator/worlds/campus.yaml").path
        let scenario = try ScenarioParser.parse("""
            name: live radios
            world: \(world)
            backend: { latency: 50ms }
            devices:
              - id: alice
                at: library
                wifi: { scan-interval: 1s }
                app: { name: friend-locator, settings: { auto-ping: true, auto-locate: true, enter-after: 1 } }
              - { id: bob, at: far-away, app: { name: friend-locator } }
            """, file: "/tmp/live-radios.yaml")
        let simulation = ScenarioSimulation(scenario, locationSources: ["alice": { scheduler in
            let source = SimulatedGPS(scheduler: scheduler, motion: DeviceMotion(at: GeoCoordinate(latitude: 52.5108, longitude: 13.3305)), random: SeededRandomGenerator(seed: 1))
            source.start()
            return source
        }])
        try simulation.runLive(stop: StopSignal(), for: .milliseconds(2_500))
        let names = simulation.trace.events.map { "\($0.device ?? "-") \($0.name)" }
        #expect(names.contains("alice hotspot.entered"))
        #expect(names.contains("alice ping.sent"))
        #expect(names.contains("bob ping.received"))
    }
}
