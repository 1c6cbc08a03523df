import DeviceSimHAL
import DeviceSimTime

/// A phone's Bluetooth beacon ranging and fence monitoring in a simulated world, with AltBeacon's
/// defaults: one ranging report a second, RSSI smoothed over 20 s (10% trimmed), distance from the
/// measured power, proximity classes, and a fence left after 10 s without a sighting.
///
/// ```swift
/// let ranging = SimulatedBeaconRanging(scheduler: scheduler, motion: motion, world: index, random: random.split("ble"))
/// ranging.isEnabled = true
/// let reports = ranging.observeRanging { sightings in ... }
/// ```
public final class SimulatedBeaconRanging: BeaconRanging {
    /// Ranging timing.
    public struct Configuration: Sendable, Hashable {
        /// One ranging cycle (and report) per period.
        public var cyclePeriod: Duration = .seconds(1)
        /// Advertisements received from each beacon in reach per cycle (before sensitivity).
        public var samplesPerCycle = 5
        /// How long RSSI samples are averaged.
        public var smoothingWindow: Duration = .seconds(20)
        /// A fence is left after this long without a sighting of any of its beacons.
        public var fenceExitDelay: Duration = .seconds(10)

        /// The defaults.
        public init() {}
    }

    private let scheduler: EventScheduler
    private let motion: DeviceMotion
    private let world: WorldIndex
    /// The driver's settings.
    public let configuration: Configuration
    private var shadowing: ShadowingStreams
    private let reports = ObserverList<[BeaconSighting]>()
    private let fenceEvents = ObserverList<BeaconFenceEvent>()
    private var timer: RepeatingEvent?
    /// Each beacon heard within the smoothing window, by index: its RSSI samples.
    private var filters: [Int: RunningAverageRSSIFilter] = [:]
    private var fencesInside: [String: VirtualInstant] = [:]
    /// The latest ranging report.
    public private(set) var lastReport: [BeaconSighting] = []
    /// Ranging cycles run.
    public private(set) var cycleCount = 0

    /// Creates the ranging driver, Bluetooth off.
    public init(scheduler: EventScheduler, motion: DeviceMotion, world: WorldIndex, configuration: Configuration = Configuration(), random: SeededRandomGenerator) {
        self.scheduler = scheduler
        self.motion = motion
        self.world = world
        self.configuration = configuration
        self.shadowing = ShadowingStreams(random)
    }

    /// Whether Bluetooth is on. Ranging cycles run while it is; switching it off leaves every fence.
    public var isEnabled = false {
        didSet {
            guard isEnabled != oldValue else { return }
            timer?.cancel()
            timer = nil
            if isEnabled {
                timer = scheduler.repeating(every: configuration.cyclePeriod) { [weak self] _ in self?.cycle() }
            } else {
                filters = [:]
                lastReport = []
                for fence in fencesInside.keys.sorted() { fenceEvents.send(BeaconFenceEvent(fence: fence, entered: false)) }
                fencesInside = [:]
            }
        }
    }

    /// The fences the device is in now.
    public var fences: [String] { fencesInside.keys.sorted() }

    public func observeRanging(_ observer: @escaping ([BeaconSighting]) -> Void) -> Subscription {
        reports.add(observer)
    }

    public func observeFences(_ observer: @escaping (BeaconFenceEvent) -> Void) -> Subscription {
        fenceEvents.add(observer)
    }

    private func cycle() {
        cycleCount += 1
        let now = scheduler.now
        let position = motion.state(at: now).coordinate
        let environment = world.world.radio
        var report: [(index: Int, sighting: BeaconSighting)] = []
        var entered: [String] = []
        world.beacons(near: position) { index, beacon, distance in
            let mean = RadioModel.beaconRSSI(measuredPower: beacon.measuredPower, distance: distance, environment: environment)
            var heard = false
            // The beacon's filter is taken out of the table for the cycle's samples and put back once.
            var filter = filters.removeValue(forKey: index)
            shadowing.forEachSample(for: index, identity: beacon.id.description, sigma: environment.shadowing, count: configuration.samplesPerCycle) { noise in
                let rssi = mean + noise
                guard rssi >= environment.beaconSensitivity else { return }
                heard = true
                if filter == nil { filter = RunningAverageRSSIFilter(window: configuration.smoothingWindow) }
                filter!.add(rssi, at: now)
            }
            if let filter { filters[index] = filter }
            guard heard, let smoothed = filter?.average else { return }
            let estimate = RadioModel.estimatedDistance(rssi: smoothed, measuredPower: beacon.measuredPower, exponent: environment.beaconExponent)
            report.append((index, BeaconSighting(
                beacon: beacon.id, rssi: (smoothed * 10).rounded() / 10, estimatedDistance: (estimate * 100).rounded() / 100,
                proximity: RadioModel.proximity(distance: estimate))))
            if let fence = beacon.fence {
                if fencesInside.updateValue(now, forKey: fence) == nil { entered.append(fence) }
            }
        }
        // Forget beacons not heard for a whole window (stored filters always hold a sample).
        func isStale(_ filter: RunningAverageRSSIFilter) -> Bool { filter.newestSampleTime!.duration(to: now) >= configuration.smoothingWindow }
        if filters.values.contains(where: isStale) { filters = filters.filter { !isStale($0.value) } }
        report.sort { ($0.sighting.estimatedDistance, $0.index) < ($1.sighting.estimatedDistance, $1.index) }
        lastReport = report.map(\.sighting)
        for fence in entered { fenceEvents.send(BeaconFenceEvent(fence: fence, entered: true)) }
        for (fence, lastSeen) in fencesInside.sorted(by: { $0.key < $1.key }) where lastSeen.duration(to: now) >= configuration.fenceExitDelay {
            fencesInside[fence] = nil
            fenceEvents.send(BeaconFenceEvent(fence: fence, entered: false))
        }
        reports.send(lastReport)
    }
}
