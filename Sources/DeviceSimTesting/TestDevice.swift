import DeviceSim

/// A device of a ``TestSimulation``, with handles to move it, script its GPS and radios, switch its
/// connectivity and answer its prompts. Every such action runs on the simulation's thread at a virtual
/// instant (now, or the `at:` given), so the app's tasks it wakes stay in virtual time.
///
/// ```swift
/// let walker = simulation.addDevice("walker", at: start)
/// walker.walk(to: [park, home], speed: SpeedPreset.run.metresPerSecond)
/// walker.loseSignal(for: .minutes(2))   // a tunnel
/// ```
public final class TestDevice {
    /// The HAL device, for the flows under test.
    public let device: Device
    /// Where it physically is.
    public let motion: DeviceMotion
    /// Its simulated receiver.
    public let gps: SimulatedGPS
    /// Its Wi-Fi radio (when the simulation has a world; on at the start).
    public internal(set) var wifi: SimulatedWiFi?
    /// Its Bluetooth beacon ranging (when the simulation has a world; on at the start).
    public internal(set) var beacons: SimulatedBeaconRanging?
    /// Its notifications and prompts.
    public let notifications: SimulatedNotifications
    /// Its connectivity (online at the start).
    public let connectivity: SimulatedConnectivity
    /// Its geofence monitoring (also `device.geofences`), fed by its GPS.
    public let geofences: SimulatedGeofenceMonitor

    /// Its network, as the app's services see it: requests fail while the device is offline (see
    /// ``FakeNetwork``).
    public let network: FakeNetwork
    /// How actions reach the simulation (on its thread, at a virtual instant).
    let actions: SimulationActions

    init(device: Device, motion: DeviceMotion, gps: SimulatedGPS, geofences: SimulatedGeofenceMonitor.Configuration, actions: SimulationActions) {
        self.device = device
        self.motion = motion
        self.gps = gps
        self.actions = actions
        (notifications, connectivity) = device.attachSimulatedNotificationsAndConnectivity()
        self.network = FakeNetwork(device: device, connectivity: connectivity)
        self.geofences = SimulatedGeofenceMonitor(device: device, configuration: geofences)
        device.geofences = self.geofences
    }

    /// A `Clock` on the simulation's time, for the app's `any Clock<Duration>`.
    public var clock: VirtualClock { device.clock }

    /// Switches Wi-Fi on or off (needs a world), now, on the simulation's thread: tasks waiting on the
    /// Wi-Fi's scans run in virtual time.
    public func setWiFi(on: Bool, fileID: String = #fileID, line: Int = #line) {
        actions.perform("setWiFi(on:)", fileID: fileID, line: line) { [wifi] in wifi?.isEnabled = on }
    }

    /// Switches Wi-Fi on or off at `instant` (throws if the simulation is past it).
    public func setWiFi(on: Bool, at instant: VirtualInstant, fileID: String = #fileID, line: Int = #line) throws {
        try actions.perform("setWiFi(on:at:)", at: instant, fileID: fileID, line: line) { [wifi] in wifi?.isEnabled = on }
    }

    /// Switches Bluetooth on or off (needs a world), now, on the simulation's thread: tasks waiting on
    /// ranging reports or beacon fences (switching off leaves every fence) run in virtual time.
    public func setBluetooth(on: Bool, fileID: String = #fileID, line: Int = #line) {
        actions.perform("setBluetooth(on:)", fileID: fileID, line: line) { [beacons] in beacons?.isEnabled = on }
    }

    /// Switches Bluetooth on or off at `instant` (throws if the simulation is past it).
    public func setBluetooth(on: Bool, at instant: VirtualInstant, fileID: String = #fileID, line: Int = #line) throws {
        try actions.perform("setBluetooth(on:at:)", at: instant, fileID: fileID, line: line) { [beacons] in beacons?.isEnabled = on }
    }

    /// Puts the device online or offline, now, on the simulation's thread: tasks waiting on
    /// connectivity changes run in virtual time, and requests in flight on ``network`` fail when it
    /// goes offline.
    public func setOnline(_ online: Bool, fileID: String = #fileID, line: Int = #line) {
        actions.perform("setOnline(_:)", fileID: fileID, line: line) { [connectivity] in connectivity.state = online ? .online : .offline }
    }

    /// Puts the device online or offline at `instant` (throws if the simulation is past it).
    ///
    /// ```swift
    /// try phone.setOnline(false, at: VirtualInstant(offset: .seconds(60)))   // a tunnel at one minute
    /// try phone.setOnline(true, at: VirtualInstant(offset: .seconds(90)))
    /// ```
    public func setOnline(_ online: Bool, at instant: VirtualInstant, fileID: String = #fileID, line: Int = #line) throws {
        try actions.perform("setOnline(_:at:)", at: instant, fileID: fileID, line: line) { [connectivity] in connectivity.state = online ? .online : .offline }
    }

