import DeviceSim
import Foundation

/// A simulation in a test's hands: a seeded virtual world with devices, driven step by step, with
/// every observable event kept for assertions. Like NIO's `EmbeddedEventLoop`, nothing runs until
/// the test advances time, and nothing ever waits for real.
///
/// It has no process-wide state, so any number of them run side by side in parallel tests (XCTest or
/// Swift Testing). `@MainActor` code under test (a view model and the `Task {}`s it starts) is driven
/// from a `@MainActor` test with ``advanceOnMainActor(by:)``.
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
    /// When true (the default), a sleep on the virtual clock from outside the simulation's executor (an
    /// unstructured `Task {}` or `Task.detached`, a hop off the main actor) throws
    /// `VirtualClockError.sleptOutsideTheSimulation` at once, and the next advance fails with
    /// ``TestSimulationError/workEscapedTheSimulation(_:)`` naming where it came from: such code is not
    /// deterministic. When false, such sleeps still complete, at a time that depends on thread timing.
    public var failsOnEscapes = true {
        didSet { scheduler.executor.failsEscapedSleeps = failsOnEscapes }
    }

    /// The world the devices' radios live in (nil: devices have no Wi-Fi or Bluetooth).
    public let world: WorldIndex?

    private let root: SeededRandomGenerator
    private var devices: [TestDevice] = []
    private var knownEscapes = 0
    private var sharedServices: [ObjectIdentifier: AnyObject] = [:]

    /// Creates a simulation at virtual time zero, in `world` if given.
    public init(seed: UInt64 = 1, world: World? = nil, startDate: Date = Date(timeIntervalSince1970: 1_767_225_600), limits: RunLimits = RunLimits()) {
        self.seed = seed
        self.startDate = startDate
        self.scheduler = EventScheduler(limits: limits)
        self.root = SeededRandomGenerator(seed: seed)
        self.world = world.map(WorldIndex.init)
        scheduler.executor.failsEscapedSleeps = true
        // A `Task {}` started by simulated code stays in the simulation (see `capturesGlobalWork`).
        scheduler.executor.capturesGlobalWork = true
        // A simulation made on the main actor (a @MainActor test) is the main actor's: main-actor code
        // may use its objects between two advances, as the test itself does.
        scheduler.executor.hostsMainActor = MainQueue.isCurrent
    }

    /// The one instance of `Service` that every device of this simulation shares (an app's server),
    /// made by `make` the first time it is asked for.
    ///
    /// ```swift
    /// let server = simulation.sharedService { TaskServer(scheduler: simulation.scheduler, events: simulation.trace) }
    /// ```
    public func sharedService<Service: AnyObject>(_ make: () -> Service) -> Service {
        let key = ObjectIdentifier(Service.self)
        if let existing = sharedServices[key] as? Service { return existing }
        let made = make()
        sharedServices[key] = made
        return made
    }

    /// The ids of the devices added so far, in order.
    public var deviceIDs: [String] { devices.map(\.device.id) }

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
    /// The handle tells a synchronous test whether it finished and what it returned. Until it finishes
    /// the task is pending work (``pendingWork``), named by the file and line of this call.
    @discardableResult
    public func spawn<Success: Sendable>(
        _ operation: sending @escaping @isolated(any) () async throws -> Success,
        fileID: String = #fileID,
        line: Int = #line
    ) -> SpawnedTask<Success> {
        let outcome = SpawnedTask<Success>.Outcome()
        let recorded = { () async throws -> Success in
            do {
                let value = try await operation()
                outcome.finish(.success(value))
                return value
            } catch {
                outcome.finish(.failure(error))
                throw error
            }
        }
        let task = scheduler.spawn(recorded, fileID: fileID, line: line)
        return SpawnedTask(task: task, outcome: outcome)
    }

    /// Runs everything due in the next `duration` of virtual time.
    ///
    /// From a `@MainActor` test whose code under test is `@MainActor` (a view model and its `Task {}`s),
    /// use ``advanceOnMainActor(by:)`` instead: a synchronous call holds the main actor, so main-actor
    /// work cannot run during it.
    public func advance(by duration: Duration) throws {
        try scheduler.run(for: duration)
        try checkEscapes()
    }

    /// Runs everything due up to and including `instant`, and leaves the clock there.
    ///
    /// Throws ``TestSimulationError/instantInThePast(_:now:)`` if the simulation is already past
    /// `instant`.
    public func advance(to instant: VirtualInstant) throws {
        try checkNotPast(instant)
        try scheduler.run(until: instant)
        try checkEscapes()
    }

    /// Runs everything due up to `instant`; the same as ``advance(to:)``.
    public func run(until instant: VirtualInstant) throws {
        try advance(to: instant)
    }

    /// Runs everything due in the next `duration` of virtual time from the main actor, letting
    /// `@MainActor` work (a view model, the `Task {}`s it starts, their sleeps on ``clock``) settle after
    /// every event: see ``DeviceSimTime/EventScheduler/runOnMainActor(until:)``.
    ///
    /// ```swift
    /// @MainActor @Test func debouncesTheSearch() async throws {
    ///     let simulation = TestSimulation()
    ///     let model = SearchViewModel(clock: simulation.clock)
    ///     model.queryChanged("caf")
    ///     try await simulation.advanceOnMainActor(by: .milliseconds(299))
    ///     #expect(model.results.isEmpty)
    ///     try await simulation.advanceOnMainActor(by: .milliseconds(1))
    ///     #expect(model.results == ["Café Einstein"])
    /// }
    /// ```
    @MainActor
    public func advanceOnMainActor(by duration: Duration) async throws {
        try await scheduler.runOnMainActor(until: scheduler.now.advanced(by: duration))
        try checkEscapes()
    }

    /// Runs everything due up to and including `instant` from the main actor (see
    /// ``advanceOnMainActor(by:)``).
    @MainActor
    public func advanceOnMainActor(to instant: VirtualInstant) async throws {
        try checkNotPast(instant)
        try await scheduler.runOnMainActor(until: instant)
        try checkEscapes()
    }

    /// Runs from the main actor until nothing is scheduled and no task can run (see
    /// ``advanceOnMainActor(by:)``).
    @MainActor
    public func runOnMainActorUntilIdle() async throws {
        try await scheduler.runOnMainActorUntilIdle()
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

    /// What is still waiting: runnable jobs, sleeps on the virtual clock, and tasks started with
    /// ``spawn(_:fileID:line:)`` (or `Device.spawn`) that have not finished. The simulated world's own
    /// timers (GPS fixes, radio scans) are not work.
    public var pendingWork: [PendingWork] {
        var work: [PendingWork] = scheduler.executor.hasRunnableWork ? [.runnableJobs] : []
        work += scheduler.pendingSleeps.map(PendingWork.sleep)
        work += scheduler.unfinishedTasks.map(PendingWork.task)
        return work
    }

    /// Throws ``TestSimulationError/pendingWork(_:)`` listing ``pendingWork`` unless there is none,
    /// like the end of an exhaustive test: every sleep woke or was cancelled and every spawned task
    /// finished.
    ///
    /// ```swift
    /// model.cancelSearch()
    /// try simulation.runCurrent()
    /// try simulation.expectNoPendingWork()
    /// ```
    public func expectNoPendingWork() throws {
        try checkEscapes()
        let work = pendingWork
        if !work.isEmpty { throw TestSimulationError.pendingWork(work) }
    }

    /// Events named `name` (on `device`, when given), in order.
    public func events(named name: String, device: String? = nil) -> [TraceEvent] {
        trace.events.filter { $0.name == name && (device == nil || $0.device == device) }
    }

    /// The trace as JSON Lines (byte-identical for the same program and seed).
    public var traceJSONLines: String { trace.jsonLines }

    private func checkEscapes() throws {
        let escapes = scheduler.executor.escapes
        defer { knownEscapes = escapes.count }
        if failsOnEscapes, escapes.count > knownEscapes {
            throw TestSimulationError.workEscapedTheSimulation(Array(escapes[knownEscapes...]))
        }
    }

    private func checkNotPast(_ instant: VirtualInstant) throws {
        if instant < scheduler.now { throw TestSimulationError.instantInThePast(instant, now: scheduler.now) }
    }
}

