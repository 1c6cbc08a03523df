import DeviceSimHAL
import DeviceSimRuntimeHooks
import DeviceSimServer
import DeviceSimSimulated
import DeviceSimStorage
import DeviceSimTime
import Synchronization

/// One scenario, set up and ready to run: its scheduler, its devices with their simulated hardware and
/// apps, its timeline scheduled, and the trace it writes.
///
/// It runs in virtual time (``run()``), or on the wall clock with real hardware in place of some
/// simulated parts (``runLive(driver:stop:for:)``, with a live location source passed at creation).
///
/// ```swift
/// let simulation = ScenarioSimulation(scenario)
/// try simulation.run()
/// simulation.trace.events
/// ```
public final class ScenarioSimulation {
    /// A device of the scenario with its simulated hardware.
    public final class SimulatedDevice {
        /// The HAL device that flows see.
        public let device: Device
        /// Where it physically is (for simulated sources).
        public let motion: DeviceMotion
        /// Its simulated GPS receiver (nil when a live or recorded source stands in for it).
        public let gps: SimulatedGPS?
        /// Its Wi-Fi radio (when the scenario has a world).
        public internal(set) var wifi: SimulatedWiFi?
        /// Its Bluetooth beacon ranging (when the scenario has a world).
        public internal(set) var beacons: SimulatedBeaconRanging?
        /// Its notifications and prompts.
        public let notifications: SimulatedNotifications
        /// Its connectivity.
        public let connectivity: SimulatedConnectivity
        /// Every database file of the device (one per app store that asked for one).
        public internal(set) var databases: [SQLiteDatabase] = []
        /// The storage faults injected into the device (`storage-fault`); its databases share them.
        public let storageFaults = StorageFaults()
        /// The connection drops scripted for the device (`drop-connection` with `lose:`); its apps'
        /// server connections share them.
        public let connectionDrops = ConnectionDrops()
        /// Its app, if it runs one.
        var app: LaunchedApp?
        /// How many times its app was launched in this run.
        var appLaunches = 0

        init(device: Device, motion: DeviceMotion, gps: SimulatedGPS?) {
            self.device = device
            self.motion = motion
            self.gps = gps
            (notifications, connectivity) = device.attachSimulatedNotificationsAndConnectivity()
        }
    }

    /// The scenario being run.
    public let scenario: Scenario
    /// The seed in force (the scenario's, unless overridden).
    public let seed: UInt64
    /// The simulation's scheduler.
    public let scheduler: EventScheduler
    /// Everything observable that happened.
    public let trace: TraceRecorder
    /// The devices, in the scenario's order.
    public private(set) var devices: [SimulatedDevice] = []
    /// The position of each device in `devices` (and its spec in the scenario's), by id.
    private var deviceIndexByID: [String: Int] = [:]
    /// NMEA logs being played.
    private var playbacks: [NMEAPlaybackLocationProvider] = []
    /// The NMEA log each device plays, by device id (gps-on/off and signal-loss act on it).
    private var playbackByDevice: [String: NMEAPlaybackLocationProvider] = [:]
    /// Devices whose radios follow the fixes of a recorded or live location source.
    private var radiosFollowingFixes: [ObservationToken] = []
    /// Problems found while setting up (a track that cannot be opened); the run fails with them.
    public private(set) var setupErrors: [String] = []
    /// The world, indexed for the radios (when the scenario names one).
    public let world: WorldIndex?
    /// The folder of the devices' databases (`<device id>.sqlite`); a temporary one is made only when
    /// a database is first opened.
    public let dataFolder: DataFolder
    /// The devices' database connections open at once: at most about a thousand, however many
    /// devices the scenario has (a device's database opens its file again when its app next uses
    /// it). An idle one costs about 32 KB, plus the pages it cached while the pool had room (once
    /// the pool is full, a connection's cached pages are freed after each use).
    public let connectionPool = SQLiteConnectionPool(capacity: 1_024)
    /// The devices' database files while the simulation runs: in memory, written into a kept
    /// ``dataFolder`` when the run ends (nil: SQLite refused the memory folder's VFS; the files are
    /// then on disk from the start).
    public let databaseFiles = try? SQLiteMemoryFolder()
    /// Why the devices' database files could not be written into the kept ``dataFolder`` when the
    /// run ended (nil: they were, or the folder is not kept).
    public private(set) var dataFolderError: DataFolderError?
    /// Devices whose prompts a person answers (live, from the keyboard): the timeline's scripted
    /// answers for them are skipped, so the person's answer is the one that counts.
    public var devicesAnsweredByUser: Set<String> = []
    /// The values the expectations' `capture:` took from the trace so far, for steps that use them.
    public let captured: CapturedValues
    /// The HTTP servers of `http-servers:`, which every device's `URLSession` requests reach.
    public let httpServers: SimulatedHTTPServers

