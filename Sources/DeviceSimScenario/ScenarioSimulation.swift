import DeviceSimFlows
import DeviceSimHAL
import DeviceSimSimulated
import DeviceSimTime

/// One scenario, set up and ready to run: its scheduler, its devices with their simulated hardware and
/// apps, its timeline scheduled, and the trace it writes.
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
        /// Where it physically is.
        public let motion: DeviceMotion
        /// Its GPS receiver.
        public let gps: SimulatedGPS
        /// Its app, if it runs one.
        var app: LaunchedApp?

        init(device: Device, motion: DeviceMotion, gps: SimulatedGPS) {
            self.device = device
            self.motion = motion
            self.gps = gps
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
    /// Services shared by every device (a world, a backend), by name; apps put and find them here.
    public var sharedServices: [String: AnyObject] = [:]

    /// Sets up `scenario` (with `seed` overriding the scenario's seed, if given).
    public init(_ scenario: Scenario, seed: UInt64? = nil, limits: RunLimits = RunLimits(), trace: TraceRecorder = TraceRecorder()) {
        self.scenario = scenario
        self.seed = seed ?? scenario.seed
        self.scheduler = EventScheduler(limits: limits)
        self.trace = trace
        let root = SeededRandomGenerator(seed: self.seed)
        for spec in scenario.devices {
            let motion = DeviceMotion(at: spec.start, altitude: spec.altitude)
            let gps = SimulatedGPS(scheduler: scheduler, motion: motion, configuration: spec.gps, random: root.split("device:\(spec.id)").split("gps"))
            let device = Device(id: spec.id, scheduler: scheduler, location: gps, events: trace)
            devices.append(SimulatedDevice(device: device, motion: motion, gps: gps))
        }
    }

    /// The device named `id`.
    public func device(_ id: String) -> SimulatedDevice? {
        devices.first { $0.device.id == id }
    }

    /// Runs the scenario for its duration.
    public func run() throws(SchedulerError) {
        trace.record(TraceEvent(time: scheduler.now, device: nil, name: "scenario.started", fields: [
            ("name", .string(scenario.name)), ("seed", .string(String(seed))), ("devices", .int(devices.count)),
        ]))
        for (spec, simulated) in zip(scenario.devices, devices) {
            if spec.gpsEnabled { simulated.gps.start() }
            if let route = spec.route {
                scheduler.schedule(at: VirtualInstant(offset: spec.routeStart)) { [unowned self] in
                    simulated.motion.follow(route, from: scheduler.now)
                    simulated.device.record("route.started", [("length", .double(route.length)), ("waypoints", .int(route.waypoints.count))])
                }
            }
            if let app = spec.app, let definition = ScenarioAppRegistry.app(named: app.name) {
                simulated.app = definition.launch(ScenarioAppContext(device: simulated.device, simulation: self), app.settings)
            }
        }
        for step in scenario.timeline {
            scheduler.schedule(at: VirtualInstant(offset: step.at)) { [unowned self] in perform(step) }
        }
        try scheduler.run(until: VirtualInstant(offset: scenario.duration))
        trace.record(TraceEvent(time: scheduler.now, device: nil, name: "scenario.finished", fields: [("events", .int(scheduler.eventCount))]))
    }

    private func perform(_ step: TimelineStep) {
        guard let id = step.device, let simulated = device(id) else { return }
        var fields: [(key: String, value: TraceValue)] = [("do", .string(step.action.name))]
        switch step.action {
        case .gpsOn:
            simulated.gps.start(warm: false)
        case .gpsOff:
            simulated.gps.stop()
        case .signalLoss(let duration):
            if let duration {
                fields.append(("for", .double(duration.inSeconds)))
                simulated.gps.loseSignal(from: scheduler.now, for: duration)
            } else {
                simulated.gps.loseSignal()
            }
        case .signalRestore:
            simulated.gps.restoreSignal()
        case .move(let partial):
            let here = simulated.motion.state(at: scheduler.now).coordinate
            let route = partial.from(here)
            simulated.motion.follow(route, from: scheduler.now)
            fields.append(("length", .double(route.length)))
        case .teleport(let coordinate):
            simulated.motion.place(at: coordinate)
            fields += [("lat", .double(coordinate.latitude)), ("lon", .double(coordinate.longitude))]
        case .app(_, let parsed):
            simulated.device.record("step", fields)
            simulated.app?.perform(parsed)
            return
        }
        simulated.device.record("step", fields)
    }
}