    /// Puts the device on `interface` (Wi-Fi or cellular), or offline when nil, now, on the simulation's
    /// thread: `NWPathMonitor`s and connectivity observers see the change in virtual time.
    ///
    /// ```swift
    /// phone.setNetwork(.cellular)   // left the café's Wi-Fi, still online
    /// ```
    public func setNetwork(_ interface: NetworkInterfaceKind?, fileID: String = #fileID, line: Int = #line) {
        actions.perform("setNetwork(_:)", fileID: fileID, line: line) { [connectivity] in connectivity.interface = interface }
    }

    /// Puts the device on `interface`, or offline when nil, at `instant` (throws if the simulation is past it).
    public func setNetwork(_ interface: NetworkInterfaceKind?, at instant: VirtualInstant, fileID: String = #fileID, line: Int = #line) throws {
        try actions.perform("setNetwork(_:at:)", at: instant, fileID: fileID, line: line) { [connectivity] in connectivity.interface = interface }
    }

    /// The user answers prompt `prompt` with `choice`: the one showing now, or the next one that shows,
    /// after `delay`. Runs on the simulation's thread, so the task waiting for the answer goes on in
    /// virtual time.
    public func answer(prompt: String, with choice: String, after delay: Duration = .zero, fileID: String = #fileID, line: Int = #line) {
        actions.perform("answer(prompt:with:)", fileID: fileID, line: line) { [notifications] in
            notifications.answer(prompt: prompt, with: choice, after: delay)
        }
    }

    /// The user answers prompt `prompt` with `choice` at `instant`: the prompt showing then, or the
    /// next one that shows (throws if the simulation is past `instant`).
    public func answer(prompt: String, with choice: String, at instant: VirtualInstant, fileID: String = #fileID, line: Int = #line) throws {
        try actions.perform("answer(prompt:with:at:)", at: instant, fileID: fileID, line: line) { [notifications] in
            notifications.answer(prompt: prompt, with: choice)
        }
    }

    /// Where the device is now.
    public var position: GeoCoordinate { motion.state(at: device.now).coordinate }

    /// Starts walking through `waypoints` from where the device is, at `speed` m/s.
    public func walk(to waypoints: [GeoCoordinate], speed: Double = SpeedPreset.walk.metresPerSecond, fileID: String = #fileID, line: Int = #line) {
        actions.perform("walk(to:)", fileID: fileID, line: line) { [self] in
            motion.follow(Route(start: position, waypoints: waypoints.map { Route.Waypoint($0) }, speed: speed), from: device.now)
        }
    }

    /// Puts the device at `coordinate` at once.
    public func place(at coordinate: GeoCoordinate, fileID: String = #fileID, line: Int = #line) {
        actions.perform("place(at:)", fileID: fileID, line: line) { [motion] in motion.place(at: coordinate) }
    }

    /// Switches the GPS on (cold: the first fix after the reacquisition delay) or off.
    public func setGPS(on: Bool, fileID: String = #fileID, line: Int = #line) {
        actions.perform("setGPS(on:)", fileID: fileID, line: line) { [gps] in
            if on { gps.start(warm: false) } else { gps.stop() }
        }
    }

    /// Hides the sky for `duration` from now.
    public func loseSignal(for duration: Duration, fileID: String = #fileID, line: Int = #line) {
        actions.perform("loseSignal(for:)", fileID: fileID, line: line) { [gps, device] in gps.loseSignal(from: device.now, for: duration) }
    }

    /// Switches Location Services on or off for the whole phone (Settings > Privacy > Location
    /// Services), now, on the simulation's thread: CoreLocation reports the app's authorization as
    /// denied while they are off.
    ///
    /// ```swift
    /// phone.setLocationServices(enabled: false)
    /// ```
    public func setLocationServices(enabled: Bool, fileID: String = #fileID, line: Int = #line) {
        actions.perform("setLocationServices(enabled:)", fileID: fileID, line: line) { [device] in device.locationPrivacy.servicesEnabled = enabled }
    }

    /// Sets what the user granted the app, as if they had answered the authorization prompt earlier
    /// (`.whenInUse`, `.always`, `.denied`), or restricts location (parental controls).
    ///
    /// ```swift
    /// phone.setLocationAuthorization(.always)        // no prompt in this test
    /// ```
    public func setLocationAuthorization(_ authorization: LocationPrivacy.AppAuthorization, restricted: Bool = false, fileID: String = #fileID, line: Int = #line) {
        actions.perform("setLocationAuthorization(_:)", fileID: fileID, line: line) { [device] in
            device.locationPrivacy.appAuthorization = authorization
            device.locationPrivacy.restricted = restricted
        }
    }
}
