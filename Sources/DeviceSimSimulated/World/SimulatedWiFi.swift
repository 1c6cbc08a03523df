import DeviceSimHAL
import DeviceSimTime

/// A phone's Wi-Fi radio in a simulated world: periodic scans through the radio model with shadowing
/// correlated over distance and time (``CorrelatedShadowing``), and Android's scan throttling (a
/// throttled scan delivers the previous results again, marked as not updated).
///
/// ```swift
/// let wifi = SimulatedWiFi(scheduler: scheduler, motion: motion, world: index, random: random.split("wifi"))
/// wifi.isEnabled = true
/// let scans = wifi.observeScans { scan in ... }
/// ```
public final class SimulatedWiFi: WiFiRadio, TickPrefetching {
    /// Scan timing and throttling.
    public struct Configuration: Sendable, Hashable {
        /// How often the device scans while the radio is on.
        public var scanInterval: Duration = .seconds(30)
        /// At most this many scans ...
        public var throttleCount = 4
        /// ... per this window (Android foreground: 4 per 2 minutes). Nil: no throttling.
        public var throttleWindow: Duration? = .seconds(120)

        /// The defaults.
        public init() {}
    }

    private let scheduler: EventScheduler
    private let motion: DeviceMotion
    private let world: WorldIndex
    /// The driver's settings.
    public let configuration: Configuration
    // The state below is touched by the simulation's thread only, one access at a time: no dynamic
    // exclusivity checks on it (they were a measurable share of every tick).
    @exclusivity(unchecked) private var shadowing: CorrelatedShadowing
    private let observers = ObserverList<WiFiScan>()
    private var timer: RepeatingEvent?
    @exclusivity(unchecked) private var recentScans: [VirtualInstant] = []
    /// The latest scan results (empty while off).
    @exclusivity(unchecked) public private(set) var lastScan: [WiFiScanResult] = []
    /// When the latest results were measured (nil while off).
    @exclusivity(unchecked) public private(set) var lastScanTime: VirtualInstant?
    /// Scans performed through the radio model.
    @exclusivity(unchecked) public private(set) var scanCount = 0
    /// Scans that were throttled and delivered old results.
    @exclusivity(unchecked) public private(set) var throttledCount = 0

    deinit {
        timer?.cancel()
    }

    /// Creates the radio, off.
    public init(scheduler: EventScheduler, motion: DeviceMotion, world: WorldIndex, configuration: Configuration = Configuration(), random: SeededRandomGenerator) {
        self.scheduler = scheduler
        self.motion = motion
        self.world = world
        self.configuration = configuration
        self.shadowing = CorrelatedShadowing(random)
    }

    /// Whether the radio is on. Switching it on scans at once and then every ``Configuration/scanInterval``.
    public var isEnabled = false {
        didSet {
            guard isEnabled != oldValue else { return }
            timer?.cancel()
            timer = nil
            if isEnabled {
                // Unretained: the radio cancels the timer when it goes (deinit).
                timer = scheduler.repeating(every: configuration.scanInterval, startingAt: scheduler.now, calling: self) { radio, _ in
                    radio.requestScan()
                }
            } else {
                lastScan = []
                lastScanTime = nil
                recentScans = []
                observers.send(WiFiScan(results: [], measuredAt: nil, resultsUpdated: false))
            }
        }
    }

    /// Observes every delivered scan.
    public func observeScans(_ observer: @escaping (WiFiScan) -> Void) -> ObservationToken {
        observers.add(observer)
    }

    @discardableResult
    public func requestScan() -> Bool {
        guard isEnabled else { return false }
        let now = scheduler.now
        if let window = configuration.throttleWindow {
            recentScans.removeAll { $0.duration(to: now) >= window }
            if recentScans.count >= configuration.throttleCount {
                throttledCount += 1
                observers.send(WiFiScan(results: lastScan, measuredAt: lastScanTime, resultsUpdated: false))
                return false
            }
            recentScans.append(now)
        }
        lastScan = scan(at: motion.state(at: now).coordinate, time: now)
        lastScanTime = now
        scanCount += 1
        observers.send(WiFiScan(results: lastScan, measuredAt: now))
        return true
    }

    /// What a scan reads beyond the radio itself: the motion and the recent scans' instants, then
    /// the motion's route.
    public func prefetchTickState(level: Int) {
        guard level == 0 else { return motion.prefetchRoute() }
        motion.prefetch()
        Prefetch.elements(of: recentScans)
    }

    /// One scan at `position`: every access point in reach, its RSSI with shadowing (clipped at
    /// ``RadioEnvironment/wifiShadowingBound``), strongest first.
    private func scan(at position: GeoCoordinate, time: VirtualInstant) -> [WiFiScanResult] {
        updateAccessPointsInReach(of: position)
        var results: [WiFiScanResult] = []
        results.reserveCapacity(accessPointsInReach.count)
        let environment = world.world.radio
        let bound = environment.wifiShadowingBound
        world.accessPointsInOrder.withUnsafeBufferPointer { accessPoints in
            for inReach in accessPointsInReach {
                let fade = shadowing.next(for: inReach.index, identity: accessPoints[inReach.index].bssid, at: position, time: time, environment: environment)
                let rssi = inReach.meanRSSI + min(max(fade, -bound), bound)
                if rssi >= environment.wifiSensitivity {
                    results.append(WiFiScanResult(
                        ssid: accessPoints[inReach.index].ssid, bssid: accessPoints[inReach.index].bssid, rssi: (rssi * 10).rounded() / 10,
                        channel: accessPoints[inReach.index].channel))
                }
            }
        }
        results.sort { ($0.rssi, $1.bssid) > ($1.rssi, $0.bssid) }
        return results
    }

    /// An access point in reach of the last position scanned from: its index in
    /// ``World/accessPoints`` and its mean RSSI there.
    private struct AccessPointInReach {
        let index: Int
        let meanRSSI: Double
    }

    /// The access points in reach of `accessPointsInReachPosition`, in the world index's order: a
    /// device standing still scans from the same position scan after scan and skips the lookup.
    @exclusivity(unchecked) private var accessPointsInReach: [AccessPointInReach] = []
    @exclusivity(unchecked) private var accessPointsInReachPosition: GeoCoordinate?

    private func updateAccessPointsInReach(of position: GeoCoordinate) {
        guard position != accessPointsInReachPosition else { return }
        accessPointsInReachPosition = position
        let environment = world.world.radio
        // Filled as a local (the list's storage taken from the radio and given back), not through a
        // closure that captures the radio (it would retain it).
        var inReach = accessPointsInReach
        accessPointsInReach = []
        inReach.removeAll(keepingCapacity: true)
        world.accessPoints(near: position) { index, accessPoint, distance in
            inReach.append(AccessPointInReach(
                index: index, meanRSSI: RadioModel.wifiRSSI(transmitPower: accessPoint.transmitPower, distance: distance, environment: environment)))
        }
        accessPointsInReach = inReach
    }
}