    /// Sets up `scenario` (with `seed` overriding the scenario's seed, if given). A device named in
    /// `locationSources` takes that source (gpsd, a recording) instead of its simulated GPS; the closure
    /// gets the scenario's scheduler. The devices' databases go into `dataFolder` (kept), or into a
    /// temporary folder removed with the simulation.
    public init(
        _ scenario: Scenario,
        seed: UInt64? = nil,
        limits: RunLimits = RunLimits(),
        trace: TraceRecorder = TraceRecorder(),
        locationSources: [String: (EventScheduler) -> any LocationProvider] = [:],
        dataFolder: String? = nil
    ) {
        self.scenario = scenario
        self.seed = seed ?? scenario.seed
        // The runner links the runtime hooks (app targets never do): real-clock sleeps and stray main-actor
        // work are seen, and a main-actor run keeps its `Task {}`s in the simulation.
        DeviceSimRuntimeHooks.install()
        self.scheduler = EventScheduler(limits: limits)
        self.trace = trace
        captured = CapturedValues(scenario.expectations)
        httpServers = HTTPServerSpec.transport(scenario.httpServers, scheduler: scheduler)
        // The apps' `URLSession.shared` requests reach `httpServers` (DeviceSimNetwork's `SimulatedURLProtocol`,
        // installed when the process has `URLSession`); a process with `URLSession` but without it cannot run.
        if let error = SimulatedNetworkInstallation.processOutcome.setupError { setupErrors.append(error) }
        if !captured.isEmpty { trace.forward(to: captured) }
        let root = SeededRandomGenerator(seed: self.seed)
        random = root
        let world = scenario.world.map(WorldIndex.init)
        self.world = world
        let folder = dataFolder.map(DataFolder.init(keeping:)) ?? DataFolder.temporaryWhenFirstUsed(prefix: "devicesim-data-")
        self.dataFolder = folder
        let civilClock = CivilClock(startDate: scenario.startDate, timeZone: scenario.timeZone)
        for spec in scenario.devices {
            let motion = DeviceMotion(at: spec.start, altitude: spec.altitude)
            let device: Device
            var gps: SimulatedGPS?
            if let makeSource = locationSources[spec.id] {
                device = Device(id: spec.id, scheduler: scheduler, location: makeSource(scheduler), events: trace)
            } else if let track = spec.track, case .nmea(let url) = track.source {
                var configuration = NMEAPlaybackLocationProvider.Configuration()
                configuration.speedFactor = track.speedFactor
                configuration.startOffset = track.startOffset
                configuration.loop = track.loop
                configuration.interval = spec.gps.interval
                do {
                    let playback = try NMEAPlaybackLocationProvider(scheduler: scheduler, file: url, configuration: configuration)
                    playbacks.append(playback)
                    playbackByDevice[spec.id] = playback
                    device = Device(id: spec.id, scheduler: scheduler, location: playback, events: trace)
                } catch {
                    var error = error
                    error.file = ShownPath.of(error.file)
                    setupErrors.append("\(spec.id): \(error)")
                    device = Device(id: spec.id, scheduler: scheduler, location: SimulatedGPS(scheduler: scheduler, motion: motion, random: root), events: trace)
                }
            } else {
                let simulated = SimulatedGPS(scheduler: scheduler, motion: motion, configuration: spec.gps, random: root.split("device:\(spec.id)").split("gps"))
                device = Device(id: spec.id, scheduler: scheduler, location: simulated, events: trace)
                gps = simulated
            }
            let simulated = SimulatedDevice(device: device, motion: motion, gps: gps)
            device.civilClock = civilClock
            if gps == nil {
                // The radios see the device where its location source says it is: its last fix.
                radiosFollowingFixes.append(device.location.observe { update in
                    if case .fix(let fix) = update { motion.place(at: fix.coordinate, altitude: fix.altitude) }
                })
            }
            if let world {
                (simulated.wifi, simulated.beacons) = device.attachSimulatedRadios(
                    motion: motion, world: world, random: root.split("device:\(spec.id)"), wifi: spec.wifi, bluetooth: spec.bluetooth)
            }
            simulated.connectivity.state = spec.online ? .online : .offline
            device.http = httpServers
            device.geofences = SimulatedGeofenceMonitor(device: device, configuration: spec.geofences.configuration)
            deviceIndexByID[spec.id] = devices.count
            devices.append(simulated)
        }
    }

