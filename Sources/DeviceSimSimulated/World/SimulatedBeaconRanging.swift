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
public final class SimulatedBeaconRanging: BeaconRanging, TickPrefetching {
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

    /// A beacon in reach of the last position ranged from: its slot in the tracked beacons, its mean
    /// RSSI there.
    private struct BeaconInReach {
        let slot: Int
        let meanRSSI: Double
    }

    private let scheduler: EventScheduler
    private let motion: DeviceMotion
    private let world: WorldIndex
    private let fenceEvents = ObserverList<BeaconFenceEvent>()
    private let powerEvents = ObserverList<Bool>()
    /// A beacon this device has had in reach: its index in the world, its fence, and the random
    /// stream of its samples (kept for the run, so what the device sees of a beacon does not depend
    /// on when it first came into reach). All in one array, so a cycle touches one buffer.
    private struct TrackedBeacon {
        let index: Int
        let fence: Int?
        /// Its shadowing stream, made when it first comes into reach (nil before, and without shadowing).
        var stream: SeededRandomGenerator?
        /// The number of the latest cycle that heard it.
        var heardInCycle = 0
    }

    /// The beacons this device has had in reach, by slot. (The driver's state is touched by its own
    /// cycle only, one thread at a time: no dynamic exclusivity checks on it.)
    @exclusivity(unchecked) private var tracked: [TrackedBeacon] = []
    /// How many of `tracked`'s first entries a cycle's prefetch loads: none while no beacon is in
    /// reach (a cycle then reads none), else up to four (an entry spans two cache lines).
    @exclusivity(unchecked) private var trackedToPrefetch = 0
    /// The beacons in reach of `inReachPosition`, in the world index's order. A device standing
    /// still ranges from the same position cycle after cycle and skips the lookup.
    @exclusivity(unchecked) private var inReach: [BeaconInReach] = []
    @exclusivity(unchecked) private var inReachPosition: GeoCoordinate?
    @exclusivity(unchecked) private var candidates: BeaconCandidates?
    /// The beacons the latest lookup found (kept for its capacity).
    @exclusivity(unchecked) private var nearby: [(index: Int, distance: Double)] = []
    /// How many beacons the latest cycle heard (each marked in `tracked` with the cycle's number).
    @exclusivity(unchecked) private var heardCount = 0
    /// The fences the device is in (indices into ``WorldIndex/fenceNames``, ascending) and when a
    /// beacon of each was last heard.
    @exclusivity(unchecked) private var fencesInside: [(fence: Int, lastSeen: VirtualInstant)] = []
    /// The latest report, once built (it is built when someone observes reports or reads it).
    @exclusivity(unchecked) private var builtReport: (cycle: Int, sightings: [BeaconSighting])?
    /// The samples of the beacons in reach over the smoothing window.
    @exclusivity(unchecked) private var samples = BeaconSampleLog()
    /// When the latest cycle ran.
    @exclusivity(unchecked) private var lastCycleInstant = VirtualInstant.zero
    /// How samples are drawn, heard and smoothed (from the world's radio environment and the configuration).
    private let sampleModel: BeaconSampleModel
    /// Ranging cycles run.
    @exclusivity(unchecked) public private(set) var cycleCount = 0
    /// How many observe reports (kept here: checked every cycle).
    @exclusivity(unchecked) private var reportObservers = 0

    // Read rarely (not every cycle), so after what a cycle reads.
    /// The driver's settings.
    public let configuration: Configuration
    private let shadowingRoot: SeededRandomGenerator
    private let reports = ObserverList<[BeaconSighting]>()
    private var timer: RepeatingEvent?
    /// The slot of each tracked beacon by its world index, once more than a few are tracked (a
    /// device usually tracks a handful: those are found by a scan of `tracked`).
    private var slotOfBeacon: [Int: Int] = [:]

    deinit {
        timer?.cancel()
    }

    /// Creates the ranging driver, Bluetooth off.
    public init(scheduler: EventScheduler, motion: DeviceMotion, world: WorldIndex, configuration: Configuration = Configuration(), random: SeededRandomGenerator) {
        self.scheduler = scheduler
        self.motion = motion
        self.world = world
        self.configuration = configuration
        self.shadowingRoot = random
        let environment = world.world.radio
        sampleModel = BeaconSampleModel(
            sigma: environment.beaconFading, sensitivity: environment.beaconSensitivity, samplesPerCycle: configuration.samplesPerCycle,
            period: configuration.cyclePeriod.wholeNanoseconds, window: configuration.smoothingWindow.wholeNanoseconds, trim: 0.1)
    }

