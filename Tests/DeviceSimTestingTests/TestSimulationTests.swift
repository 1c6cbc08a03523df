import DeviceSim
import DeviceSimTesting
import Foundation
import Testing

/// A user's own flow, written with async/await against the HAL: it counts fixes and debounces
/// "stopped" (no movement for 10 s).
final class StopDetector {
    let device: Device
    var stops: [VirtualInstant] = []

    init(device: Device) {
        self.device = device
    }

    func run() async {
        let clock = device.clock
        var lastMove = clock.now
        var last: GeoCoordinate?
        var reported = false
        for await fix in device.locationFixes() {
            if let previous = last, previous.distance(to: fix.coordinate) > 0.5 {
                lastMove = clock.now
                reported = false
            }
            last = fix.coordinate
            if !reported, lastMove.duration(to: clock.now) >= .seconds(10) {
                reported = true
                stops.append(clock.now)
                device.record("stopped")
            }
        }
    }
}

@Suite struct TestSimulationTests {
    let park = GeoCoordinate(latitude: 52.5145, longitude: 13.3501)

    func noiseless() -> SimulatedGPS.Configuration {
        var configuration = SimulatedGPS.Configuration()
        configuration.noise = false
        return configuration
    }

    @Test func aShippedFlowRunsInAFewLines() throws {
        let simulation = TestSimulation(seed: 7)
        let walker = simulation.addDevice("walker", at: park)
        let app = DogWalkApp(device: walker.device)
        app.startService()
        walker.walk(to: [park.destination(distance: 1_000, bearing: 90)])
        try simulation.advance(by: .minutes(5))
        #expect(simulation.events(named: "marker.moved").count == 60)
        #expect(app.marker.map { $0.distance(to: walker.position) < 30 } == true)
    }

    @Test func aUsersAsyncFlowSeesFixesAsASequence() throws {
        let simulation = TestSimulation()
        let walker = simulation.addDevice("walker", at: park, gps: noiseless())
        let detector = StopDetector(device: walker.device)
        let bound = SimulationBound(detector, executor: simulation.scheduler.executor)
        simulation.spawn { await bound.value.run() }
        walker.walk(to: [park.destination(distance: 140, bearing: 0)])  // 100 s at 1.4 m/s, then standing
        try simulation.advance(by: .minutes(5))
        #expect(detector.stops == [VirtualInstant(offset: .seconds(110))])
        #expect(simulation.events(named: "stopped").count == 1)
    }

    @Test func gpsScriptingIsVisibleToFlows() throws {
        let simulation = TestSimulation()
        let walker = simulation.addDevice("walker", at: park, gps: noiseless())
        let app = DogWalkApp(device: walker.device)
        app.startService()
        try simulation.advance(by: .seconds(10))
        walker.loseSignal(for: .seconds(30))
        try simulation.advance(by: .minutes(1))
        #expect(simulation.events(named: "location.unavailable").map(\.time.seconds) == [15])
        #expect(simulation.events(named: "location.recovered").map(\.time.seconds) == [45])
        walker.setGPS(on: false)
        try simulation.advance(by: .seconds(10))
        #expect(!app.isLocationAvailable)
    }

    @Test func theSameSeedGivesTheSameTraceAndAnotherSeedAnother() throws {
        func trace(seed: UInt64) throws -> String {
            let simulation = TestSimulation(seed: seed)
            let walker = simulation.addDevice("walker", at: park)
            DogWalkApp(device: walker.device).startService()
            try simulation.advance(by: .minutes(2))
            return simulation.traceJSONLines
        }
        #expect(try trace(seed: 3) == trace(seed: 3))
        #expect(try trace(seed: 3) != trace(seed: 4))
    }

    @Test func workThatEscapesTheSimulationFailsAtOnceAndIsReported() async throws {
        let simulation = TestSimulation()
        let clock = simulation.clock
        let escaped = Task.detached { try await clock.sleep(for: .seconds(1)) }
        // The sleep fails at once, in the escaped task, instead of waking at a time set by thread timing.
        let thrown = await #expect(throws: VirtualClockError.self) { try await escaped.value }
        // On another thread, or on the main actor once a test in this process has used
        // swift-concurrency-extras' withMainSerialExecutor (its hook then sends every job there).
        let place = try #require(simulation.scheduler.executor.escapes.first?.place)
        let escape = SimulationEscape(deadline: VirtualInstant(offset: .seconds(1)), origin: nil, place: place)
        #expect(thrown == .sleptOutsideTheSimulation(escape))
        // The next advance throws before it moves the clock.
        #expect(throws: TestSimulationError.workEscapedTheSimulation([escape])) { try simulation.advance(by: .seconds(2)) }
        #expect(simulation.now == .zero)
        try await simulation.advance(by: .seconds(1))  // reported once
        #expect(simulation.now == VirtualInstant(offset: .seconds(1)))
    }

    /// Many simulations at once, as Swift Testing runs tests in parallel: each stays exact.
    @Test(arguments: 0..<16) func parallelSimulationsDoNotInterfere(seed: Int) async throws {
        let simulation = TestSimulation(seed: UInt64(seed))
        let clock = simulation.clock
        let ticks = SendableCounter()
        simulation.spawn {
            for _ in 0..<3_600 {
                try await clock.sleep(for: .seconds(1))
                ticks.increment()
            }
        }
        try await simulation.advance(by: .hours(1))
        #expect(ticks.value == 3_600)
        #expect(simulation.now == VirtualInstant(offset: .hours(1)))
    }
}

final class SendableCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.lock(); count += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}

extension Duration {
    static func minutes(_ minutes: Int) -> Duration { .seconds(minutes * 60) }
    static func hours(_ hours: Int) -> Duration { .seconds(hours * 3_600) }
}