    /// The configuration of the server of the app named `app`, as the app read it from the scenario
    /// file (``ScenarioApp/parseServer(_:)``); nil when it keeps none.
    public func serverConfiguration(of app: String) -> (any Sendable)? {
        scenario.servers[app]
    }

    /// Makes `server` the server of the app named `app` that `server:` expectations read.
    public func registerInspectableServer(_ server: any InspectableServer, for app: String) {
        inspectableServers[app] = server
    }

    private var inspectableServers: [String: any InspectableServer] = [:]

    /// Reads what a `stored:` or `server:` expectation checks and records it as an event: the rows
    /// (or `error: ...`), and with a ``RowsCheck`` its `verdict` and the rows of `same-as`.
    private func read(_ probe: StoredProbe) {
        let own = RowsSource(source: probe.source, columns: probe.columns)
        let read = rows(of: own)
        var fields: [(key: String, value: TraceValue)] = [("probe", .string(String(probe.id)))]
        if case .database(_, let file, _) = probe.source { fields.append(("file", .string(file))) }
        fields.append(("rows", .string(Self.text(of: read))))
        if let check = probe.check {
            let other = check.sameAs.map(rows(of:))
            if let other { fields.append(("other-rows", .string(Self.text(of: other)))) }
            let verdict: String
            if case .failure(let error) = read {
                verdict = "error: \(error.text)"
            } else if let other, case .failure(let error) = other {
                verdict = "error reading \(check.sameAs!.text): \(error.text)"
            } else {
                verdict = check.verdict((try? read.get()) ?? [], other: try? other?.get())
            }
            fields.append(("verdict", .string(verdict)))
        }
        switch probe.source {
        case .database(let id, _, _): device(id)?.device.record("stored.rows", fields)
        case .server: trace.record(TraceEvent(time: scheduler.now, device: nil, name: "server.rows", fields: fields))
        }
    }

    /// Why rows could not be read.
    struct RowsReadError: Error {
        var text: String
    }

    /// The rows read as the trace records them, or `error: ...`.
    private static func text(of read: Result<[[StoredValue]], RowsReadError>) -> String {
        switch read {
        case .success(let rows): StoredProbe.text(of: rows)
        case .failure(let error): "error: \(error.text)"
        }
    }

    /// The rows of `source` now (only its kept columns), or why they cannot be read.
    private func rows(of source: RowsSource) -> Result<[[StoredValue]], RowsReadError> {
        switch source.source {
        case .database(let id, let file, let query):
            // A database the app has not opened (yet) is the probe's own error, on its device, so the
            // expectation fails with it.
            guard let database = device(id)?.databases.first(where: { $0.fileName == file }) else {
                return .failure(RowsReadError(text: "\(id) has no database \(file) (yet: its app opens it when it starts)"))
            }
            do {
                return .success(source.project(try database.open().readOnlyQuery(query)))
            } catch {
                return .failure(RowsReadError(text: "\(error)"))
            }
        case .server(let app, let table, let account):
            guard let server = inspectableServers[app] else { return .failure(RowsReadError(text: "no device runs \(app), so it has no server")) }
            guard let rows = server.rows(of: table, account: account) else {
                return .failure(RowsReadError(text: "the \(app) server has no table '\(table)' (it has \(server.inspectableTables.keys.sorted().joined(separator: ", ")))"))
            }
            return .success(source.project(rows))
        }
    }

    /// The one instance of `Service` that every app of this simulation shares (an app's own server),
    /// made by `make` the first time it is asked for.
    public func sharedService<Service: AnyObject>(_ make: () -> Service) -> Service {
        sharedServices.service(make)
    }

    private var sharedServices = SharedServices()
    private let random: SeededRandomGenerator

    /// The seeded random numbers of `component` of the device `device` (an app's server connection,
    /// say): split from the simulation's seed per device and per component, so adding one does not
    /// change what another draws.
    public func random(_ component: String, device: String) -> SeededRandomGenerator {
        random.split("device:\(device)").split(component)
    }

    /// A connection of `device` to an app's server with `latency`: requests cross the device's
    /// connectivity, and `drop-connection` steps catch them on the way (see ``ServerConnection``).
    public func serverConnection(of device: Device, app: String, latency: Duration, timeout: Duration = ServerConnection.defaultTimeout) -> ServerConnection {
        ServerConnection(
            device: device, latency: latency, timeout: timeout, random: random("\(app).connection", device: device.id),
            drops: self.device(device.id)?.connectionDrops ?? ConnectionDrops())
    }