    /// Whether Bluetooth is on. Ranging cycles run while it is; switching it off leaves every fence.
    public var isEnabled = false {
        didSet {
            guard isEnabled != oldValue else { return }
            timer?.cancel()
            timer = nil
            if isEnabled {
                // Unretained: the driver cancels the timer when it goes (deinit).
                timer = scheduler.repeating(every: configuration.cyclePeriod, calling: self) { driver, _ in driver.cycle() }
            } else {
                samples.clear()
                heardCount = 0
                builtReport = nil
                let left = fencesInside
                fencesInside = []
                for (fence, _) in left { fenceEvents.send(BeaconFenceEvent(fence: world.fenceNames[fence], entered: false)) }
            }
            powerEvents.send(isEnabled)
        }
    }

    /// The fences the device is in now.
    public var fences: [String] { fencesInside.map { world.fenceNames[$0.fence] } }

    /// The latest ranging report: the beacons heard in the latest cycle, nearest first (empty while
    /// Bluetooth is off).
    public var lastReport: [BeaconSighting] {
        guard isEnabled, heardCount > 0 else { return [] }
        if let builtReport, builtReport.cycle == cycleCount { return builtReport.sightings }
        let sightings = buildReport()
        builtReport = (cycleCount, sightings)
        return sightings
    }

    /// Hears each cycle's report while some observer ranges (``observeRanging(_:)``), before they do:
    /// the scenario runner traces ranging through it without making a device that no app ranges on
    /// build reports.
    public var rangingTracer: (([BeaconSighting]) -> Void)?

    public func observeRanging(_ observer: @escaping ([BeaconSighting]) -> Void) -> ObservationToken {
        let subscription = reports.add(observer)
        reportObservers += 1
        return ObservationToken { [weak self] in
            subscription.cancel()
            self?.reportObservers -= 1
        }
    }

    public func observeFences(_ observer: @escaping (BeaconFenceEvent) -> Void) -> ObservationToken {
        fenceEvents.add(observer)
    }

    /// Observes Bluetooth being switched on (true) and off (false).
    public func observePower(_ observer: @escaping (Bool) -> Void) -> ObservationToken {
        powerEvents.add(observer)
    }

    /// The slot of the beacon at `index` in `tracked`, added on first sight.
    private func slot(ofBeacon index: Int) -> Int {
        if tracked.count <= Self.trackedScanLimit {
            for slot in tracked.indices where tracked[slot].index == index { return slot }
        } else if let slot = slotOfBeacon[index] {
            return slot
        }
        tracked.append(TrackedBeacon(index: index, fence: world.beaconFences[index]))
        if tracked.count > Self.trackedScanLimit {
            if slotOfBeacon.isEmpty { for (slot, beacon) in tracked.enumerated() { slotOfBeacon[beacon.index] = slot } }
            slotOfBeacon[index] = tracked.count - 1
        }
        return tracked.count - 1
    }

    /// The most beacons in reach of one device at once: more (a wall of beacons at one spot, each
    /// sampled every cycle) stops the run with a message (``EventScheduler/stop(because:)``).
    public static let maximumBeaconsInReach = 1_000

    /// Up to this many tracked beacons, a beacon's slot is found by a scan.
    private static let trackedScanLimit = 16

    /// What a cycle reads beyond the driver itself: the motion, the beacons in reach and tracked,
    /// the fences and the sample log; then the motion's route.
    public func prefetchTickState(level: Int) {
        guard level == 0 else { return motion.prefetchRoute() }
        motion.prefetch()
        Prefetch.elements(of: inReach)
        Prefetch.elements(of: &tracked, first: trackedToPrefetch)
        Prefetch.elements(of: fencesInside)
        samples.prefetch()
    }

