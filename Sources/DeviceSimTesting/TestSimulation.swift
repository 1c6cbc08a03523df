import DeviceSim
import Foundation

/// A simulation in a test's hands: a seeded virtual world with devices, driven step by step, with
/// every observable event kept for assertions. Like NIO's `EmbeddedEventLoop`, nothing runs until
/// the test advances time, and nothing ever waits for real.
///
/// It has no process-wide state, so any number of them run side by side in parallel tests (XCTest or
/// Swift Testing).
///
/// ```swift
/// @Test func theMarkerFollowsTheWalk() throws {
///     let simulation = TestSimulation(seed: 7)
///     let walker = simulation.addDevice("walker", at: GeoCoordinate(latitude: 52.5145, longitude: 13.3501))
///     let app = DogWalkApp(device: walker.device)
///     app.startService()
///     walker.walk(to: [GeoCoordinate(latitude: 52.5145, longitude: 13.3650)])
///     try simulation.advance(by: .minutes(5))
///     #expect(simulation.events(named: "marker.moved").count == 60)
/// }
/// ```
public final class TestSimulation {
    /// The simulation's scheduler (virtual time).
    public let scheduler: EventScheduler
    /// Every event so far.
    public let trace = TraceRecorder()
    /// The root seed.
    public let seed: UInt64
    /// UTC time of virtual instant zero.
    public let startDate: Date
    /// When true (the default), advancing fails with ``TestSimulationError/workEscapedTheSimulation(count:)``
    /// if simulated code slept on the virtual clock from outside the simulation's executor (an
    /// unstructured `Task {}` or `Task.detached`, a `@MainActor` hop): such code is not deterministic.
    public var failsOnEscapes = true

    /// The world the devices' radios live in (nil: devices have no Wi-Fi or Bluetooth).
    public let world: WorldIndex?

    private let root: SeededRandomGenerator
    private var devices: [TestDevice] = []
    private var knownEscapes = 0
    private var simulatedBackend: SimulatedBackend?

    /// Creates a simulation at virtual time zero, in `world` if given.
    public init(seed: UInt64 = 1, world: World? = nil, startDate: Date = Date(timeIntervalSince1970: 1_767_225_600), limits: RunLimits = RunLimits()) {
        self.seed = seed
        self.startDate = startDate
        self.scheduler = EventScheduler(limits: limits)
        self.root = SeededRandomGenerator(seed: seed)
        self.world = world.map(WorldIndex.init)
    }

    /// The simulated backend the devices share, with the world's hotspots. Unless ``makeBackend(accounts:configuration:)``
    /// made one first, it has an account per device added so far (`<id>@example.org`), all friends.
    public var backend: SimulatedBackend {
        if let simulatedBackend { return simulatedBackend }
        return makeBackend(accounts: SimulatedBackend.Account.allFriends(devices.map(\.device.id)))
    }

    /// Creates the shared backend with these accounts.
    @discardableResult
    public func makeBackend(accounts: [SimulatedBackend.Account], configuration: SimulatedBackend.Configuration = .init()) -> SimulatedBackend {
        let made = SimulatedBackend(scheduler: scheduler, events: trace, configuration: configuration, hotspots: world?.world.hotspotInfos ?? [], accounts: accounts)
        simulatedBackend = made
        return made
    }

    /// The current virtual time.
    public var now: VirtualInstant { scheduler.now }

    /// A `Clock` on the simulation's time, for code written against `any Clock<Duration>`.
    public var clock: VirtualClock { VirtualClock(scheduler) }

    /// Adds a device standing at `coordinate` with a simulated GPS (on, unless `gpsOn` is false) and
    /// geofence monitoring fed by that GPS (`geofences` sets its timing and region limit).
    @discardableResult
    public func addDevice(
        _ id: String,
        at coordinate: GeoCoordinate,
        gps: SimulatedGPS.Configuration = SimulatedGPS.Configuration(),
        gpsOn: Bool = true,
        geofences: SimulatedGeofenceMonitor.Configuration = SimulatedGeofenceMonitor.Configuration()
    ) -> TestDevice {
        var configuration = gps
        configuration.startDate = startDate
        let motion = DeviceMotion(at: coordinate)
        let receiver = SimulatedGPS(scheduler: scheduler, motion: motion, configuration: configuration, random: root.split("device:\(id)").split("gps"))
        let device = Device(id: id, scheduler: scheduler, location: receiver, events: trace)
        let testDevice = TestDevice(device: device, motion: motion, gps: receiver, geofences: geofences)
        if let world {
            let radios = device.attachSimulatedRadios(motion: motion, world: world, random: root.split("device:\(id)"))
            (testDevice.wifi, testDevice.beacons) = (radios.wifi, radios.beacons)
            radios.wifi.isEnabled = true
            radios.beacons.isEnabled = true
        }
        devices.append(testDevice)
        if gpsOn { receiver.start() }
        return testDevice
    }

    /// The device named `id`.
    public func device(_ id: String) -> TestDevice? {
        devices.first { $0.device.id == id }
    }

    /// Starts `operation` as a task on the simulation's executor (a flow written with async/await).
    /// The handle tells a synchronous test whether it finished and what it returned.
    @discardableResult
    public func spawn<Success: Sendable>(_ operation: sending @escaping @isolated(any) () async throws -> Success) -> SpawnedTask<Success> {
        let outcome = SpawnedTask<Success>.Outcome()
        let task = scheduler.spawn { () async throws -> Success in
            do {
                let value = try await operation()
                outcome.finish(.success(value))
                return value
            } catch {
                outcome.finish(.failure(error))
                throw error
            }
        }
        return SpawnedTask(task: task, outcome: outcome)
    }

    /// Runs everything due in the next `duration` of virtual time.
    public func advance(by duration: Duration) throws {
        try scheduler.run(for: duration)
        try checkEscapes()
    }

    /// Runs everything due up to `instant`.
    public func run(until instant: VirtualInstant) throws {
        try scheduler.run(until: instant)
        try checkEscapes()
    }

    /// Runs until nothing is scheduled and no task can run (bounded by the limits).
    public func runUntilIdle() throws {
        try scheduler.runUntilIdle()
        try checkEscapes()
    }

    /// Runs every job and event due now, without moving the clock.
    public func runCurrent() throws {
        try scheduler.runCurrent()
        try checkEscapes()
    }

    /// Events named `name` (on `device`, when given), in order.
    public func events(named name: String, device: String? = nil) -> [TraceEvent] {
        trace.events.filter { $0.name == name && (device == nil || $0.device == device) }
    }

    /// The trace as JSON Lines (byte-identical for the same program and seed).
    public var traceJSONLines: String { trace.jsonLines }

    private func checkEscapes() throws {
        let escapes = scheduler.executor.escapedCallCount
        defer { knownEscapes = escapes }
        if failsOnEscapes, escapes > knownEscapes {
            throw TestSimulationError.workEscapedTheSimulation(count: escapes - knownEscapes)
        }
    }
}

/// Why a ``TestSimulation`` refused to go on.
public enum TestSimulationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Code slept on the virtual clock from outside the simulation's executor.
    case workEscapedTheSimulation(count: Int)

    public var description: String {
        switch self {
        case .workEscapedTheSimulation(let count):
            "\(count) sleep(s) on the virtual clock came from outside the simulation's executor; start simulated work with TestSimulation.spawn (child tasks inherit it) instead of Task {}, Task.detached or @MainActor code, or set failsOnEscapes = false"
        }
    }
}
