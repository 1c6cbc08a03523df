import DeviceSimHAL
import DeviceSimTime

/// A phone's Bluetooth LE scanning in a simulated world: while someone scans and Bluetooth is on,
/// every beacon within ``RadioEnvironment/beaconRange(measuredPower:)`` sends its frames in turn, one
/// every advertising interval (plus Bluetooth's random advertising delay of 0 to 10 ms), and each
/// packet is heard when its RSSI (the radio model's mean at the distance, plus a fade drawn from the
/// beacon's own stream, clipped at twice ``RadioEnvironment/beaconFading``) reaches the sensitivity.
/// Bluetooth power is the beacon ranging driver's (one radio).
///
/// ```swift
/// let scanner = SimulatedBluetoothScanner(scheduler: scheduler, motion: motion, world: index, ranging: ranging, random: random.split("ble-scan"))
/// let token = scanner.scan { advertisement in ... }
/// ```
public final class SimulatedBluetoothScanner: BluetoothScanning {
    private let scheduler: EventScheduler
    private let motion: DeviceMotion
    private let world: WorldIndex
    private let ranging: SimulatedBeaconRanging
    private let random: SeededRandomGenerator
    private let observers = ObserverList<BluetoothAdvertisement>()
    /// The beacons sending now, by world index: their next frame and random stream.
    private var sending: [Int: Advertiser] = [:]
    private var reachTimer: RepeatingEvent?
    private var powerToken: ObservationToken?

    private struct Advertiser {
        var frames: [BluetoothAdvertisement]
        var nextFrame = 0
        var stream: SeededRandomGenerator
        var event: ScheduledEvent?
    }

    /// How often the beacons in reach are looked up again while scanning.
    public static let reachRefresh: Duration = .seconds(1)

    /// Creates the scanner over `ranging`'s Bluetooth power.
    public init(scheduler: EventScheduler, motion: DeviceMotion, world: WorldIndex, ranging: SimulatedBeaconRanging, random: SeededRandomGenerator) {
        self.scheduler = scheduler
        self.motion = motion
        self.world = world
        self.ranging = ranging
        self.random = random
        powerToken = ranging.observePower { [weak self] _ in self?.update() }
    }

    deinit {
        stop()
    }

    public var isPoweredOn: Bool { ranging.isEnabled }

    public func observePower(_ observer: @escaping (Bool) -> Void) -> ObservationToken {
        ranging.observePower(observer)
    }

    public func scan(_ observer: @escaping (BluetoothAdvertisement) -> Void) -> ObservationToken {
        let subscription = observers.add(observer)
        update()
        return ObservationToken(onCancel: { [weak self] in
            subscription.cancel()
            self?.update()
        })
    }

    /// Starts or stops sending as scanners and power require.
    private func update() {
        let active = isPoweredOn && !observers.isEmpty
        if active, reachTimer == nil {
            refreshReach()
            reachTimer = scheduler.repeating(every: Self.reachRefresh) { [weak self] _ in self?.refreshReach() }
        } else if !active {
            stop()
        }
    }

    private func stop() {
        reachTimer?.cancel()
        reachTimer = nil
        for advertiser in sending.values { advertiser.event?.cancel() }
        sending = [:]
    }

    /// Starts the beacons that came into reach (each at a random phase of its interval).
    private func refreshReach() {
        let position = motion.state(at: scheduler.now).coordinate
        world.beacons(near: position) { index, beacon, _ in
            guard sending[index] == nil else { return }
            var stream = random.split(beacon.id.description)
            let phase = Duration.nanoseconds(Int64(stream.nextUnit() * Double(beacon.advertisingInterval.wholeNanoseconds)))
            sending[index] = Advertiser(frames: BeaconFrames.advertisements(of: beacon), stream: stream)
            schedule(index, after: phase)
        }
    }

    private func schedule(_ index: Int, after delay: Duration) {
        sending[index]?.event = scheduler.schedule(after: delay) { [weak self] in self?.advertise(index) }
    }

    /// One advertisement of the beacon at `index`: heard or not, then the next one scheduled (or the
    /// beacon dropped when it left reach; the next refresh takes it up again).
    private func advertise(_ index: Int) {
        guard var advertiser = sending[index] else { return }
        let beacon = world.world.beacons[index]
        let environment = world.world.radio
        let distance = motion.state(at: scheduler.now).coordinate.distance(to: beacon.position)
        guard distance <= environment.beaconRange(measuredPower: beacon.measuredPower) else {
            sending[index] = nil
            return
        }
        let mean = RadioModel.beaconRSSI(measuredPower: beacon.measuredPower, distance: distance, environment: environment)
        let bound = environment.beaconFadingBound
        let fade = environment.beaconFading > 0
            ? min(max(advertiser.stream.nextGaussian(mean: 0, standardDeviation: environment.beaconFading), -bound), bound) : 0
        var frame = advertiser.frames[advertiser.nextFrame]
        advertiser.nextFrame = (advertiser.nextFrame + 1) % advertiser.frames.count
        // Bluetooth adds 0 to 10 ms of random delay to each advertising event.
        let delay = beacon.advertisingInterval + .nanoseconds(Int64(advertiser.stream.nextUnit() * 10_000_000))
        sending[index] = advertiser
        schedule(index, after: delay)
        let rssi = mean + fade
        guard rssi >= environment.beaconSensitivity else { return }
        frame.rssi = Int(rssi.rounded())
        observers.send(frame)
    }
}
