/// The discrete-event scheduler at the heart of a simulation.
///
/// Events are ordered by (instant, sequence number): events due at the same instant run in the order
/// they were scheduled. Virtual time jumps from one event to the next; between events the scheduler
/// drains its ``executor`` so that async tasks run to quiescence before time moves on.
///
/// A scheduler and the closures it runs belong to one thread at a time (the one calling `run`). Other
/// threads reach it only through ``SimulationExecutor/submit(_:)``.
///
/// ```swift
/// let scheduler = EventScheduler()
/// scheduler.schedule(after: .seconds(5)) { print("five seconds in") }
/// let ticker = scheduler.repeating(every: .seconds(1)) { _ in /* 1 Hz work */ }
/// try scheduler.run(for: .seconds(60))
/// ticker.cancel()
/// ```
public final class EventScheduler {
    /// What an event does: a closure, or the next tick of a repeating event (held directly, so a
    /// tick costs no closure allocation).
    private enum Action {
        case once(() -> Void)
        case tick(RepeatingEvent)
    }

    private struct Entry: Comparable {
        let instant: Int64
        let sequence: UInt64
        let action: Action

        static func < (lhs: Entry, rhs: Entry) -> Bool {
            lhs.instant != rhs.instant ? lhs.instant < rhs.instant : lhs.sequence < rhs.sequence
        }

        static func == (lhs: Entry, rhs: Entry) -> Bool {
            lhs.instant == rhs.instant && lhs.sequence == rhs.sequence
        }
    }

    /// The current virtual time.
    public private(set) var now: VirtualInstant
    /// Bounds that stop a runaway simulation with ``SchedulerError``.
    public var limits: RunLimits
    /// How many events have run so far.
    public private(set) var eventCount = 0
    /// The executor on which the simulation's async tasks run.
    public let executor = SimulationExecutor()

    private var queue = BinaryMinHeap<Entry>()
    private var nextSequence: UInt64 = 0
    private var cancelled = Set<UInt64>()
    private var cancellationCount: UInt64 = 0
    /// Sleeps on a ``VirtualClock`` of this scheduler that have neither woken nor been cancelled.
    private var sleeps: [UInt64: PendingSleep] = [:]
    /// Tasks started with ``spawn(_:fileID:line:)`` that have not returned yet.
    let liveTasks = LiveTaskRegistry()

    /// Creates a scheduler at ``VirtualInstant/zero``.
    public init(limits: RunLimits = RunLimits()) {
        self.now = .zero
        self.limits = limits
    }

    /// Whether any event is still waiting to run.
    public var hasPendingEvents: Bool { nextEventInstant != nil }

    /// The instant of the next event that will run, if any.
    public var nextEventInstant: VirtualInstant? {
        pruneCancelledHead()
        return queue.minimum { VirtualInstant(nanoseconds: $0.instant) }
    }

    // MARK: Scheduling

    /// Schedules `action` at `instant` (or now, if `instant` is in the past).
    @discardableResult
    public func schedule(at instant: VirtualInstant, _ action: @escaping () -> Void) -> ScheduledEvent {
        let sequence = nextSequence
        nextSequence &+= 1
        queue.insert(Entry(instant: max(instant.nanoseconds, now.nanoseconds), sequence: sequence, action: .once(action)))
        return ScheduledEvent(sequence: sequence, scheduler: self)
    }

    /// Schedules the next tick of `event` at `instant`.
    func schedule(at instant: VirtualInstant, tickOf event: RepeatingEvent) -> ScheduledEvent {
        let sequence = nextSequence
        nextSequence &+= 1
        queue.insert(Entry(instant: max(instant.nanoseconds, now.nanoseconds), sequence: sequence, action: .tick(event)))
        return ScheduledEvent(sequence: sequence, scheduler: self)
    }