    /// The database file `<device id>.<name>.sqlite` of `device` in the run's data folder, with
    /// `migrations` (made once, sharing the device's storage faults); nil when the device is not the
    /// simulation's.
    ///
    /// ```swift
    /// let store = simulation.database(on: device, named: "task-list", migrations: SQLiteTaskListStore.migrations).map(SQLiteTaskListStore.init(database:))
    /// ```
    public func database(on device: Device, named name: String, migrations: [[String]]) -> SQLiteDatabase? {
        database(on: device, file: "\(device.id).\(name).sqlite", migrations: migrations)
    }

    /// The database file `file` of `device` in the run's data folder, with `migrations` (made once,
    /// sharing the device's storage faults); nil when the device is not the simulation's.
    public func database(on device: Device, file: String, migrations: [[String]]) -> SQLiteDatabase? {
        guard let simulated = self.device(device.id) else { return nil }
        if let existing = simulated.databases.first(where: { $0.fileName == file }) { return existing }
        let database = SQLiteDatabase(
            folder: dataFolder, file: file, migrations: migrations, faults: simulated.storageFaults, pool: connectionPool, memory: databaseFiles,
            now: { [scheduler] in scheduler.now })
        if !dataFolder.isTemporary { database.removeFiles() }
        simulated.databases.append(database)
        return database
    }

    /// The device named `id`.
    public func device(_ id: String) -> SimulatedDevice? {
        deviceIndexByID[id].map { devices[$0] }
    }

    /// The scenario's description of the device named `id`.
    public func spec(ofDevice id: String) -> DeviceSpec? {
        deviceIndexByID[id].map { scenario.devices[$0] }
    }

    /// Runs the scenario for its duration in virtual time. A scenario whose app runs on the main actor
    /// (``runsOnMainActor``) is driven from the main actor (see ``runOnMainActor()``): called from another
    /// thread, this waits for that run (one such run at a time in the process); called on the main actor it
    /// throws, since the main actor would wait for itself (call ``runOnMainActor()`` there).
    ///
    /// The app's code must not sleep on a real clock, nor (unless the scenario runs on the main actor)
    /// queue main-actor work: either stops the run at once (``SchedulerError/stopped(reason:at:)``, with
    /// ``stoppedByAppCode`` set), naming the cause and the function and file:line that did it.
    public func run() throws(SchedulerError) {
        if runsOnMainActor {
            guard !MainQueue.isCurrent else {
                throw .stopped(reason: MainActorScenarioRuns.calledOnTheMainActor, at: scheduler.now)
            }
            let simulation = UncheckedScenarioSimulation(self)
            let failure = MainActorScenarioRuns.wait({ () async -> SchedulerError? in
                do throws(SchedulerError) { try await simulation.value.runOnMainActor() } catch { return error }
                return nil
            }, blocked: { block in stopForTheBlockedMainThread(block) })
            if let failure { throw failure }
            return
        }
        watchTheAppsCode(onTheMainActor: false, inVirtualTime: true)
        start()
        defer { keepDatabaseFiles() }
        try scheduler.run(until: VirtualInstant(offset: scenario.duration))
        finish()
    }

    /// Runs the scenario for its duration in virtual time from the main actor, as a `@MainActor` test
    /// advances its simulation: after every event, the main-actor work it made runnable (a view model's
    /// `Task {}`, a resumed `await`, a wake on the device's clock) runs before the next event, in the order
    /// it was queued (see ``DeviceSimTime/EventScheduler/runOnMainActor(until:)``), so the app's
    /// `@MainActor` code runs at its virtual instants, the same way on every run. The app is launched and
    /// handed its actions on the main actor.
    ///
    /// ```swift
    /// @MainActor @Test func theCheckInRuns() async throws {
    ///     let simulation = ScenarioSimulation(try ScenarioParser.parse(contentsOf: "checkin.yaml"))
    ///     try await simulation.runOnMainActor()
    /// }
    /// ```
    @MainActor
    public func runOnMainActor() async throws(SchedulerError) {
        watchTheAppsCode(onTheMainActor: true, inVirtualTime: true)
        let executor = scheduler.executor
        let end = VirtualInstant(offset: scenario.duration)
        let failure: SchedulerError? = await RealClockSleeps.$simulationOfTask.withValue(SimulationOfTask { executor }) { () async -> SchedulerError? in
            do throws(SchedulerError) {
                // Launched in the first event, so the apps start inside the advance, as their actions do.
                scheduler.schedule(at: .zero) { [unowned self] in start() }
                try await scheduler.runOnMainActor(until: end)
            } catch {
                return error
            }
            return nil
        }
        defer { keepDatabaseFiles() }
        if let failure { throw failure }
        finish()
    }

