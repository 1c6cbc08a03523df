import DeviceSim
import DeviceSimNetwork
import DeviceSimRuntimeHooks
import Foundation

/// A simulation in a test's hands: a seeded virtual world with devices, driven step by step, with
/// every observable event kept for assertions. Like NIO's `EmbeddedEventLoop`, nothing runs until
/// the test advances time, and nothing ever waits for real.
///
/// It has no process-wide state, so any number of them run side by side in parallel tests (XCTest or
/// Swift Testing). Drive time with `advance(by:)`: synchronously from a synchronous test, or with
/// `try await` from any `async` test, where `@MainActor` code under test (a view model and the
/// `Task {}`s it starts) runs too when the test is `@MainActor`. The `.simulation` trait (Swift Testing)
/// and ``SimulationTestCase`` (XCTest) make one per test and check it at the end.
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

    /// When true (the default), an advance after app code misused an Apple-shaped API in a way a phone
    /// would not report (a `CLLocationManagerDelegate` method that never runs because its name nearly
    /// matches, say: see ``DeviceSimHAL/APIDiagnostic``) throws ``TestSimulationError/apiMisused(_:)``.
    public var failsOnAPIDiagnostics = true

    /// Whether a `Task {}` or `Task.detached {}` that simulated code starts stays in the simulation (on
    /// by default; see ``DeviceSimTime/SimulationExecutor/capturesGlobalWork``). On a runtime that cannot
    /// do it, the next advance throws ``TestSimulationError/globalWorkCaptureUnavailable(_:)`` until a
    /// test turns it off, saying that its tasks are started with ``spawn(_:fileID:line:)``.
    public var capturesGlobalWork: Bool {
        get { scheduler.executor.capturesGlobalWork }
        set { scheduler.executor.capturesGlobalWork = newValue }
    }

    /// When false (the default), a sleep on a real clock (`Task.sleep`, `ContinuousClock`,
    /// `SuspendingClock`, `DispatchQueue.asyncAfter`) started by code running in the simulation (its
    /// tasks, `@MainActor` code during an advance, and under the `.simulation` trait or in a
    /// ``SimulationTestCase`` the test's own task and the tasks it starts) makes the next advance, and
    /// the end of the test, throw ``TestSimulationError/realClockSleep(_:)``: it waits for wall-clock
    /// time, which does not pass in virtual time. Set it to allow them all, or allow one with
    /// `try await RealClockSleeps.allowed { ... }`.
    public var allowsRealClockSleeps: Bool {
        get { !scheduler.executor.reportsRealClockSleeps }
        set { scheduler.executor.reportsRealClockSleeps = !newValue }
    }

    /// The world the devices' radios live in (nil: devices have no Wi-Fi or Bluetooth).
    public let world: WorldIndex?

    private let root: SeededRandomGenerator
    /// How tests touch the simulation, and what went wrong on the way since the last advance.
    let actions: SimulationActions
    private var devices: [TestDevice] = []
    private var knownEscapes = 0
    private var knownRealClockSleeps = 0
    private var sharedServices = SharedServices()
    /// The fake HTTP servers the devices' `URLSession` requests reach (see ``FakeHTTPServer``).
    let httpServers: SimulatedHTTPServers
    /// The devices' beacon fence crossings, recorded in the trace while the simulation lives.
    private var fenceRecordings: [ObservationToken] = []

    /// The UTC time of virtual instant zero unless a test says otherwise: 2026-01-01 00:00.
    public static let defaultStartDate = Date(timeIntervalSince1970: 1_767_225_600)

    /// Creates a simulation at virtual time zero, in `world` if given.
    public init(seed: UInt64 = 1, world: World? = nil, startDate: Date = TestSimulation.defaultStartDate, limits: RunLimits = RunLimits()) {
        self.seed = seed
        self.startDate = startDate
        // Tests link the runtime hooks (app targets never do): stray `Task {}`s are captured, real-clock
        // sleeps are seen.
        DeviceSimRuntimeHooks.install()
        self.scheduler = EventScheduler(limits: limits)
        self.root = SeededRandomGenerator(seed: seed)
        self.world = world.map(WorldIndex.init)
        self.actions = SimulationActions(scheduler: scheduler)
        self.httpServers = SimulatedHTTPServers.forTest(actions: actions)
        // `URLSession.shared` (and sessions configured with `SimulatedURLProtocol`) reach the devices' servers.
        SimulatedURLProtocol.install()
        scheduler.executor.failsEscapedSleeps = true
        // A `Task {}` started by simulated code stays in the simulation (see `capturesGlobalWork`).
        scheduler.executor.capturesGlobalWork = true
        scheduler.executor.reportsRealClockSleeps = true
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
        sharedServices.service(make)
    }

    /// The devices added so far, in order.
    var testDevices: [TestDevice] { devices }

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
        let testDevice = TestDevice(device: device, motion: motion, gps: receiver, geofences: geofences, actions: actions)
        if let world {
            let radios = device.attachSimulatedRadios(motion: motion, world: world, random: root.split("device:\(id)"))
            (testDevice.wifi, testDevice.beacons) = (radios.wifi, radios.beacons)
            radios.wifi.isEnabled = true
            radios.beacons.isEnabled = true
            // Beacon fence crossings go in the trace, as a scenario run records them.
            if let fences = device.recordBeaconFenceCrossings() { fenceRecordings.append(fences) }
        }
        device.http = httpServers
        devices.append(testDevice)
        if currentDevice == nil { currentDevice = testDevice }
        if gpsOn { receiver.start() }
        return testDevice
    }

    /// The device that Apple-shaped APIs created by the test's code belong to (`CLLocationManager()`,
    /// `UNUserNotificationCenter.current()`, ...): the first device added, unless the test names another.
    /// In a test under the `.simulation` trait or in a ``SimulationTestCase`` it is found on its own; elsewhere
    /// wrap the code in `DeviceContext.withDevice(phone.device) { ... }`.
    ///
    /// ```swift
    /// let phone = try TestSimulation.current.addDevice("phone", at: cafe)   // the current device
    /// let model = CheckInViewModel()                                          // its CLLocationManager is phone's
    /// ```
    public var currentDevice: TestDevice?

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

    /// Runs `action` on the simulation's thread now, then what it woke (the jobs it made runnable, the
    /// events it scheduled for now), without moving the clock; returns what `action` returned.
    ///
    /// Call your app's synchronous entry points this way (a tap, a lifecycle event): the tasks they
    /// wake or start stay in virtual time. From inside the simulation it just calls `action`.
    ///
    /// ```swift
    /// simulation.perform { checkout.tapPay() }
    /// ```
    @discardableResult
    public func perform<Result>(fileID: String = #fileID, line: Int = #line, _ action: () throws -> Result) throws -> Result {
        var result: Swift.Result<Result, any Error>?
        do {
            try scheduler.runNow { result = Swift.Result { try action() } }
        } catch {
            throw TestSimulationError.runStopped(error, at: SimulationTaskOrigin(fileID: fileID, line: line))
        }
        return try result!.get()
    }

    /// Runs `action` on the simulation's thread at `instant`, as an event of the advance that reaches it
    /// (throws if the simulation is past `instant`).
    ///
    /// ```swift
    /// try simulation.perform(at: VirtualInstant(offset: .seconds(30))) { checkout.tapPay() }
    /// ```
    public func perform(at instant: VirtualInstant, fileID: String = #fileID, line: Int = #line, _ action: @escaping () -> Void) throws {
        try actions.perform("perform(at:)", at: instant, fileID: fileID, line: line, checked: action)
    }

    /// Runs `operation` in the simulation now, as a task on its executor, with what it wakes, and
    /// returns its value: the way to call an actor or `async` entry point of your app from an `async`
    /// test, so that the `Task {}`s it starts stay in virtual time. `operation` must finish at the
    /// current instant; if it waits for virtual time to pass, this throws
    /// ``TestSimulationError/operationStillWaiting(at:)`` (it goes on as a task: start such work with
    /// ``spawn(_:fileID:line:)`` and advance instead).
    ///
    /// ```swift
    /// try await simulation.run { await uploader.start() }
    /// ```
    @discardableResult
    public func run<Success: Sendable>(
        isolation: isolated (any Actor)? = #isolation,
        fileID: String = #fileID,
        line: Int = #line,
        _ operation: sending @escaping @isolated(any) () async throws -> Success
    ) async throws -> Success {
        let task = spawn(operation, fileID: fileID, line: line)
        try await drive(.until(scheduler.now), isolation: isolation, fileID: fileID, line: line)
        guard let result = task.result else {
            throw TestSimulationError.operationStillWaiting(at: SimulationTaskOrigin(fileID: fileID, line: line))
        }
        return try result.get()
    }

    /// Runs everything due in the next `duration` of virtual time, on the calling thread.
    ///
    /// This is the form for synchronous tests. From `async` code write `try await simulation.advance(by:)`
    /// (the compiler picks that form there). Called from the main actor (a `@MainActor` test, or a
    /// synchronous helper it calls) for a simulation made there, this form too runs `@MainActor` code under
    /// test: the view model's `Task {}`s that have not started yet run first, and the code after each of
    /// their sleeps runs at its virtual instant. (In a process whose runtime hooks cannot run main-actor
    /// jobs early, a sleep of main-actor code that wakes during it makes it throw
    /// ``TestSimulationError/mainActorWorkStranded(advancedAt:sleeps:)``.)
    public func advance(by duration: Duration, fileID: String = #fileID, line: Int = #line) throws {
        try runSynchronously(.until(scheduler.now.advanced(by: duration)), fileID: fileID, line: line)
    }

    /// Runs everything due up to and including `instant`, and leaves the clock there.
    ///
    /// Throws ``TestSimulationError/instantInThePast(_:now:)`` if the simulation is already past
    /// `instant`.
    public func advance(to instant: VirtualInstant, fileID: String = #fileID, line: Int = #line) throws {
        try checkNotPast(instant)
        try runSynchronously(.until(instant), fileID: fileID, line: line)
    }

    /// Runs everything due up to `instant`; the same as ``advance(to:fileID:line:)``.
    public func run(until instant: VirtualInstant, fileID: String = #fileID, line: Int = #line) throws {
        try advance(to: instant, fileID: fileID, line: line)
    }

    /// Runs until nothing is scheduled and no task can run (bounded by the limits).
    public func runUntilIdle(fileID: String = #fileID, line: Int = #line) throws {
        try runSynchronously(.untilIdle, fileID: fileID, line: line)
    }

    /// Runs every job and event due now, without moving the clock.
    public func runCurrent(fileID: String = #fileID, line: Int = #line) throws {
        try runSynchronously(.until(scheduler.now), fileID: fileID, line: line)
    }

    /// Runs everything due in the next `duration` of virtual time, from any isolation: the one way to
    /// drive time from `async` tests.
    ///
    /// From the main actor (a `@MainActor` test), or for a simulation made there, it advances from the
    /// main actor and lets `@MainActor` work (a view model, the `Task {}`s it starts, their sleeps on
    /// ``clock``) settle after every event: see ``DeviceSimTime/EventScheduler/runOnMainActor(until:)``.
    /// Elsewhere it runs on the calling thread, as the synchronous form does.
    ///
    /// ```swift
    /// @MainActor @Test func debouncesTheSearch() async throws {
    ///     let simulation = TestSimulation()
    ///     let model = SearchViewModel(clock: simulation.clock)
    ///     model.queryChanged("caf")
    ///     try await simulation.advance(by: .milliseconds(299))
    ///     #expect(model.results.isEmpty)
    ///     try await simulation.advance(by: .milliseconds(1))
    ///     #expect(model.results == ["Café Einstein"])
    /// }
    /// ```
    public func advance(
        by duration: Duration,
        isolation: isolated (any Actor)? = #isolation,
        fileID: String = #fileID,
        line: Int = #line
    ) async throws {
        try await drive(.until(scheduler.now.advanced(by: duration)), isolation: isolation, fileID: fileID, line: line)
    }

    /// Runs everything due up to and including `instant`, from any isolation (see
    /// ``advance(by:isolation:fileID:line:)``).
    public func advance(
        to instant: VirtualInstant,
        isolation: isolated (any Actor)? = #isolation,
        fileID: String = #fileID,
        line: Int = #line
    ) async throws {
        try checkNotPast(instant)
        try await drive(.until(instant), isolation: isolation, fileID: fileID, line: line)
    }

    /// Runs until nothing is scheduled and no task can run, from any isolation (see
    /// ``advance(by:isolation:fileID:line:)``).
    public func runUntilIdle(isolation: isolated (any Actor)? = #isolation, fileID: String = #fileID, line: Int = #line) async throws {
        try await drive(.untilIdle, isolation: isolation, fileID: fileID, line: line)
    }

    /// Runs every job and event due now, and lets the work it wakes settle, from any isolation (see
    /// ``advance(by:isolation:fileID:line:)``).
    public func runCurrent(isolation: isolated (any Actor)? = #isolation, fileID: String = #fileID, line: Int = #line) async throws {
        try await drive(.until(scheduler.now), isolation: isolation, fileID: fileID, line: line)
    }

    /// Runs everything due in the next `duration` from the main actor; the same as
    /// `try await advance(by:)` from a `@MainActor` test.
    @MainActor
    public func advanceOnMainActor(by duration: Duration, fileID: String = #fileID, line: Int = #line) async throws {
        try await drive(.until(scheduler.now.advanced(by: duration)), isolation: MainActor.shared, fileID: fileID, line: line)
    }

    /// Runs everything due up to and including `instant` from the main actor; the same as
    /// `try await advance(to:)` from a `@MainActor` test.
    @MainActor
    public func advanceOnMainActor(to instant: VirtualInstant, fileID: String = #fileID, line: Int = #line) async throws {
        try checkNotPast(instant)
        try await drive(.until(instant), isolation: MainActor.shared, fileID: fileID, line: line)
    }

    /// Runs from the main actor until nothing is scheduled and no task can run; the same as
    /// `try await runUntilIdle()` from a `@MainActor` test.
    @MainActor
    public func runOnMainActorUntilIdle(fileID: String = #fileID, line: Int = #line) async throws {
        try await drive(.untilIdle, isolation: MainActor.shared, fileID: fileID, line: line)
    }

    fileprivate enum Target {
        case until(VirtualInstant)
        case untilIdle
    }

    /// Advances from the main actor when the caller is there or the simulation belongs to it (made
    /// there); on the calling thread otherwise.
    private func drive(_ target: Target, isolation: isolated (any Actor)?, fileID: String, line: Int) async throws {
        try checkProblems()
        if isolation is MainActor || MainQueue.isCurrent || scheduler.executor.hostsMainActor {
            try await UncheckedSimulation(self).advanceFromTheMainActor(target)
            try checkProblems()
            return
        }
        try runSynchronously(target, fileID: fileID, line: line)
    }

    @MainActor
    fileprivate func advanceFromTheMainActor(_ target: Target) async throws {
        switch target {
        case .until(let instant): try await scheduler.runOnMainActor(until: instant)
        case .untilIdle: try await scheduler.runOnMainActorUntilIdle()
        }
    }

    /// Runs the scheduler synchronously to `target`, then throws what went wrong: an escape, an action
    /// from another thread, or main-actor work that this synchronous run could not let go on.
    ///
    /// From the main actor, for a simulation of the main actor (made or advanced there), it runs the
    /// main actor's queued work as it goes (a view model's `Task {}`s that have not started yet, the code
    /// after a main-actor sleep that woke), as the `async` form does: see
    /// ``DeviceSimTime/EventScheduler/runSynchronouslyOnMainActor(until:)``. Where it cannot (the runtime
    /// hooks cannot run main-actor jobs early in this process), a main-actor sleep that wakes during it is
    /// reported as stranded.
    private func runSynchronously(_ target: Target, fileID: String, line: Int) throws {
        try checkProblems()
        if scheduler.runsSynchronouslyOnMainActor {
            switch target {
            case .until(let instant): try scheduler.runSynchronouslyOnMainActor(until: instant)
            case .untilIdle: try scheduler.runSynchronouslyOnMainActor(until: nil)
            }
            try checkProblems()
            return
        }
        _ = scheduler.executor.takeStrandedMainActorWakes()
        switch target {
        case .until(let instant): try scheduler.run(until: instant)
        case .untilIdle: try scheduler.runUntilIdle()
        }
        let stranded = scheduler.executor.takeStrandedMainActorWakes()
        if !stranded.isEmpty {
            throw TestSimulationError.mainActorWorkStranded(advancedAt: SimulationTaskOrigin(fileID: fileID, line: line), sleeps: stranded)
        }
        try checkProblems()
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
        try checkProblems()
        let work = pendingWork
        if !work.isEmpty { throw TestSimulationError.pendingWork(work) }
    }

    /// Events named `name` (on `device`, when given), in order.
    public func events(named name: String, device: String? = nil) -> [TraceEvent] {
        trace.events.filter { $0.name == name && (device == nil || $0.device == device) }
    }

    /// The trace as JSON Lines (byte-identical for the same program and seed).
    public var traceJSONLines: String { trace.jsonLines }

    /// Throws the first thing that went wrong since the last check: the runtime cannot keep `Task {}`s
    /// in, a sleep escaped, or an action came from another thread.
    private func checkProblems() throws {
        if let reason = scheduler.executor.globalWorkCaptureProblem {
            throw TestSimulationError.globalWorkCaptureUnavailable(reason)
        }
        let escapes = scheduler.executor.escapes
        defer { knownEscapes = escapes.count }
        if failsOnEscapes, escapes.count > knownEscapes {
            throw TestSimulationError.workEscapedTheSimulation(Array(escapes[knownEscapes...]))
        }
        if let problem = actions.takeProblems().first { throw problem }
        let abandoned = scheduler.executor.takeAbandonedHandoffs()
        if !abandoned.isEmpty { throw TestSimulationError.handoffNeverArrived(abandoned) }
        let diagnostics = devices.flatMap { $0.device.takeAPIDiagnostics() }
        if failsOnAPIDiagnostics, !diagnostics.isEmpty { throw TestSimulationError.apiMisused(diagnostics) }
        let realClockSleeps = scheduler.executor.realClockSleeps
        if realClockSleeps.count > knownRealClockSleeps {
            defer { knownRealClockSleeps = realClockSleeps.count }
            if !allowsRealClockSleeps { throw TestSimulationError.realClockSleep(Array(realClockSleeps[knownRealClockSleeps...])) }
        }
    }

    /// Throws what went wrong since the last advance (an escape, an action from another thread), if
    /// anything did.
    func checkNothingEscaped() throws {
        try checkProblems()
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
    /// A synchronous advance (at the file:line given) ran from the main actor while `@MainActor` code
    /// slept on the clock: those sleeps woke, but the code after them could not run until the call
    /// returned, outside virtual time.
    case mainActorWorkStranded(advancedAt: SimulationTaskOrigin, sleeps: [PendingSleep])
    /// The simulation was asked to keep the `Task {}`s of simulated code inside, and this runtime cannot.
    case globalWorkCaptureUnavailable(String)
    /// A test action (named, called at the file:line given) came from a thread other than the one
    /// advancing the simulation, while it advanced: it ran at the next drain instead, at a time set by
    /// thread timing.
    case touchedFromAnotherThread(String, at: SimulationTaskOrigin)
    /// The scheduler stopped (a run limit) while running a test action (called at the file:line given).
    case runStopped(SchedulerError, at: SimulationTaskOrigin)
    /// The operation passed to ``TestSimulation/run(isolation:fileID:line:_:)`` (at the file:line given)
    /// did not finish at the current instant: it waits for virtual time to pass.
    case operationStillWaiting(at: SimulationTaskOrigin)
    /// App code misused an Apple-shaped API (each diagnostic says how to fix it).
    case apiMisused([APIDiagnostic])
    /// Code running in the simulation slept on a real clock (each says where; see
    /// ``TestSimulation/allowsRealClockSleeps``).
    case realClockSleep([RealClockSleep])
    /// ``TestSimulation/current`` was read outside a test under the `.simulation` trait or a
    /// ``SimulationTestCase``.
    case noSimulationInScope
    /// App code on a device sent an HTTP request (named) to a host no ``FakeHTTPServer`` of the test
    /// answers for; `hint` says how to add one.
    case noServerForHost(String, request: String, hint: String)
    /// Work announced to the simulation by another thread never came (a `URLSession` request that
    /// Foundation did not start within ``DeviceSimTime/SimulationExecutor/handoffTimeout``, or a data
    /// task's completion handler that had not returned after as long).
    case handoffNeverArrived([String])

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
        case .mainActorWorkStranded(let origin, let sleeps):
            "the synchronous advance at \(origin) ran on the main actor, so @MainActor code whose sleep woke during it "
                + "could not go on until it returned (outside virtual time): "
                + sleeps.map(\.description).joined(separator: "; ")
                + "; advance with `try await simulation.advance(by:)` from an async test instead"
        case .globalWorkCaptureUnavailable(let reason):
            reason
        case .touchedFromAnotherThread(let action, let origin):
            "\(action) at \(origin) was called from another thread while the simulation advanced, so it ran at a time "
                + "set by thread timing; call it from the test between two advances, or from code running in the simulation"
        case .runStopped(let error, let origin):
            "the simulation stopped while running the action at \(origin): \(error)"
        case .operationStillWaiting(let origin):
            "the operation run at \(origin) did not finish at the current instant (it waits for virtual time); it goes on as "
                + "a task: start such work with `simulation.spawn` and advance the simulation instead"
        case .apiMisused(let diagnostics):
            "app code misused an Apple API:\n" + diagnostics.map { "- \($0)" }.joined(separator: "\n")
                + "\n(set failsOnAPIDiagnostics = false to go on anyway)"
        case .realClockSleep(let sleeps):
            "\(sleeps.count) sleep(s) on a real clock in the simulation:\n" + sleeps.map { "- \($0)" }.joined(separator: "\n")
        case .noServerForHost(let host, let request, let hint):
            "the request \(request) went to the host '\(host)', which no FakeHTTPServer of the test answers for "
                + "(it failed with URLError.cannotFindHost): \(hint)"
        case .handoffNeverArrived(let work):
            "the simulation waited \(SimulationExecutor.handoffTimeout) of real time (not counting time in which the thread pool "
                + "had no thread free) for work another thread announced, "
                + "and it never came: " + work.joined(separator: "; ")
        case .noSimulationInScope:
            "TestSimulation.current is set only in a test marked @Test(.simulation) (or in a suite marked so) and in an "
                + "XCTest SimulationTestCase; elsewhere make one with TestSimulation()"
        }
    }
}

/// The simulation carried to the main actor for an advance from there (the caller waits for it, so
/// nothing else touches it meanwhile).
private struct UncheckedSimulation: @unchecked Sendable {
    let simulation: TestSimulation
    init(_ simulation: TestSimulation) { self.simulation = simulation }

    @MainActor
    func advanceFromTheMainActor(_ target: TestSimulation.Target) async throws {
        try await simulation.advanceFromTheMainActor(target)
    }
}