    /// Schedules `action` after `delay` of virtual time.
    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping () -> Void) -> ScheduledEvent {
        schedule(at: now.advanced(by: delay), action)
    }

    /// Runs `action` every `interval`, first at `start` (default: one interval from now), until cancelled.
    /// The closure receives the tick number, starting at 0. Ticks are at exact multiples of `interval`
    /// from the first one, so they never drift.
    @discardableResult
    public func repeating(
        every interval: Duration,
        startingAt start: VirtualInstant? = nil,
        _ action: @escaping (Int) -> Void
    ) -> RepeatingEvent {
        precondition(interval > .zero, "a repeating event needs a positive interval")
        let timer = RepeatingEvent(scheduler: self, first: start ?? now.advanced(by: interval), interval: interval, action: action)
        timer.arm()
        return timer
    }

    func cancel(sequence: UInt64) {
        guard sequence < nextSequence else { return }
        cancelled.insert(sequence)
        cancellationCount &+= 1
        if !sleeps.isEmpty { sleeps[sequence] = nil }
    }

    // MARK: Sleeps and tasks

    /// Schedules the wake-up of a sleep on the virtual clock; it is listed in ``pendingSleeps`` until
    /// it runs or is cancelled.
    func scheduleSleep(until deadline: VirtualInstant, origin: SimulationTaskOrigin?, _ wake: @escaping () -> Void) -> ScheduledEvent {
        let event = schedule(at: deadline, wake)
        sleeps[event.sequence] = PendingSleep(deadline: max(deadline, now), origin: origin, sequence: event.sequence)
        return event
    }

    /// Sleeps on this scheduler's ``VirtualClock`` that are still waiting, earliest first.
    public var pendingSleeps: [PendingSleep] {
        sleeps.values.sorted { ($0.deadline, $0.sequence) < ($1.deadline, $1.sequence) }
    }

    /// Tasks started with ``spawn(_:fileID:line:)`` (and `Device.spawn`) that have not returned yet, in
    /// the order they were started.
    public var unfinishedTasks: [SimulationTaskOrigin] { liveTasks.origins }

    /// A number that changes whenever an event is scheduled or cancelled, or a job or closure arrives at
    /// the ``executor``: compare two readings to tell whether anything happened in between.
    public var activity: UInt64 { nextSequence &+ cancellationCount &+ executor.arrivalCount }

    // MARK: Running

    /// Runs events up to and including `deadline`, then sets the clock to `deadline`.
    public func run(until deadline: VirtualInstant) throws(SchedulerError) {
        let previous = executor.beginDraining()
        defer { executor.endDraining(restoring: previous) }
        let startCount = eventCount
        while true {
            _ = executor.drain()
            pruneCancelledHead()
            guard let head = queue.minimum({ $0.instant }), head <= deadline.nanoseconds else { break }
            try checkLimits(at: head, startCount: startCount)
            runHead()
        }
        if deadline > now { now = deadline }
    }

    /// Runs events for `duration` of virtual time from now.
    public func run(for duration: Duration) throws(SchedulerError) {
        try run(until: now.advanced(by: duration))
    }

    /// Runs until no event is pending and no job is runnable, within ``limits``.
    public func runUntilIdle() throws(SchedulerError) {
        let previous = executor.beginDraining()
        defer { executor.endDraining(restoring: previous) }
        let startCount = eventCount
        while true {
            _ = executor.drain()
            pruneCancelledHead()
            guard let head = queue.minimum({ $0.instant }) else { break }
            try checkLimits(at: head, startCount: startCount)
            runHead()
        }
    }

    /// Runs every job and event due at the current instant without moving the clock.
    public func runCurrent() throws(SchedulerError) {
        try run(until: now)
    }

    /// Pops and runs the next event if it is due at or before `deadline`; used by the wall-clock driver.
    func runNextEvent(notAfter deadline: VirtualInstant) throws(SchedulerError) -> Bool {
        pruneCancelledHead()
        guard let head = queue.minimum({ $0.instant }), head <= deadline.nanoseconds else { return false }
        try checkLimits(at: head, startCount: 0)
        runHead()
        return true
    }

    /// Moves the clock forward to `instant` without running anything (wall-clock driver only).
    func advanceClock(to instant: VirtualInstant) {
        if instant > now { now = instant }
    }

    /// Removes the earliest event from the queue, moves the clock to it and runs it.
    func runHead() {
        let entry = queue.removeMin()
        now = VirtualInstant(nanoseconds: entry.instant)
        eventCount += 1
        if !sleeps.isEmpty { sleeps[entry.sequence] = nil }
        switch entry.action {
        case .once(let action): action()
        case .tick(let event): event.fire()
        }
    }

    /// The instant of the earliest event still queued (cancelled events at the head are dropped first).
    func headInstant() -> Int64? {
        pruneCancelledHead()
        return queue.minimum { $0.instant }
    }

    func checkLimits(at instant: Int64, startCount: Int) throws(SchedulerError) {
        if let maximum = limits.maximumVirtualTime, instant > maximum.nanoseconds {
            throw .virtualTimeLimitExceeded(limit: maximum, eventsRun: eventCount)
        }
        if let maximum = limits.maximumEvents, eventCount - startCount >= maximum {
            throw .eventLimitExceeded(limit: maximum, at: VirtualInstant(nanoseconds: instant))
        }
    }

    func pruneCancelledHead() {
        while !cancelled.isEmpty, let head = queue.minimum({ $0.sequence }), cancelled.contains(head) {
            cancelled.remove(head)
            _ = queue.removeMin()
        }
    }
}

/// Bounds on one run of a scheduler; a run that crosses one stops with a ``SchedulerError``.
public struct RunLimits: Sendable, Hashable {
    /// No event may be scheduled to run past this virtual time (nil: no bound).
    public var maximumVirtualTime: VirtualInstant?
    /// At most this many events in one call of `run` (nil: no bound).
    public var maximumEvents: Int?

    /// Creates limits; by default at most 50 million events per run and 400 days of virtual time.
    public init(maximumVirtualTime: VirtualInstant? = VirtualInstant(offset: .seconds(400 * 86_400)), maximumEvents: Int? = 50_000_000) {
        self.maximumVirtualTime = maximumVirtualTime
        self.maximumEvents = maximumEvents
    }

    /// No bounds at all.
    public static let unbounded = RunLimits(maximumVirtualTime: nil, maximumEvents: nil)
}

/// Why a scheduler stopped before its deadline.
public enum SchedulerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// More events ran in one call than ``RunLimits/maximumEvents`` allows.
    case eventLimitExceeded(limit: Int, at: VirtualInstant)
    /// An event was due after ``RunLimits/maximumVirtualTime``.
    case virtualTimeLimitExceeded(limit: VirtualInstant, eventsRun: Int)

    public var description: String {
        switch self {
        case .eventLimitExceeded(let limit, let at):
            "runaway simulation: more than \(limit) events in one run (stopped at virtual time \(at)); raise the event limit if this is intended"
        case .virtualTimeLimitExceeded(let limit, let eventsRun):
            "runaway simulation: an event was due after the virtual time limit \(limit) (\(eventsRun) events had run)"
        }
    }
}