    /// Runs the scenario on the wall clock: for `duration` (nil: the scenario's duration; use
    /// ``StopSignal`` to stop early, e.g. on Ctrl-C). A scenario whose app runs on the main actor
    /// (``runsOnMainActor``) is driven from the main actor, as ``run()`` does; its app may then sleep on
    /// real clocks, which pass here.
    public func runLive(driver: WallClockDriver = WallClockDriver(), stop: StopSignal, for duration: Duration? = nil) throws {
        if runsOnMainActor {
            guard !MainQueue.isCurrent else { throw SchedulerError.stopped(reason: MainActorScenarioRuns.calledOnTheMainActor, at: scheduler.now) }
            let simulation = UncheckedScenarioSimulation(self)
            let failure = MainActorScenarioRuns.wait({ @MainActor () async -> (any Error)? in
                simulation.value.watchTheAppsCode(onTheMainActor: true, inVirtualTime: false)
                simulation.value.scheduler.schedule(at: simulation.value.scheduler.now) { simulation.value.start() }
                defer { simulation.value.keepDatabaseFiles() }
                do { try await driver.runOnMainActor(simulation.value.scheduler, for: duration ?? simulation.value.scenario.duration, stop: stop) } catch { return error }
                simulation.value.finish()
                return nil
            }, blocked: { block in stopForTheBlockedMainThread(block) })
            if let failure { throw failure }
            return
        }
        start()
        defer { keepDatabaseFiles() }
        try driver.run(scheduler, for: duration ?? scenario.duration, stop: stop)
        finish()
    }

    /// Whether a device of the scenario runs an app whose code runs on the main actor
    /// (``ScenarioApp/runsOnMainActor``): ``run()`` then drives the scenario from the main actor.
    public var runsOnMainActor: Bool {
        scenario.devices.contains { spec in spec.app.flatMap { ScenarioAppRegistry.app(named: $0.name)?.runsOnMainActor } ?? false }
    }

    /// Why the app's code stopped the run (a sleep on a real clock, main-actor work queued by a
    /// scenario that does not run on the main actor), when it did: the cause, the function and its
    /// file:line, and what to change.
    public var stoppedByAppCode: String? { appCodeProblem.reason.withLock { $0 } }
    let appCodeProblem = AppCodeProblem()
    /// The step or launch in progress, for the main-thread watchdog's message.
    let mainActorActivity = MainActorActivity()

    /// Stops the run at the first sleep on a real clock of the app's code (in virtual time), and, when the
    /// run is not driven from the main actor, at the first main-actor work it queues.
    fileprivate func watchTheAppsCode(onTheMainActor: Bool, inVirtualTime: Bool) {
        let executor = scheduler.executor
        let problem = appCodeProblem
        let apps = appsAndWhereTheyAreStarted
        let stop: @Sendable (String) -> Void = { [scheduler = WeakScheduler(scheduler)] reason in
            let first = problem.reason.withLock { found in
                defer { if found == nil { found = reason } }
                return found == nil
            }
            if first { scheduler.value?.stop(because: reason) }
        }
        if inVirtualTime {
            executor.reportsRealClockSleeps = true
            executor.onRealClockSleep = { sleep in stop(sleep.description(apps: apps)) }
        }
        if onTheMainActor {
            mainActorActivity.isWatched.store(true, ordering: .relaxed)
            // A `Task {}` or `Task.detached {}` the app starts stays in the simulation, as in tests.
            executor.capturesGlobalWork = true
        } else {
            executor.reportsStrandedMainActorWork = true
            executor.onStrandedMainActorWork = { work in
                stop("\(work). If the app's code runs on the main actor (a @MainActor view model), declare "
                    + "`static let runsOnMainActor = true` in its ScenarioApp adapter (\(apps)): the "
                    + "runner then drives the scenario from the main actor, as a @MainActor test does")
            }
        }
    }

    private var started = false
    /// The runner's subscriptions to the devices' radios (fences, Wi-Fi scans), for the trace.
    private var radioSubscriptions: [ObservationToken] = []

