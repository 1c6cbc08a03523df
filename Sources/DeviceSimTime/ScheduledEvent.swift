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
public final class RepeatingEvent {
    // What every tick reads comes first; then what its prefetch reads (the action's context, the
    // target and how to ask it), past the object's first 64 bytes; the scheduler (used by `cancel`
    // only) last. The scheduler prefetches the whole object (`instanceBytes`) a few ticks ahead.
    /// Whether the event was cancelled.
    @exclusivity(unchecked) public private(set) var isCancelled = false
    @exclusivity(unchecked) private var tick = 0
    private let first: VirtualInstant
    /// The interval in nanoseconds (converted once: a `Duration`'s arithmetic is 128-bit).
    private let interval: Int64
    private let action: (Int) -> Void
    /// Where the action's captured values are (the closure's context: for an event made with a
    /// target, the unretained target and the target's action), read by every tick before anything
    /// else: the scheduler prefetches it with the target's state. Nil for an action that captures
    /// nothing.
    private let actionContext: UnsafeRawPointer?
    /// The object the action calls, when the event was made with one, and how to ask it what its
    /// tick reads (see ``TickPrefetching``): the scheduler prefetches both a few ticks ahead.
    /// (Constants, so that calling `prefetchTargetState` needs no retain of its context.)
    let target: UnsafeRawPointer?
    private let prefetchTargetState: ((UnsafeRawPointer, Int) -> Void)?
    private unowned let scheduler: EventScheduler

    /// The size of an instance: its header (two words) and the stored properties above, which the
    /// scheduler prefetches (`RepeatingEventLayoutTests` checks it against the allocation).
    static let instanceBytes = 104

    /// An event calling `action` every `interval` from `first`; `target` (unretained: it must outlive
    /// the event's ticks, as the action's own unretained reference must) is the object the action
    /// calls, if it calls one, and `prefetchingState` how to call a ``TickPrefetching`` target's
    /// ``TickPrefetching/prefetchTickState(level:)`` given its address.
    init(
        scheduler: EventScheduler, first: VirtualInstant, interval: Duration, target: UnsafeRawPointer?,
        prefetchingState: ((UnsafeRawPointer, Int) -> Void)?, action: @escaping (Int) -> Void
    ) {
        self.scheduler = scheduler
        self.first = first
        self.interval = interval.wholeNanoseconds
        self.target = target
        self.prefetchTargetState = target == nil ? nil : prefetchingState
        self.action = action
        // A closure is two words, its function and its context (a Swift ABI fact, read here once;
        // were it to change, the prefetch would load a useless line, never more).
        actionContext = withUnsafeBytes(of: action) { $0.load(fromByteOffset: MemoryLayout<Int>.stride, as: UnsafeRawPointer?.self) }
    }

    /// Asks the target what its next tick reads at `level` (see ``TickPrefetching``), and at level 0
    /// starts loading the action's context; what that reads must be in the cache by now, or this
    /// waits for it.
    @inline(__always)
    func prefetchTickState(level: Int) {
        if level == 0, let actionContext { Prefetch.memory(at: actionContext, bytes: 48) }
        if let target, let prefetchTargetState, !isCancelled { prefetchTargetState(target, level) }
    }

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
        action(current)
    }

    /// Runs a tick taken from a lane of `scheduler` (its own, which is running it), given the
    /// lane's reference to this event (retained once) and the lane's index: queues the next tick
    /// with that reference (in that lane, unless it must go to the heap), then the action. The
    /// caller has checked that the event is not cancelled.
    @inline(__always)
    func fire(on scheduler: EventScheduler, holding reference: Unmanaged<RepeatingEvent>, lane: Int) {
        let current = tick
        tick += 1
        let due = VirtualInstant(nanoseconds: first.nanoseconds &+ Int64(tick) &* interval)
        scheduler.schedule(at: due, tickOf: reference, target: target, interval: interval, lane: lane)
        action(current)
    }

    /// Stops the repetition; the next tick does not run.
    public func cancel() {
        guard !isCancelled else { return }
        isCancelled = true
        scheduler.noteTickCancelled()
    }
}
