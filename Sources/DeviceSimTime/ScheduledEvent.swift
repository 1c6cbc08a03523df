import DeviceSimClock

/// A handle to one event scheduled on an ``EventScheduler``; use it to cancel the event.
public struct ScheduledEvent {
    let sequence: UInt64
    unowned let scheduler: EventScheduler

    /// Cancels the event if it has not run yet; cancelling twice, or after it ran, does nothing.
    public func cancel() {
        scheduler.cancel(sequence: sequence)
    }
}

/// A handle to a repeating event (see ``EventScheduler/repeating(every:startingAt:_:)``).
///
/// The object also is the event's queued tick: the scheduler runs a tick by calling the event's own
/// action through the class (``performTick(_:)``), so a tick reads the event and what the action
/// calls, and no closure context of the scheduler's own. Its subclasses are the kinds of action: a
/// closure (``ClosureRepeatingEvent``), a closure called with an unretained target
/// (``TargetRepeatingEvent``), and one whose target names what its tick reads
/// (``PrefetchingTargetRepeatingEvent``).
public class RepeatingEvent {
    // What every tick reads comes first; the scheduler (used by `cancel` only) after it; then a
    // subclass's action, which every tick reads too. The scheduler prefetches the whole object
    // (`instanceBytes`) a few ticks ahead.
    /// Whether the event was cancelled.
    @exclusivity(unchecked) public private(set) var isCancelled = false
    @exclusivity(unchecked) private var tick = 0
    private let first: VirtualInstant
    /// The interval in nanoseconds (converted once: a `Duration`'s arithmetic is 128-bit).
    private let interval: Int64
    /// The object the action calls (unretained), when the event was made with one: the scheduler
    /// prefetches it a few ticks ahead.
    let target: UnsafeRawPointer?
    private unowned let scheduler: EventScheduler

    /// The size of an instance of every subclass: its header (two words), the stored properties
    /// above and a closure (two words), which the scheduler prefetches (`RepeatingEventLayoutTests`
    /// checks it against the allocation).
    static let instanceBytes = 80

    /// An event every `interval` from `first`; `target` (unretained: it must outlive the event's
    /// ticks) is the object the action calls, if it calls one.
    init(scheduler: EventScheduler, first: VirtualInstant, interval: Duration, target: UnsafeRawPointer?) {
        self.scheduler = scheduler
        self.first = first
        self.interval = interval.wholeNanoseconds
        self.target = target
    }

    /// Runs the action for tick number `tick`; every subclass has its own.
    func performTick(_ tick: Int) {
        preconditionFailure("\(type(of: self)) does not say what its tick does")
    }

    /// Asks the target what its next tick reads at `level` (see ``TickPrefetching``); nothing for an
    /// event whose target does not say. What that reads must be in the cache by now, or this waits
    /// for it.
    func prefetchTickState(level: Int) {}

    /// Queues the next tick on `scheduler` (its own; the queue holds the event until it runs).
    func arm(on scheduler: EventScheduler) {
        let due = VirtualInstant(nanoseconds: first.nanoseconds &+ Int64(tick) &* interval)
        scheduler.schedule(at: due, tickOf: self, interval: interval)
    }

    /// Runs a tick on `scheduler` (its own, which is running it): queues the next one, then the action.
    func fire(on scheduler: EventScheduler) {
        guard !isCancelled else { return }
        let current = tick
        tick += 1
        arm(on: scheduler)
        performTick(current)
    }

    /// Runs a tick taken from a lane of `scheduler` (its own, which is running it), given the
    /// lane's reference to this event (retained once) and the lane's index: queues the next tick
    /// with that reference (in that lane, unless it must go to the heap), then the action. The
    /// caller has checked that the event is not cancelled.
    @inline(__always)
    final func fire(on scheduler: EventScheduler, holding reference: Unmanaged<RepeatingEvent>, lane: Int) {
        let current = tick
        tick += 1
        let due = VirtualInstant(nanoseconds: first.nanoseconds &+ Int64(tick) &* interval)
        scheduler.schedule(at: due, tickOf: reference, target: target, interval: interval, lane: lane)
        performTick(current)
    }

    /// Stops the repetition; the next tick does not run.
    public final func cancel() {
        guard !isCancelled else { return }
        isCancelled = true
        scheduler.noteTickCancelled()
    }
}

/// A repeating event that calls a closure with the tick number.
final class ClosureRepeatingEvent: RepeatingEvent {
    private let action: (Int) -> Void

    init(scheduler: EventScheduler, first: VirtualInstant, interval: Duration, action: @escaping (Int) -> Void) {
        self.action = action
        super.init(scheduler: scheduler, first: first, interval: interval, target: nil)
    }

    override func performTick(_ tick: Int) {
        action(tick)
    }
}

/// A repeating event that calls a closure with its target, held unretained (not even for the
/// call), and the tick number: the target and the closure are read from the event itself.
class TargetRepeatingEvent<Target: AnyObject>: RepeatingEvent {
    private let action: (Target, Int) -> Void

    init(scheduler: EventScheduler, first: VirtualInstant, interval: Duration, target: Target, action: @escaping (Target, Int) -> Void) {
        self.action = action
        super.init(scheduler: scheduler, first: first, interval: interval, target: UnsafeRawPointer(Unmanaged.passUnretained(target).toOpaque()))
    }

    /// The target, unretained: it cancels the event before it goes.
    @inline(__always)
    final var unretainedTarget: Unmanaged<Target> {
        Unmanaged<Target>.fromOpaque(target.unsafelyUnwrapped)
    }

    override final func performTick(_ tick: Int) {
        unretainedTarget._withUnsafeGuaranteedRef { action($0, tick) }
    }
}

/// A ``TargetRepeatingEvent`` whose target names what its tick reads (see ``TickPrefetching``).
final class PrefetchingTargetRepeatingEvent<Target: TickPrefetching>: TargetRepeatingEvent<Target> {
    override func prefetchTickState(level: Int) {
        guard !isCancelled else { return }
        unretainedTarget._withUnsafeGuaranteedRef { $0.prefetchTickState(level: level) }
    }
}