    /// Launches devices and apps and schedules the timeline (once).
    fileprivate func start() {
        guard !started else { return }
        started = true
        trace.record(TraceEvent(time: scheduler.now, device: nil, name: "scenario.started", fields: [
            ("name", .string(scenario.name)), ("seed", .string(String(seed))), ("devices", .int(devices.count)),
        ]))
        for (spec, simulated) in zip(scenario.devices, devices) {
            if spec.gpsEnabled { simulated.gps?.start() }
            if spec.wifiEnabled { simulated.wifi?.isEnabled = true }
            if spec.bluetoothEnabled { simulated.beacons?.isEnabled = true }
            let radioTrace = RadioTraceRecorder(device: simulated.device)
            if let wifi = simulated.wifi { radioSubscriptions.append(wifi.observeScans { radioTrace.scanned($0) }) }
            if let beacons = simulated.beacons { beacons.rangingTracer = { radioTrace.ranged($0) } }
            if let fences = simulated.device.recordBeaconFenceCrossings() { radioSubscriptions.append(fences) }
            if let track = spec.track, case .gpx(_, let gpxRoute) = track.source {
                followTrack(gpxRoute, track: track, device: simulated, from: .zero)
            }
            if let route = spec.route {
                scheduler.schedule(at: VirtualInstant(offset: spec.routeStart)) { [unowned self] in
                    simulated.motion.follow(route, from: scheduler.now)
                    simulated.device.record("route.started", [("length", .double(route.length)), ("waypoints", .int(route.waypoints.count))])
                }
            }
            for region in spec.geofences.regions { try? simulated.device.geofences?.startMonitoring(region) }   // checked by the parser
            launchApp(on: simulated, spec: spec)
        }
        for playback in playbacks { playback.start() }
        // `position: location` reads the device's own fix at its instant, whatever the device runs.
        for case .position(let expected) in scenario.expectations where expected.probe == "location" {
            guard let id = expected.device else { continue }
            scheduler.schedule(at: VirtualInstant(offset: expected.at)) { [unowned self] in
                guard let device = device(id)?.device else { return }
                guard let fix = device.location.currentFix else { return device.record("location.read", [("available", .bool(false))]) }
                var fields: [(key: String, value: TraceValue)] = [("lat", .double(fix.coordinate.latitude)), ("lon", .double(fix.coordinate.longitude))]
                if let accuracy = fix.horizontalAccuracy { fields.append(("accuracy", .double(accuracy))) }
                device.record("location.read", fields)
            }
        }
        for probe in scenario.probes {
            scheduler.schedule(at: VirtualInstant(offset: probe.at)) { [unowned self] in read(probe) }
        }
        for step in scenario.timeline {
            scheduler.schedule(at: VirtualInstant(offset: step.at)) { [unowned self] in perform(step) }
        }
    }

    fileprivate func finish() {
        trace.record(TraceEvent(time: scheduler.now, device: nil, name: "scenario.finished", fields: [("events", .int(scheduler.eventCount))]))
        for simulated in devices { for database in simulated.databases { database.close() } }
    }

    /// Writes the devices' database files into the data folder, when it is kept, as the run left them
    /// (ended or stopped): what the files on a phone's disk would hold at that moment.
    fileprivate func keepDatabaseFiles() {
        guard !dataFolder.isTemporary, let databaseFiles else { return }
        do throws(DataFolderError) { try databaseFiles.write(into: dataFolder) } catch { dataFolderError = error }
    }

    private func launchApp(on simulated: SimulatedDevice, spec: DeviceSpec) {
        guard let app = spec.app, let definition = ScenarioAppRegistry.app(named: app.name) else { return }
        let context = ScenarioAppContext(device: simulated.device, simulation: self, isRelaunch: simulated.appLaunches > 0)
        simulated.appLaunches += 1
        // Apple-shaped APIs the app creates (`CLLocationManager()`, ...) belong to this device.
        simulated.app = mainActorActivity.running("the launch of '\(app.name)' on \(spec.id) at \(spec.location)") {
            DeviceContext.withDevice(simulated.device) { definition.launch(context, app.settings) }
        }
    }

    /// Stops the device's app (killed or restarting) and closes its database as the process ending would.
    private func stopApp(on simulated: SimulatedDevice, _ event: String, _ fields: [(key: String, value: TraceValue)] = []) {
        guard let app = simulated.app else { return }
        simulated.app = nil
        // A kill armed for the next write (`kill-app`, `during: next-write`) belonged to this run of
        // the app: it ends here, and never fires in a later one.
        for database in simulated.databases {
            database.onKilled = nil
            database.cancelKillDuringNextWrite()
        }
        app.stop()
        for database in simulated.databases { database.close() }
        simulated.device.record(event, fields)
    }

    /// Follows a GPX route at `track`'s rate and offset; loops by starting again where it ends.
    private func followTrack(_ route: Route, track: TrackSpec, device simulated: SimulatedDevice, from instant: VirtualInstant) {
        simulated.motion.follow(track.playing(route), from: track.routeStart(forPassAt: instant))
        guard track.loop, let end = simulated.motion.routeEnd, end > scheduler.now else { return }
        scheduler.schedule(at: end) { [unowned self] in
            var unscaledTrack = track
            unscaledTrack.startOffset = .zero
            followTrack(route, track: unscaledTrack, device: simulated, from: scheduler.now)
        }
    }