/// Work a ``TestSimulation`` still has to do (see ``TestSimulation/pendingWork``).
public enum PendingWork: Hashable, Sendable, CustomStringConvertible {
    /// Jobs are queued on the simulation's executor (submitted since the last advance).
    case runnableJobs
    /// A sleep on the virtual clock has not woken yet.
    case sleep(PendingSleep)
    /// A spawned task has not returned yet (it may be waiting on a sleep or an async sequence).
    case task(SimulationTaskOrigin)

    public var description: String {
        switch self {
        case .runnableJobs: "jobs queued on the simulation's executor"
        case .sleep(let sleep): "\(sleep)"
        case .task(let origin): "the task spawned at \(origin) has not finished"
        }
    }
}

/// Why a ``TestSimulation`` refused to go on.
public enum TestSimulationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Code slept on the virtual clock from outside the simulation's executor (each escape says where
    /// it came from and how to keep it inside).
    case workEscapedTheSimulation([SimulationEscape])
    /// ``TestSimulation/expectNoPendingWork()`` found work still waiting.
    case pendingWork([PendingWork])
    /// An advance to an instant the simulation has already passed.
    case instantInThePast(VirtualInstant, now: VirtualInstant)

    public var description: String {
        switch self {
        case .workEscapedTheSimulation(let escapes):
            "\(escapes.count) sleep(s) on the virtual clock came from outside the simulation's executor:\n"
                + escapes.map { "- \($0)" }.joined(separator: "\n")
                + "\n(set failsOnEscapes = false to let them run anyway, non-deterministically)"
        case .pendingWork(let work):
            "work is still pending at the end of the test:\n" + work.map { "- \($0)" }.joined(separator: "\n")
                + "\nadvance further, or cancel what should have stopped"
        case .instantInThePast(let instant, let now):
            "cannot advance to \(instant): the simulation is already at \(now)"
        }
    }
}
