import DeviceSimHAL
import DeviceSimTime
import Foundation

/// A simulated GPS receiver: fixes of a device's ``DeviceMotion`` at a fixed rate, with seeded noise,
/// switching on and off, and scripted signal loss (a tunnel) followed by reacquisition.
///
/// Noise is an isotropic Gaussian whose 68 % radius equals the reported horizontal accuracy (as phones
/// define `horizontalAccuracy`), so a fix's error agrees with what it claims.
///
/// ```swift
/// let gps = SimulatedGPS(scheduler: scheduler, motion: motion, random: root.split("device:walker").split("gps"))
/// gps.start()
/// gps.loseSignal(from: scheduler.now.advanced(by: .seconds(300)), for: .seconds(120))
/// ```
public final class SimulatedGPS: LocationProvider {
    /// How the simulated receiver behaves.
    public struct Configuration: Sendable, Hashable {
        /// Time between fixes (1 Hz by default, like receivers).
        public var interval: Duration = .seconds(1)
        /// Reported horizontal accuracy (68 % radius), metres.
        public var horizontalAccuracy: Double = 5
        /// Reported vertical accuracy, metres.
        public var verticalAccuracy: Double = 8
        /// Whether positions carry seeded noise consistent with the accuracy.
        public var noise: Bool = true
        /// Delay from switching on (or from the end of a signal loss) to the first fix.
        public var reacquisitionDelay: Duration = .seconds(2)
        /// Satellites reported as used.
        public var satellitesUsed: Int = 9
        /// UTC time of virtual instant zero, for fixes' timestamps.
        public var startDate: Date = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z

        /// The defaults.
        public init() {}
    }

    /// The receiver's settings.
    public let configuration: Configuration
    @exclusivity(unchecked) public private(set) var currentFix: LocationFix?
    /// Whether the receiver is switched on.
    public private(set) var isEnabled = false
    /// Whether the sky is hidden right now (a tunnel).
    public private(set) var isSignalLost = false

    private let scheduler: EventScheduler
    private let motion: DeviceMotion
    @exclusivity(unchecked) private var random: SeededRandomGenerator
    private let observers = ObserverList<LocationUpdate>()
    private var ticker: RepeatingEvent?
    private var firstFixAt = VirtualInstant.zero
    @exclusivity(unchecked) private var reportedUnavailable = false

    /// Creates a receiver (switched off: call ``start()``).
    public init(scheduler: EventScheduler, motion: DeviceMotion, configuration: Configuration = Configuration(), random: SeededRandomGenerator) {
        self.scheduler = scheduler
        self.motion = motion
        self.configuration = configuration
        self.random = random
    }

    public func observe(_ observer: @escaping (LocationUpdate) -> Void) -> Subscription {
        observers.add(observer)
    }

    /// Switches the receiver on, then delivers one fix per interval. A warm receiver (the default) has
    /// a fix at once, delivered before `start` returns; a cold one gets its first fix after the
    /// reacquisition delay.
    public func start(warm: Bool = true) {
        guard !isEnabled else { return }
        isEnabled = true
        firstFixAt = warm ? scheduler.now : scheduler.now.advanced(by: configuration.reacquisitionDelay)
        ticker = scheduler.repeating(every: configuration.interval, startingAt: scheduler.now.advanced(by: configuration.interval)) { [unowned self] _ in
            tick()
        }
        if warm { tick() }
    }

    /// Switches the receiver off: location becomes unavailable.
    public func stop() {
        guard isEnabled else { return }
        isEnabled = false
        ticker?.cancel()
        ticker = nil
        markUnavailable(reason: "gps off")
    }

    /// Hides the sky from now on (until ``restoreSignal()``).
    public func loseSignal() {
        guard !isSignalLost else { return }
        isSignalLost = true
        markUnavailable(reason: "signal lost")
    }

    /// Gives the sky back; fixes resume after the reacquisition delay.
    public func restoreSignal() {
        guard isSignalLost else { return }
        isSignalLost = false
        firstFixAt = scheduler.now.advanced(by: configuration.reacquisitionDelay)
    }

    /// Schedules a signal loss from `start` lasting `duration`.
    public func loseSignal(from start: VirtualInstant, for duration: Duration) {
        scheduler.schedule(at: start) { [unowned self] in loseSignal() }
        scheduler.schedule(at: start.advanced(by: duration)) { [unowned self] in restoreSignal() }
    }

    private func tick() {
        let now = scheduler.now
        guard !isSignalLost, now >= firstFixAt else { return }
        let state = motion.state(at: now)
        var coordinate = state.coordinate
        var altitude = state.altitude
        if configuration.noise {
            let sigma = configuration.horizontalAccuracy / 1.5096
            coordinate = coordinate.offsetBy(east: random.nextGaussian(standardDeviation: sigma), north: random.nextGaussian(standardDeviation: sigma))
            if let base = altitude { altitude = base + random.nextGaussian(standardDeviation: configuration.verticalAccuracy) }
        }
        let fix = LocationFix(
            receivedAt: now,
            time: configuration.startDate.addingTimeInterval(now.seconds),
            coordinate: coordinate,
            altitude: altitude,
            speed: state.speed,
            course: state.course,
            horizontalAccuracy: configuration.horizontalAccuracy,
            verticalAccuracy: altitude == nil ? nil : configuration.verticalAccuracy,
            mode: altitude == nil ? .twoDimensional : .threeDimensional,
            satellitesUsed: configuration.satellitesUsed
        )
        currentFix = fix
        reportedUnavailable = false
        observers.send(.fix(fix))
    }

    private func markUnavailable(reason: String) {
        currentFix = nil
        guard !reportedUnavailable else { return }
        reportedUnavailable = true
        observers.send(.unavailable(reason: reason))
    }
}
