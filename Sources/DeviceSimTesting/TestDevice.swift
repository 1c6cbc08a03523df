import DeviceSim

/// A device of a ``TestSimulation``, with handles to move it and to script its GPS.
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

    init(device: Device, motion: DeviceMotion, gps: SimulatedGPS, geofences: SimulatedGeofenceMonitor.Configuration) {
        self.device = device
        self.motion = motion
        self.gps = gps
        (notifications, connectivity) = device.attachSimulatedNotificationsAndConnectivity()
        self.geofences = SimulatedGeofenceMonitor(device: device, configuration: geofences)
        device.geofences = self.geofences
    }

    /// Switches Wi-Fi on or off (needs a world).
    public func setWiFi(on: Bool) {
        wifi?.isEnabled = on
    }

    /// Switches Bluetooth on or off (needs a world).
    public func setBluetooth(on: Bool) {
        beacons?.isEnabled = on
    }

    /// Puts the device online or offline.
    public func setOnline(_ online: Bool) {
        connectivity.state = online ? .online : .offline
    }

    /// The user answers prompt `prompt` with `choice`: the one showing now, or the next one that shows,
    /// after `delay`.
    public func answer(prompt: String, with choice: String, after delay: Duration = .zero) {
        notifications.answer(prompt: prompt, with: choice, after: delay)
    }

    /// Where the device is now.
    public var position: GeoCoordinate { motion.state(at: device.now).coordinate }

    /// Starts walking through `waypoints` from where the device is, at `speed` m/s.
    public func walk(to waypoints: [GeoCoordinate], speed: Double = SpeedPreset.walk.metresPerSecond) {
        motion.follow(Route(start: position, waypoints: waypoints.map { Route.Waypoint($0) }, speed: speed), from: device.now)
    }

    /// Puts the device at `coordinate` at once.
    public func place(at coordinate: GeoCoordinate) {
        motion.place(at: coordinate)
    }

    /// Switches the GPS on (cold: the first fix after the reacquisition delay) or off.
    public func setGPS(on: Bool) {
        if on { gps.start(warm: false) } else { gps.stop() }
    }

    /// Hides the sky for `duration` from now.
    public func loseSignal(for duration: Duration) {
        gps.loseSignal(from: device.now, for: duration)
    }
}