    private func perform(_ step: TimelineStep) {
        guard let id = step.device, let simulated = device(id) else { return }
        mainActorActivity.running("the step '\(step.action.name)' on \(id) at \(step.location)") { perform(step, on: simulated, id: id) }
    }

    private func perform(_ step: TimelineStep, on simulated: SimulatedDevice, id: String) {
        if let template = step.template {
            // Read again with the values captured so far; the step as written is what the trace shows when it cannot run.
            let written: [(key: String, value: TraceValue)] = [("do", .string(step.action.name))] + step.keys.map { ($0.key, .string($0.value)) }
            if let reason = captured.missing(template.variables, at: scheduler.now) { return skip(simulated, written, reason) }
            do {
                guard let concrete = try ScenarioParser.parseStep(template, values: captured.values, in: scenario) else { return }
                return perform(concrete)
            } catch {
                return skip(simulated, written, "with the captured values: \(error.message)")
            }
        }
        var fields: [(key: String, value: TraceValue)] = [("do", .string(step.action.name))]
        let playback = playbackByDevice[id]
        if simulated.gps == nil, playback == nil, step.action.isGPSAction {
            return skip(simulated, fields, "the device's location comes from a live source, which a scenario cannot switch")
        }
        let gps = simulated.gps
        switch step.action {
        case .gpsOn:
            gps?.start(warm: false)
            playback?.switchReceiver(on: true)
        case .gpsOff:
            gps?.stop()
            playback?.switchReceiver(on: false)
        case .signalLoss(let duration):
            if let duration {
                fields.append(("for", .double(duration.inSeconds)))
                gps?.loseSignal(from: scheduler.now, for: duration)
                if let playback {
                    playback.hideSky(true)
                    scheduler.schedule(after: duration) { playback.hideSky(false) }
                }
            } else {
                gps?.loseSignal()
                playback?.hideSky(true)
            }
        case .signalRestore:
            gps?.restoreSignal()
            playback?.hideSky(false)
        case .move(let partial):
            let here = simulated.motion.state(at: scheduler.now).coordinate
            let route = partial.from(here)
            simulated.motion.follow(route, from: scheduler.now)
            fields.append(("length", .double(route.length)))
        case .followRoute(let spec):
            guard let roads = scenario.world?.roads else { return skip(simulated, fields, "the scenario's world has no roads") }
            let (route, routeFields) = spec.plan(on: roads, from: simulated.motion.state(at: scheduler.now).coordinate, places: scenario.world?.places ?? [:])
            if let route { simulated.motion.follow(route, from: scheduler.now) }
            fields += routeFields
        case .teleport(let coordinate):
            simulated.motion.place(at: coordinate)
            fields += [("lat", .double(coordinate.latitude)), ("lon", .double(coordinate.longitude))]
        case .wifi(let on):
            guard let wifi = simulated.wifi else { return skip(simulated, fields, "the scenario has no world, so the device has no Wi-Fi") }
            wifi.isEnabled = on
        case .bluetooth(let on):
            guard let beacons = simulated.beacons else { return skip(simulated, fields, "the scenario has no world, so the device has no Bluetooth") }
            beacons.isEnabled = on
        case .connectivity(let online):
            simulated.connectivity.state = online ? .online : .offline
        case .network(let interface):
            simulated.connectivity.interface = interface
        case .locationServices(let on):
            simulated.device.locationPrivacy.servicesEnabled = on
        case .dropConnection(let lose, interfaceUp: true):
            // Lost in the network, the interface up: the requests on their way time out.
            if let lose { fields.append(("lose", .string(lose.rawValue))) }
            fields.append(("interface", .string("up")))
            simulated.connectionDrops.lostInTheNetwork(lose)
        case .dropConnection(let lose, interfaceUp: false):
            // Down and up again at this instant: whatever the device had on its way is caught (and
            // loses the part `lose:` says, every request alike).
            let connectivity = simulated.connectivity
            let drop = {
                let state = connectivity.state
                connectivity.state = .offline
                connectivity.state = state
            }
            if let lose {
                fields.append(("lose", .string(lose.rawValue)))
                simulated.connectionDrops.during(lose, drop: drop)
            } else {
                drop()
            }
        case .answer(let prompt, let choice, let after, let onlyIfShowing):
            fields += [
                ("prompt", .string(prompt)), ("choice", .string(choice)), ("after", .double(after.inSeconds)),
                ("when", .string(onlyIfShowing ? "showing" : "next")),
            ]
            if devicesAnsweredByUser.contains(id) { return skip(simulated, fields, "prompts are answered from the keyboard") }
            record(step, on: simulated, fields)
            simulated.notifications.answer(prompt: prompt, with: choice, after: after, onlyIfShowing: onlyIfShowing)
            return
        case .app(_, let parsed):
            guard let app = simulated.app else { return skip(simulated, fields, "the app is not running (it was killed); restart it with restart-app") }
            record(step, on: simulated, fields)
            DeviceContext.withDevice(simulated.device) { app.perform(parsed) }
            return
        case .storageFault(let kind, let duration, let count):
            fields.append(("kind", .string(kind.rawValue)))
            if let duration { fields.append(("for", .double(duration.inSeconds))) }
            if let count { fields.append(("count", .int(count))) }
            guard !simulated.databases.isEmpty else { return skip(simulated, fields, "the device has no database") }
            if kind == .corruptAtStart {
                for database in simulated.databases { database.damageFile() }
            } else {
                simulated.storageFaults.inject(kind, until: duration.map { scheduler.now.advanced(by: $0) }, count: count)
            }
        case .killApp(let duringNextWrite):
            fields.append(("during", .string(duringNextWrite ? "next-write" : "now")))
            guard simulated.app != nil else { return skip(simulated, fields, "the app is not running") }
            record(step, on: simulated, fields)
            if duringNextWrite, !simulated.databases.isEmpty {
                // The app dies in its next write to any of its databases.
                let databases = simulated.databases
                for database in databases {
                    database.onKilled = { [unowned self, unowned simulated] in
                        for other in databases {
                            other.onKilled = nil
                            other.cancelKillDuringNextWrite()
                        }
                        stopApp(on: simulated, "app.killed", [("during", .string("write"))])
                    }
                    database.killDuringNextWrite()
                }
            } else {
                stopApp(on: simulated, "app.killed", [("during", .string("idle"))])
            }
            return
        case .restartApp:
            record(step, on: simulated, fields)
            stopApp(on: simulated, "app.stopped")
            if let spec = spec(ofDevice: simulated.device.id) { launchApp(on: simulated, spec: spec) }
            return
        }
        record(step, on: simulated, fields)
    }

