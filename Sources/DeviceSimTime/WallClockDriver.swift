import DeviceSimClock
import Dispatch
import Synchronization

/// Runs an ``EventScheduler`` in step with the wall clock instead of jumping through virtual time.
///
/// This is how live mode runs the very flows that scenarios run: virtual time becomes "time since the
/// driver started", events fire when the wall clock reaches them, and work submitted from other threads
/// (a gpsd reader, a signal handler) is picked up at once. Like ns-3's real-time simulator it has two
/// policies for falling behind: ``Policy/bestEffort`` carries on, ``Policy/hardLimit(tolerance:)`` stops.
///
/// ```swift
/// let stop = StopSignal()
/// try WallClockDriver().run(scheduler, for: .seconds(60), stop: stop)
/// ```
public struct WallClockDriver: Sendable {
    /// What to do when an event runs later than its wall-clock time.
    public enum Policy: Sendable, Hashable {
        /// Run late events as soon as possible and carry on.
        case bestEffort
        /// Stop with ``WallClockDriverError/fellBehind(by:tolerance:)`` when an event is late by more than `tolerance`.
        case hardLimit(tolerance: Duration)
    }

    /// The policy for late events.
    public var policy: Policy
    /// Virtual seconds per wall-clock second (1: real time; 100: a day in under 15 minutes).
    public var speed: Double

    /// The speeds a driver runs at: below a thousandth a wait of one virtual second is over a quarter
    /// of an hour and the division of a virtual wait by the speed leaves `Duration`'s range (1e-20
    /// trapped with "Not enough bits"); a million runs a day in a tenth of a second.
    public static let speeds: ClosedRange<Double> = 0.001...1_000_000

    /// Creates a driver; `speed` must lie in ``speeds``.
    public init(policy: Policy = .bestEffort, speed: Double = 1) {
        precondition(Self.speeds.contains(speed), "the speed of a wall-clock driver must lie in \(Self.speeds)")
        self.policy = policy
        self.speed = speed
    }

    /// Runs `scheduler` on the wall clock for `duration` (nil: until `stop` is raised).
    public func run(_ scheduler: EventScheduler, for duration: Duration? = nil, stop: StopSignal = StopSignal()) throws {
        let wakeUp = DispatchSemaphore(value: 0)
        scheduler.executor.setWake { wakeUp.signal() }
        stop.setWake { wakeUp.signal() }
        defer {
            scheduler.executor.setWake(nil)
            stop.setWake(nil)
        }
        let previous = scheduler.executor.beginDraining()
        defer { scheduler.executor.endDraining(restoring: previous) }

        let pace = Pace(from: scheduler.now, speed: speed, for: duration)
        while !stop.isRaised {
            let (current, finishing) = pace.current()
            scheduler.advanceClock(to: current)
            _ = scheduler.executor.drain()
            switch try step(scheduler, at: current, finishing: finishing, end: pace.end, elapsed: pace.elapsed) {
            case .ranAnEvent: continue
            case .finished: break
            case .wait(let wait):
                if wait > .zero {
                    _ = wakeUp.wait(timeout: .now() + .nanoseconds(Int(min(wait.wholeNanoseconds, 1_000_000_000))))
                }
            }
            if finishing { break }
        }
        if let end = pace.end, stop.isRaised == false { scheduler.advanceClock(to: end) }
        _ = scheduler.executor.drain()
    }
}

extension WallClockDriver {
    /// Virtual time on the wall clock during one run: `speed` virtual seconds a wall second from `base`,
    /// up to `end` (nil: no end), shared by ``run(_:for:stop:)`` and ``runOnMainActor(_:for:stop:)``.
    struct Pace {
        private let clock = ContinuousClock()
        private let origin: ContinuousClock.Instant
        private let base: VirtualInstant
        private let speed: Double
        /// Where the run ends (nil: when stopped).
        let end: VirtualInstant?

        init(from base: VirtualInstant, speed: Double, for duration: Duration?) {
            origin = clock.now
            self.base = base
            self.speed = speed
            end = duration.map { base.advanced(by: $0) }
        }

        /// The virtual instant the wall clock has reached.
        func elapsed() -> VirtualInstant { base.advanced(by: origin.duration(to: clock.now) * speed) }

        /// The instant to run up to now, and whether it is the end. At the end, events due before it
        /// that a run behind the wall clock has not reached yet still run (late), so falling behind
        /// loses nothing.
        func current() -> (instant: VirtualInstant, finishing: Bool) {
            let now = elapsed()
            guard let end, now >= end else { return (now, false) }
            return (end, true)
        }
    }

    /// What the driver does at wall instant `current` (the scheduler's clock already there).
    enum Step {
        /// It ran the next due event (late if the wall clock ran ahead of it); look again at once.
        case ranAnEvent
        /// Nothing is due and the run is at its end.
        case finished
        /// Nothing is due: wait this long on the wall clock (or until woken) for the next event or the end.
        case wait(Duration)
    }

    /// One step of driving `scheduler` on the wall clock, shared by ``run(_:for:stop:)`` and
    /// ``runOnMainActor(_:for:stop:)``: runs the next event due by `current`, failing under a hard limit
    /// when it is later than the tolerance, or says how long to wait.
    func step(
        _ scheduler: EventScheduler, at current: VirtualInstant, finishing: Bool, end: VirtualInstant?,
        elapsed: () -> VirtualInstant
    ) throws -> Step {
        if let next = scheduler.nextEventInstant, next <= current {
            let late = next.duration(to: elapsed())
            if case .hardLimit(let tolerance) = policy, late > tolerance {
                throw WallClockDriverError.fellBehind(by: late, tolerance: tolerance)
            }
            _ = try scheduler.runNextEvent(notAfter: current)
            // Never past the run's end: a slow event at a high speed must not carry the clock beyond it.
            if !finishing {
                let reached = elapsed()
                scheduler.advanceClock(to: end.map { min(reached, $0) } ?? reached)
            }
            return .ranAnEvent
        }
        if finishing { return .finished }
        var wakeAt = scheduler.nextEventInstant ?? current.advanced(by: .seconds(1))
        if let end, end < wakeAt { wakeAt = end }
        return .wait(current.duration(to: wakeAt) / speed)
    }
}

/// Why the wall-clock driver stopped early.
public enum WallClockDriverError: Error, Hashable, Sendable, CustomStringConvertible {
    /// An event ran later than the hard limit allows.
    case fellBehind(by: Duration, tolerance: Duration)

    public var description: String {
        switch self {
        case .fellBehind(let late, let tolerance):
            "the simulation fell behind the wall clock by \(late) (hard limit \(tolerance))"
        }
    }
}

/// A flag, safe to raise from any thread or a signal handler's dispatch source, that stops a
/// ``WallClockDriver`` at its next step.
public final class StopSignal: Sendable {
    private let raised = Atomic<Bool>(false)
    private let wake = Mutex<(@Sendable () -> Void)?>(nil)

    /// Creates a signal that is not raised.
    public init() {}

    /// Whether ``raise()`` was called.
    public var isRaised: Bool { raised.load(ordering: .acquiring) }

    /// Asks the driver to stop.
    public func raise() {
        raised.store(true, ordering: .releasing)
        wake.withLock { $0 }?()
    }

    func setWake(_ action: (@Sendable () -> Void)?) {
        wake.withLock { $0 = action }
    }
}