    private func updateBeaconsInReach(of position: GeoCoordinate) {
        guard position != inReachPosition else { return }
        inReachPosition = position
        // Into a list, not through a closure: one capturing the driver would retain it, an atomic
        // write to a side table (the driver is held weakly by its subscriptions) every cycle of a
        // moving device.
        nearby.removeAll(keepingCapacity: true)
        world.beacons(near: position, candidates: &candidates, into: &nearby)
        if nearby.count > Self.maximumBeaconsInReach {
            scheduler.stop(because: "\(nearby.count) beacons of the world '\(world.world.name)' are in reach of one device at \(position): a phone ranges at most \(Self.maximumBeaconsInReach) beacons at once; spread the world's beacons out")
            nearby.removeLast(nearby.count - Self.maximumBeaconsInReach)
        }
        let environment = world.world.radio
        let beacons = world.world.beacons
        inReach.removeAll(keepingCapacity: true)
        for (index, distance) in nearby {
            inReach.append(BeaconInReach(
                slot: slot(ofBeacon: index),
                meanRSSI: RadioModel.beaconRSSI(measuredPower: beacons[index].measuredPower, distance: distance, environment: environment)))
        }
        trackedToPrefetch = inReach.isEmpty ? 0 : min(tracked.count, 4)
    }

    private func cycle() {
        cycleCount += 1
        let now = scheduler.now
        updateBeaconsInReach(of: motion.state(at: now).coordinate)
        let model = sampleModel
        // The state is mutated in place (no exclusivity checks on it: see its declarations).
        heardCount = 0
        var entered: [(fence: Int, slot: Int)] = []
        if !inReach.isEmpty { tracked.withUnsafeMutableBufferPointer { slots in
            for beacon in inReach {
                if model.sigma > 0, slots[beacon.slot].stream == nil {
                    // One stream per beacon, split from the device's generator by the beacon's identity.
                    slots[beacon.slot].stream = shadowingRoot.split(world.world.beacons[slots[beacon.slot].index].id.description)
                }
                guard samples.sampleCycle(slot: beacon.slot, stream: &slots[beacon.slot].stream, meanRSSI: beacon.meanRSSI, at: now.nanoseconds, model: model) else { continue }
                slots[beacon.slot].heardInCycle = cycleCount
                heardCount += 1
                if let fence = slots[beacon.slot].fence {
                    if let position = fencesInside.firstIndex(where: { $0.fence == fence }) {
                        fencesInside[position].lastSeen = now
                    } else {
                        fencesInside.insert((fence, now), at: fencesInside.firstIndex { $0.fence > fence } ?? fencesInside.count)
                        entered.append((fence, beacon.slot))
                    }
                }
            }
        } } else {
            samples.releaseIfPast(now.nanoseconds, model: model)
        }
        builtReport = nil
        lastCycleInstant = now
        for (fence, slot) in entered {
            // The RSSI that let the device in: this cycle's heard samples (the window's, smoothed).
            let rssi = samples.smoothedRSSI(slot: slot, at: now.nanoseconds, model: model).map { ($0 * 10).rounded() / 10 }
            fenceEvents.send(BeaconFenceEvent(
                fence: world.fenceNames[fence], entered: true, beacon: world.world.beacons[tracked[slot].index].id, rssi: rssi))
        }
        var position = 0
        while position < fencesInside.count {
            let (fence, lastSeen) = fencesInside[position]
            if lastSeen.duration(to: now) >= configuration.fenceExitDelay {
                fencesInside.remove(at: position)
                fenceEvents.send(BeaconFenceEvent(fence: world.fenceNames[fence], entered: false))
            } else {
                position += 1
            }
        }
        if reportObservers > 0 {
            let report = lastReport
            rangingTracer?(report)
            reports.send(report)
        }
    }

    /// The report of the latest cycle: each beacon heard, with its smoothed RSSI and the distance and
    /// proximity estimated from it, nearest first (ties: the world's order).
    private func buildReport() -> [BeaconSighting] {
        let environment = world.world.radio
        var report: [(index: Int, sighting: BeaconSighting)] = []
        for slot in tracked.indices where tracked[slot].heardInCycle == cycleCount {
            let index = tracked[slot].index
            guard let smoothed = samples.smoothedRSSI(slot: slot, at: lastCycleInstant.nanoseconds, model: sampleModel) else { continue }
            let beacon = world.world.beacons[index]
            let estimate = RadioModel.estimatedDistance(rssi: smoothed, measuredPower: beacon.measuredPower, exponent: environment.beaconExponent)
            report.append((index, BeaconSighting(
                beacon: beacon.id, rssi: (smoothed * 10).rounded() / 10, estimatedDistance: (estimate * 100).rounded() / 100,
                proximity: RadioModel.proximity(distance: estimate))))
        }
        report.sort { ($0.sighting.estimatedDistance, $0.index) < ($1.sighting.estimatedDistance, $1.index) }
        return report.map(\.sighting)
    }
}
