import DeviceSimCore

/// The app: times the commute. Leaving the home region starts the timer; entering the office region
/// asks "Arrived at the office?"; "yes" stops the timer and records the commute's length, "no" keeps
/// it running (the next office enter asks again), no answer within the timeout leaves it unconfirmed.
///
/// It reads only the HAL (`device.geofences`, `device.notifications`, `device.now`), so it runs the
/// same on a simulated device, in scenario files, and on a real one.
public final class CommuteTimer {
    /// Where home and the office are.
    public struct Settings: Sendable {
        public var home: GeoCoordinate
        public var office: GeoCoordinate
        /// The radius of both regions, metres (Android recommends at least 100 m).
        public var radius: Double
        /// How long the "arrived?" question stays up.
        public var questionTimeout: Duration

        public init(home: GeoCoordinate, office: GeoCoordinate, radius: Double = 150, questionTimeout: Duration = .seconds(120)) {
            self.home = home
            self.office = office
            self.radius = radius
            self.questionTimeout = questionTimeout
        }
    }

    /// Why the app cannot start.
    public enum StartError: Error, Equatable {
        /// The device has no geofence monitoring.
        case noGeofencing
        /// The platform refused a region.
        case geofence(GeofenceError)
    }

    public let device: Device
    public let settings: Settings
    /// When the running commute began (nil when none is running).
    public private(set) var startedAt: VirtualInstant?
    /// The lengths of the finished commutes, oldest first.
    public private(set) var commutes: [Duration] = []
    private var subscription: ObservationToken?

    public init(device: Device, settings: Settings) {
        self.device = device
        self.settings = settings
    }

    /// Registers the two regions and starts listening.
    public func start() throws(StartError) {
        guard let geofences = device.geofences else { throw .noGeofencing }
        do {
            try geofences.startMonitoring(GeofenceRegion(id: "home", center: settings.home, radius: settings.radius, transitions: [.exit]))
            try geofences.startMonitoring(GeofenceRegion(id: "office", center: settings.office, radius: settings.radius, transitions: [.enter]))
        } catch {
            throw .geofence(error)
        }
        subscription = geofences.observe { [weak self] event in self?.handle(event) }
        device.record("commute.armed")
    }

    /// Stops listening; a running commute is dropped.
    public func stop() {
        subscription?.cancel()
        subscription = nil
        device.geofences?.stopMonitoring("home")
        device.geofences?.stopMonitoring("office")
        startedAt = nil
        device.record("commute.disarmed")
    }

    private func handle(_ event: GeofenceEvent) {
        switch (event.region, event.transition) {
        case ("home", .exit):
            startedAt = device.now
            device.record("commute.started")
        case ("office", .enter):
            guard startedAt != nil else { return }
            askArrived()
        default:
            break
        }
    }

    private func askArrived() {
        let prompt = UserPrompt(id: "arrived", message: "Arrived at the office?", choices: ["yes", "no"])
        guard let notifications = device.notifications else { return finish() }
        notifications.ask(prompt, timeout: settings.questionTimeout) { [weak self] answer in
            guard let self else { return }
            switch answer {
            case "yes": finish()
            case "no": device.record("commute.continued")
            default: device.record("commute.unconfirmed")
            }
        }
    }

    private func finish() {
        guard let startedAt else { return }
        let length = startedAt.duration(to: device.now)
        commutes.append(length)
        self.startedAt = nil
        device.record("commute.finished", [("minutes", .double(Double(length.components.seconds) / 60))])
    }
}
