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
public final class SimulatedGPS: LocationProvider, TickPrefetching {
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

    // The state below is touched by the simulation's thread only, one access at a time: no dynamic
    // exclusivity checks on it (they were a measurable share of every tick). What every tick reads
    // or writes is declared first, so it sits together at the start of the object.

    /// Whether the sky is hidden right now (a tunnel).
    @exclusivity(unchecked) public private(set) var isSignalLost = false
    @exclusivity(unchecked) private var reportedUnavailable = false
    /// How many observe fixes (kept here and read every tick: reading the list's own count from this
    /// module costs a dynamic exclusivity check).
    @exclusivity(unchecked) private var observerCount = 0
    @exclusivity(unchecked) private var firstFixAt = VirtualInstant.zero
    private let scheduler: EventScheduler
    private let motion: DeviceMotion
    private let observers = ObserverList<LocationUpdate>()
    @exclusivity(unchecked) private var random: SeededRandomGenerator
    /// The latest tick, when nobody observed it: its fix is made only if someone reads it (most
    /// ticks are read by nobody: apps ask for the current fix now and then). The motion's state at
    /// the tick is looked up then too (or before the motion changes: see `init`).
    private struct PendingFix {
        let instant: VirtualInstant
        /// The motion's state at `instant`, when the tick looked it up.
        var state: RouteTimeline.State?
        /// The noise stream as the tick found it.
        let noise: SeededRandomGenerator
    }
    @exclusivity(unchecked) private var pendingFix: PendingFix?
    /// Whether the motion's states have altitudes (``DeviceMotion/hasAltitude``), read once after each
    /// change of motion (kept here: a tick nobody observes then reads nothing of the motion).
    private enum MotionAltitudes {
        /// Not read since the motion last changed.
        case unknown
        /// No state has one.
        case none
        /// Every state has one.
        case all
        /// It depends on the instant (a route that gains one at a waypoint): a tick looks the state up.
        case varies

        init(_ hasAltitude: Bool?) {
            switch hasAltitude {
            case false?: self = .none
            case true?: self = .all
            case nil: self = .varies
            }
        }
    }
    @exclusivity(unchecked) private var motionAltitudes = MotionAltitudes.unknown

    /// The receiver's settings.
    public let configuration: Configuration
    /// The latest fix (nil while off, before the first fix and while the signal is lost).
    public var currentFix: LocationFix? {
        if let pending = pendingFix {
            var noise = pending.noise
            latestFix = fix(at: pending.instant, of: pending.state ?? motion.state(at: pending.instant), noise: &noise)
            pendingFix = nil
        }
        return latestFix
    }
    @exclusivity(unchecked) private var latestFix: LocationFix?
    /// Whether the receiver is switched on.
    @exclusivity(unchecked) public private(set) var isEnabled = false
    private var ticker: RepeatingEvent?

    deinit {
        ticker?.cancel()
    }

    /// Creates a receiver (switched off: call ``start()``).
    public init(scheduler: EventScheduler, motion: DeviceMotion, configuration: Configuration = Configuration(), random: SeededRandomGenerator) {
        self.scheduler = scheduler
        self.motion = motion
        self.configuration = configuration
        self.random = random
        // A pending fix's state is that of the motion at its tick: looked up before the motion changes.
        motion.beforeChange { [weak self] in self?.motionWillChange() }
    }

    /// Looks up the pending fix's state now, if its tick did not, and forgets what was known of the
    /// motion's altitudes.
    private func motionWillChange() {
        if let pending = pendingFix, pending.state == nil { pendingFix!.state = motion.state(at: pending.instant) }
        motionAltitudes = .unknown
    }

    public func observe(_ observer: @escaping (LocationUpdate) -> Void) -> ObservationToken {
        let subscription = observers.add(observer)
        observerCount += 1
        return ObservationToken { [weak self] in
            subscription.cancel()
            self?.observerCount -= 1
        }
    }

    /// Switches the receiver on, then delivers one fix per interval. A warm receiver (the default) has
    /// a fix at once, delivered before `start` returns; a cold one gets its first fix after the
    /// reacquisition delay.
    public func start(warm: Bool = true) {
        guard !isEnabled else { return }
        isEnabled = true
        firstFixAt = warm ? scheduler.now : scheduler.now.advanced(by: configuration.reacquisitionDelay)
        // Unretained: the receiver cancels the ticker when it goes (deinit).
        ticker = scheduler.repeating(every: configuration.interval, startingAt: scheduler.now.advanced(by: configuration.interval), calling: self) { receiver, _ in
            receiver.tick()
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

    /// What a tick reads beyond the receiver itself: the motion, then its route (nothing while
    /// nobody observes fixes and the motion tells without a lookup whether states have altitudes).
    public func prefetchTickState(level: Int) {
        if observerCount == 0, motionAltitudes == .none || motionAltitudes == .all { return }
        if level == 0 { motion.prefetch() } else { motion.prefetchRoute() }
    }

    private func tick() {
        let now = scheduler.now
        guard !isSignalLost, now >= firstFixAt else { return }
        reportedUnavailable = false
        if observerCount == 0 {
            // The stream moves on exactly as making the fix would move it. The motion is looked up
            // only when it cannot tell whether the state has an altitude (one more draw if it has).
            var state: RouteTimeline.State?
            let hasAltitude: Bool
            if motionAltitudes == .unknown { motionAltitudes = MotionAltitudes(motion.hasAltitude) }
            switch motionAltitudes {
            case .none: hasAltitude = false
            case .all: hasAltitude = true
            case .unknown, .varies:
                let looked = motion.state(at: now)
                state = looked
                hasAltitude = looked.altitude != nil
            }
            pendingFix = PendingFix(instant: now, state: state, noise: random)
            if configuration.noise {
                _ = random.nextGaussianUnits()
                _ = random.nextGaussianUnits()
                if hasAltitude { _ = random.nextGaussianUnits() }
            }
            return
        }
        pendingFix = nil
        let state = motion.state(at: now)
        let fix = fix(at: now, of: state, noise: &random)
        latestFix = fix
        observers.send(.fix(fix))
    }

    /// The fix of the tick at `instant` where the device's motion is `state`, its noise drawn from `noise`.
    private func fix(at instant: VirtualInstant, of state: RouteTimeline.State, noise: inout SeededRandomGenerator) -> LocationFix {
        var coordinate = state.coordinate
        var altitude = state.altitude
        if configuration.noise {
            let sigma = configuration.horizontalAccuracy / 1.5096
            coordinate = coordinate.offsetBy(east: noise.nextGaussian(standardDeviation: sigma), north: noise.nextGaussian(standardDeviation: sigma))
            if let base = altitude { altitude = base + noise.nextGaussian(standardDeviation: configuration.verticalAccuracy) }
        }
        return LocationFix(
            receivedAt: instant,
            time: configuration.startDate.addingTimeInterval(instant.seconds),
            coordinate: coordinate,
            altitude: altitude,
            speed: state.speed,
            course: state.course,
            horizontalAccuracy: configuration.horizontalAccuracy,
            verticalAccuracy: altitude == nil ? nil : configuration.verticalAccuracy,
            mode: altitude == nil ? .twoDimensional : .threeDimensional,
            satellitesUsed: configuration.satellitesUsed
        )
    }

    private func markUnavailable(reason: String) {
        pendingFix = nil
        latestFix = nil
        guard !reportedUnavailable else { return }
        reportedUnavailable = true
        observers.send(.unavailable(reason: reason))
    }
}