    /// The step's trace event: what the action recorded, then the step's other keys as written.
    private func record(_ step: TimelineStep, on simulated: SimulatedDevice, _ fields: [(key: String, value: TraceValue)]) {
        let extra = step.keys.filter { pair in !fields.contains { $0.key == pair.key } }.map { (key: $0.key, value: TraceValue.string($0.value)) }
        simulated.device.record("step", fields + extra)
    }

    private func skip(_ simulated: SimulatedDevice, _ fields: [(key: String, value: TraceValue)], _ reason: String) {
        simulated.device.record("step.skipped", fields + [("reason", .string(reason))])
    }
}

extension StepAction {
    /// Whether the step acts on a simulated GPS receiver.
    var isGPSAction: Bool {
        switch self {
        case .gpsOn, .gpsOff, .signalLoss, .signalRestore: true
        case .move, .teleport, .followRoute, .wifi, .bluetooth, .connectivity, .network, .locationServices, .dropConnection, .answer, .app,
            .storageFault, .killApp, .restartApp: false
        }
    }
}

extension RealClockSleep {
    /// What a scenario run says when the code of its `apps` sleeps on a real clock.
    func description(apps: String) -> String {
        var text = "the app's code (\(apps)) slept on a real clock (Task.sleep, ContinuousClock, SuspendingClock or DispatchQueue.asyncAfter)"
        switch place {
        case .mainActor: text += " on the main actor"
        case .simulationThread, .testTask: break
        }
        if let caller { text += ", in \(caller)" }
        if let location { text += " at \(location)" }
        if let origin { text += ", in the task spawned at \(origin)" }
        return text + ": it waits for wall-clock time, which does not pass in virtual time, so the code after it would "
            + "never run. Sleep on the clock the app is given (`context.device.clock`, as `any Clock<Duration>`)"
    }
}

/// The first thing the app's code did that stopped the run.
final class AppCodeProblem: Sendable {
    let reason = Mutex<String?>(nil)
}

/// A scenario simulation handed to the main actor by a thread that waits for it (it is used by one at a time).
struct UncheckedScenarioSimulation: @unchecked Sendable {
    let value: ScenarioSimulation
    init(_ value: ScenarioSimulation) { self.value = value }
}

/// A scheduler stopped from the thread on which the app's code misbehaved (the simulation's own), held
/// weakly by the handlers its own executor keeps.
final class WeakScheduler: @unchecked Sendable {
    weak var value: EventScheduler?
    init(_ value: EventScheduler) { self.value = value }
}
