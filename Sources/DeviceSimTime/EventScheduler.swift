import DeviceSimClock

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
        /// The wake-up of a sleep on a ``VirtualClock`` (held directly: no closure per sleep; a queued
        /// wake that is not cancelled is a pending sleep).
        case wake(VirtualClockSleeper)
        case tick(RepeatingEvent)
    }

    private struct Entry: Comparable {
        let instant: Int64
        let sequence: UInt64
        let action: Action

        static func < (lhs: Entry, rhs: Entry) -> Bool {
            lhs.instant != rhs.instant ? lhs.instant < rhs.instant : lhs.sequence < rhs.sequence
        }

        /// Whether this is the tick of a repeating event that was cancelled.
        var isCancelledTick: Bool {
            if case .tick(let event) = action { event.isCancelled } else { false }
        }

        static func == (lhs: Entry, rhs: Entry) -> Bool {
            lhs.instant == rhs.instant && lhs.sequence == rhs.sequence
        }
    }

    /// The current virtual time.
    ///
    /// Read through a getter: its storage is private, so another module cannot inline the read. An
    /// inlined read (cross-module optimization) brought a dynamic exclusivity check with it, which
    /// `@exclusivity(unchecked)` does not reach there: a call to `swift_beginAccess` (about 76
    /// instructions) in every driver's tick.
    public var now: VirtualInstant { currentInstant }
    @exclusivity(unchecked) private var currentInstant: VirtualInstant
    /// Bounds that stop a runaway simulation with ``SchedulerError``.
    @exclusivity(unchecked) public var limits: RunLimits {
        didSet { limitBounds = LimitBounds(limits) }
    }
    /// ``limits`` as plain numbers, read before every event (see ``checkLimits(at:startCount:)``).
    @exclusivity(unchecked) private var limitBounds: LimitBounds
    /// How many events have run so far.
    @exclusivity(unchecked) public private(set) var eventCount = 0
    /// The executor on which the simulation's async tasks run.
    public let executor = SimulationExecutor()

    // The scheduler belongs to one thread at a time and never hands out overlapping accesses to its
    // queue and counters, so their dynamic exclusivity checks (a large share of each event's cost)
    // are off.
    @exclusivity(unchecked) private var queue = BinaryMinHeap<Entry>()
    /// The ticks of repeating events, one lane per interval (see ``TickLane``).
    /// The lanes of ticks (see ``TickLane``), `laneCount` of them, in one block of plain memory:
    /// reading or changing one in place costs no retain or release.
    private let lanes = UnsafeMutablePointer<TickLane>.allocate(capacity: EventScheduler.maximumLanes)
    @exclusivity(unchecked) private var laneCount = 0
    @exclusivity(unchecked) private var nextSequence: UInt64 = 0
    @exclusivity(unchecked) private var cancelled = SequenceSet()
    @exclusivity(unchecked) private var cancellationCount: UInt64 = 0
    /// Tasks started with ``spawn(_:fileID:line:)`` that have not returned yet.
    let liveTasks = LiveTaskRegistry()

    /// Creates a scheduler at ``VirtualInstant/zero``.
    public init(limits: RunLimits = RunLimits()) {
        self.currentInstant = .zero
        self.limits = limits
        self.limitBounds = LimitBounds(limits)
    }

    deinit {
        for index in 0..<laneCount { lanes[index].free() }
        lanes.deinitialize(count: laneCount)
        lanes.deallocate()
    }

    /// Whether any event is still waiting to run.
    public var hasPendingEvents: Bool { nextEventInstant != nil }

    /// The instant of the next event that will run, if any.
    public var nextEventInstant: VirtualInstant? {
        headInstant().map(VirtualInstant.init(nanoseconds:))
    }

    // MARK: Scheduling

    /// Schedules `action` at `instant` (or now, if `instant` is in the past).
    @discardableResult
    public func schedule(at instant: VirtualInstant, _ action: @escaping () -> Void) -> ScheduledEvent {
        schedule(at: instant, .once(action))
    }

    private func schedule(at instant: VirtualInstant, _ action: Action) -> ScheduledEvent {
        let sequence = nextSequence
        nextSequence &+= 1
        let due = max(instant.nanoseconds, now.nanoseconds)
        streak.queued(instant: due, sequence: sequence, lane: -1)
        queue.insert(Entry(instant: due, sequence: sequence, action: action))
        return ScheduledEvent(sequence: sequence, scheduler: self)
    }

    /// Schedules the next tick of `event` at `instant`: into the lane of its interval when it is due
    /// no earlier than the lane's last tick (always so for a tick queued by the one before it), into
    /// the heap otherwise.
    func schedule(at instant: VirtualInstant, tickOf event: RepeatingEvent, interval: Int64) {
        schedule(at: instant, tickOf: .passRetained(event), target: event.target, interval: interval)
    }

    /// Schedules the next tick of the event `reference` holds retained once, as above: that
    /// reference goes to the lane's entry as it is (a tick taken from a lane passes its reference on
    /// to the next, with no retain or release), or is taken into a heap entry.
    ///
    /// `lane` is the lane the event's previous tick came from, if it did (its interval's lane: found
    /// without a search).
    func schedule(at instant: VirtualInstant, tickOf reference: Unmanaged<RepeatingEvent>, target: UnsafeRawPointer?, interval: Int64, lane: Int = -1) {
        let sequence = nextSequence
        nextSequence &+= 1
        let due = max(instant.nanoseconds, now.nanoseconds)
        if let index = lane >= 0 ? lane : laneIndex(for: interval), lanes[index].lastInstant <= due {
            streak.queued(instant: due, sequence: sequence, lane: index)
            lanes[index].lastInstant = due
            lanes[index].append(TickEntry(instant: due, sequence: sequence, event: reference, target: target))
        } else {
            streak.queued(instant: due, sequence: sequence, lane: -1)
            queue.insert(Entry(instant: due, sequence: sequence, action: .tick(reference.takeRetainedValue())))
        }
    }

    /// Where in a lane, once the tick to run is taken from it (0: the next tick), a tick's event and
    /// target, then what the target names at level 0 and at level 1, are prefetched (see
    /// ``removeFirstTick(of:)``).
    private static let prefetchDistances = (objects: 8, level0: 4, level1: 2)

    /// How much of a tick's target (from its start) is prefetched with its event: what a driver keeps
    /// in its first 256 bytes, its tick reads from the cache.
    private static let targetPrefetchBytes = 256

    /// At most this many lanes (distinct intervals); ticks of other intervals go to the heap.
    private static let maximumLanes = 8

    /// The index in `lanes` of the lane for `interval` (made on first use); nil when there are as
    /// many lanes as allowed already.
    private func laneIndex(for interval: Int64) -> Int? {
        for index in 0..<laneCount where lanes[index].interval == interval { return index }
        guard laneCount < Self.maximumLanes else { return nil }
        (lanes + laneCount).initialize(to: TickLane(interval: interval))
        laneCount += 1
        return laneCount - 1
    }

    /// The earliest queued event: its instant, its sequence number, and where it is (`lane` -1: the
    /// heap; else an index in `lanes`); nil when none is queued. (Only the entries' keys are read:
    /// an event's own object is touched when it runs.)
    @inline(__always)
    private func earliest() -> (instant: Int64, sequence: UInt64, lane: Int)? {
        var best = queue.minimum { (instant: $0.instant, sequence: $0.sequence, lane: -1) }
        for index in 0..<laneCount {
            guard let key = lanes[index].first({ (instant: $0.instant, sequence: $0.sequence) }) else { continue }
            if let current = best, (current.instant, current.sequence) < (key.instant, key.sequence) { continue }
            best = (key.instant, key.sequence, index)
        }
        return best
    }

    /// Starts a ``TickStreak`` at `lane` (-1: none), bounded by the earliest event of the heap and
    /// of every other lane.
    private func startStreak(at lane: Int) {
        streak = TickStreak(lane: lane)
        guard lane >= 0 else { return }
        if let key = queue.minimum({ (instant: $0.instant, sequence: $0.sequence) }) { streak.queued(instant: key.instant, sequence: key.sequence, lane: -1) }
        for index in 0..<laneCount where index != lane {
            if let key = lanes[index].first({ (instant: $0.instant, sequence: $0.sequence) }) { streak.queued(instant: key.instant, sequence: key.sequence, lane: index) }
        }
    }

    /// Ticks taken from one lane in a row (the ticks of all a fleet's devices due at one instant):
    /// every queued event outside `lane` comes at or after `bound`, so while the lane's first tick
    /// comes before it, that tick is the earliest event, found without looking at the heap or the
    /// other lanes. Every event queued lowers the bound to its own place (unless it joins `lane`);
    /// an event is taken from elsewhere only once the streak is over.
    private struct TickStreak {
        /// The lane (-1: no streak).
        let lane: Int
        var boundInstant = Int64.max
        var boundSequence = UInt64.max

        init(lane: Int) {
            self.lane = lane
        }

        /// Notes an event queued in `lane` (-1: the heap) at `instant` with `sequence`.
        @inline(__always)
        mutating func queued(instant: Int64, sequence: UInt64, lane: Int) {
            guard lane != self.lane, (instant, sequence) < (boundInstant, boundSequence) else { return }
            boundInstant = instant
            boundSequence = sequence
        }
    }

    @exclusivity(unchecked) private var streak = TickStreak(lane: -1)

    /// Whether the first entry of `lane` (-1: the heap) is a cancelled repeating event's tick.
    private func headIsCancelledTick(of lane: Int) -> Bool {
        if lane >= 0 { return lanes[lane].first { $0.event._withUnsafeGuaranteedRef { $0.isCancelled } } ?? false }
        return queue.minimum { $0.isCancelledTick } ?? false
    }

    /// Removes the first entry of `lane` (-1: the heap).
    private func removeFirst(of lane: Int) -> Entry {
        guard lane >= 0 else { return queue.removeMin() }
        let tick = removeFirstTick(of: lane)
        return Entry(instant: tick.instant, sequence: tick.sequence, action: .tick(tick.event.takeRetainedValue()))
    }

    /// Removes the first tick of `lane`; its reference to its event (retained once) is the caller's.
    ///
    /// Taking a tick from a lane prefetches a tick's event and target a few places down it, and what
    /// targets that are cached by now name (see ``TickPrefetching``): so a tick seldom waits on
    /// memory, however many devices there are.
    @inline(__always)
    private func removeFirstTick(of lane: Int) -> TickEntry {
        let tick = lanes[lane].removeFirst()
        let entries = lanes[lane]
        let distances = Self.prefetchDistances
        entries.element(at: distances.objects) { entry in
            Prefetch.memory(at: UnsafeRawPointer(entry.event.toOpaque()), bytes: RepeatingEvent.instanceBytes)
            // Its first 256 bytes, on however many lines they fall (an object from malloc is only
            // 16-byte aligned): the first four lines from its start would leave up to 48 of them out.
            if let target = entry.target { Prefetch.memory(at: target, bytes: Self.targetPrefetchBytes) }
        }
        entries.element(at: distances.level0) { $0.event._withUnsafeGuaranteedRef { $0.prefetchTickState(level: 0) } }
        entries.element(at: distances.level1) { $0.event._withUnsafeGuaranteedRef { $0.prefetchTickState(level: 1) } }
        return tick
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
        armed(ClosureRepeatingEvent(scheduler: self, first: first(of: interval, startingAt: start), interval: interval, action: action))
    }

    /// The first instant of an event repeating every `interval` from `start` (default: one
    /// interval from now).
    private func first(of interval: Duration, startingAt start: VirtualInstant?) -> VirtualInstant {
        precondition(interval > .zero, "a repeating event needs a positive interval")
        return start ?? now.advanced(by: interval)
    }

    /// `event` with its first tick queued.
    private func armed(_ event: RepeatingEvent) -> RepeatingEvent {
        event.arm(on: self)
        return event
    }

    /// Calls `action` with `target` every `interval`, like ``repeating(every:startingAt:_:)``, but
    /// holds `target` unretained, not even for the call: the cheapest timer for a driver ticking
    /// every second. `target` must cancel the event before it goes (in its `deinit`); a cancelled
    /// event calls nothing.
    ///
    /// ```swift
    /// final class Sampler {
    ///     var timer: RepeatingEvent?
    ///     init(scheduler: EventScheduler) { timer = scheduler.repeating(every: .seconds(1), calling: self) { sampler, _ in sampler.sample() } }
    ///     deinit { timer?.cancel() }
    ///     func sample() { /* 1 Hz work */ }
    /// }
    /// ```
    @discardableResult
    public func repeating<Target: AnyObject>(
        every interval: Duration,
        startingAt start: VirtualInstant? = nil,
        calling target: Target,
        _ action: @escaping (Target, Int) -> Void
    ) -> RepeatingEvent {
        armed(TargetRepeatingEvent(scheduler: self, first: first(of: interval, startingAt: start), interval: interval, target: target, action: action))
    }

    /// Like ``repeating(every:startingAt:calling:_:)``, for a target that names what its tick reads:
    /// the scheduler prefetches that a few ticks ahead (see ``TickPrefetching``).
    @discardableResult
    public func repeating<Target: TickPrefetching>(
        every interval: Duration,
        startingAt start: VirtualInstant? = nil,
        calling target: Target,
        _ action: @escaping (Target, Int) -> Void
    ) -> RepeatingEvent {
        armed(PrefetchingTargetRepeatingEvent(scheduler: self, first: first(of: interval, startingAt: start), interval: interval, target: target, action: action))
    }

    /// Notes that a repeating event was cancelled: its queued tick is dropped when it comes to the
    /// head (the event says it is cancelled), so it is not put in the cancelled set.
    func noteTickCancelled() {
        cancellationCount &+= 1
    }

    func cancel(sequence: UInt64) {
        guard sequence < nextSequence else { return }
        cancelled.insert(sequence)
        cancellationCount &+= 1
    }

    // MARK: Sleeps and tasks

    /// Schedules the wake-up of a sleep on the virtual clock; it is listed in ``pendingSleeps`` until
    /// it runs or is cancelled.
    func scheduleSleep(until deadline: VirtualInstant, _ sleeper: VirtualClockSleeper) -> ScheduledEvent {
        schedule(at: deadline, .wake(sleeper))
    }

    /// Sleeps on this scheduler's ``VirtualClock`` that are still waiting, earliest first: the queued
    /// wake-ups that are not cancelled (read from the queue, so a sleep keeps no list of its own).
    public var pendingSleeps: [PendingSleep] {
        var sleeps: [PendingSleep] = []
        queue.forEach { entry in
            guard case .wake(let sleeper) = entry.action, !cancelled.contains(entry.sequence) else { return }
            sleeps.append(PendingSleep(deadline: VirtualInstant(nanoseconds: entry.instant), origin: sleeper.origin, sequence: entry.sequence))
        }
        return sleeps.sorted { ($0.deadline, $0.sequence) < ($1.deadline, $1.sequence) }
    }

    /// Tasks started with ``spawn(_:fileID:line:)`` (and `Device.spawn`) that have not returned yet, in
    /// the order they were started.
    public var unfinishedTasks: [SimulationTaskOrigin] { liveTasks.origins }

    /// A number that changes whenever an event is scheduled or cancelled, or a job or closure arrives at
    /// the ``executor``: compare two readings to tell whether anything happened in between.
    public var activity: UInt64 { activityOfQueue &+ executor.arrivalCount }

    // MARK: Running

    /// Runs events up to and including `deadline`, then sets the clock to `deadline`.
    public func run(until deadline: VirtualInstant) throws(SchedulerError) {
        let previous = executor.beginDraining()
        defer { executor.endDraining(restoring: previous) }
        let startCount = eventCount
        while true {
            _ = executor.drain()
            guard let head = locateHead(), head.instant <= deadline.nanoseconds else { break }
            try checkLimits(at: head.instant, startCount: startCount)
            runEvent(inLane: head.lane)
        }
        if deadline > now { currentInstant = deadline }
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
            guard let head = locateHead() else { break }
            try checkLimits(at: head.instant, startCount: startCount)
            runEvent(inLane: head.lane)
        }
    }

    /// Runs every job and event due at the current instant without moving the clock.
    public func runCurrent() throws(SchedulerError) {
        try run(until: now)
    }

    /// Pops and runs the next event if it is due at or before `deadline`; used by the wall-clock driver.
    func runNextEvent(notAfter deadline: VirtualInstant) throws(SchedulerError) -> Bool {
        guard let head = headInstant(), head <= deadline.nanoseconds else { return false }
        try checkLimits(at: head, startCount: 0)
        runHead()
        return true
    }

    /// Moves the clock forward to `instant` without running anything (wall-clock driver only).
    func advanceClock(to instant: VirtualInstant) {
        if instant > now { currentInstant = instant }
    }

    /// Removes the earliest event from the queue, moves the clock to it and runs it.
    func runHead() {
        var lane = earliestLane.lane
        if earliestLane.activity != activityOfQueue || lane == Int.min { lane = earliest()!.lane }
        earliestLane.lane = Int.min
        runEvent(inLane: lane)
    }

    /// Removes the earliest event, which is in `lane` (-1: the heap), moves the clock to it and
    /// runs it.
    @inline(__always)
    private func runEvent(inLane lane: Int) {
        if lane >= 0 { return runTick(removeFirstTick(of: lane), lane: lane) }
        runHeapHead()
    }

    /// Removes the heap's first event, moves the clock to it and runs it.
    private func runHeapHead() {
        let entry = queue.removeMin()
        currentInstant = VirtualInstant(nanoseconds: entry.instant)
        eventCount += 1
        switch entry.action {
        case .once(let action): action()
        case .wake(let sleeper): sleeper.wakeUp(at: now)
        case .tick(let event): event.fire(on: self)
        }
    }

    /// Runs a tick taken from a lane. The lane's reference to the event passes to its next tick (or
    /// is let go when the event was cancelled), so the tick costs no retain or release: while the
    /// action runs, the next tick's entry keeps the event.
    @inline(__always)
    private func runTick(_ tick: TickEntry, lane: Int) {
        currentInstant = VirtualInstant(nanoseconds: tick.instant)
        eventCount += 1
        if tick.event._withUnsafeGuaranteedRef({ $0.isCancelled }) { return letGo(tick.event) }
        ticksRunning += 1
        tick.event._withUnsafeGuaranteedRef { $0.fire(on: self, holding: tick.event, lane: lane) }
        ticksRunning -= 1
        if ticksRunning == 0, !eventsLetGoInTicks.isEmpty { eventsLetGoInTicks.removeAll() }
    }

    /// Releases a lane's reference to a repeating event whose ticks are over; while a lane's tick
    /// runs (a run inside an event's action, which drops the cancelled tick of the very event
    /// whose action runs), the release waits until it returns.
    private func letGo(_ reference: Unmanaged<RepeatingEvent>) {
        if ticksRunning > 0 { eventsLetGoInTicks.append(reference.takeRetainedValue()) } else { reference.release() }
    }

    /// How many lane ticks are running (more than one in a run started inside an event's action).
    @exclusivity(unchecked) private var ticksRunning = 0
    /// Events whose last reference was let go while a lane's tick ran (see ``letGo(_:)``).
    @exclusivity(unchecked) private var eventsLetGoInTicks: [RepeatingEvent] = []

    /// The instant of the earliest event still queued (cancelled events at the head are dropped
    /// first); ``runHead()`` runs it.
    func headInstant() -> Int64? {
        guard let head = locateHead() else { return nil }
        earliestLane = (head.lane, activityOfQueue)
        return head.instant
    }

    /// The instant of the earliest event still queued and where it is (`lane` -1: the heap; else an
    /// index in `lanes`), cancelled events at the head dropped first. Inlined into the run loops
    /// for a streak's tick: a comparison with the streak's bound and a look at the event's flag.
    @inline(__always)
    private func locateHead() -> (instant: Int64, lane: Int)? {
        let lane = streak.lane
        while lane >= 0, let head = lanes[lane].first({ $0 }), (head.instant, head.sequence) < (streak.boundInstant, streak.boundSequence) {
            if head.event._withUnsafeGuaranteedRef({ $0.isCancelled }) {
                letGo(lanes[lane].removeFirst().event)
                continue
            }
            return (head.instant, lane)
        }
        return locateHeadOutsideStreak()
    }

    /// ``locateHead()`` past the end of a streak: the earliest of the heap and every lane, from
    /// which a new streak starts.
    @inline(never)
    private func locateHeadOutsideStreak() -> (instant: Int64, lane: Int)? {
        while let head = earliest() {
            if headIsCancelledTick(of: head.lane) {
                // A repeating event's tick is cancelled through its event (not the cancelled set).
                if head.lane >= 0 {
                    letGo(lanes[head.lane].removeFirst().event)
                } else if case .tick(let event) = queue.removeMin().action, ticksRunning > 0 {
                    eventsLetGoInTicks.append(event)
                }
                continue
            }
            // Only the heap's events are cancelled through the set (a tick, through its event): a
            // lane's head is never looked up there, a probe that misses the cache in a fleet.
            if head.lane < 0, !cancelled.isEmpty, cancelled.contains(head.sequence) {
                cancelled.remove(head.sequence)
                _ = removeFirst(of: head.lane)
                continue
            }
            startStreak(at: head.lane)
            return (head.instant, head.lane)
        }
        startStreak(at: -1)
        return nil
    }

    /// Where the event that ``headInstant()`` found is, and the queue's activity then: `runHead`
    /// takes it from there unless something was scheduled or cancelled since (lane `Int.min`: none).
    @exclusivity(unchecked) private var earliestLane: (lane: Int, activity: UInt64) = (Int.min, 0)
    /// The part of ``activity`` that concerns the queue: events scheduled and cancelled.
    private var activityOfQueue: UInt64 { nextSequence &+ cancellationCount }

    /// Throws the ``SchedulerError`` of the first of ``limits`` (or a ``stop(because:)``) that the
    /// event due at `instant` crosses, the `eventCount - startCount`th of its run.
    ///
    /// Inlined into the run loops: the usual event, within every bound with nothing asked to stop,
    /// is one test and no call.
    @inline(__always)
    func checkLimits(at instant: Int64, startCount: Int) throws(SchedulerError) {
        let bounds = limitBounds
        let eventsAtInstant = instant == lastCheckedInstant ? eventsAtLastCheckedInstant &+ 1 : 1
        if instant <= bounds.latestInstant, eventCount &- startCount < bounds.events, eventsAtInstant <= bounds.eventsAtOneInstant, !isStopped {
            lastCheckedInstant = instant
            eventsAtLastCheckedInstant = eventsAtInstant
            return
        }
        try checkLimitsCrossed(at: instant, startCount: startCount)
    }

    /// ``checkLimits(at:startCount:)`` for an event that crosses a bound, or after a stop.
    @inline(never)
    private func checkLimitsCrossed(at instant: Int64, startCount: Int) throws(SchedulerError) {
        if let maximum = limits.maximumVirtualTime, instant > maximum.nanoseconds {
            throw .virtualTimeLimitExceeded(limit: maximum, eventsRun: eventCount)
        }
        if let maximum = limits.maximumEvents, eventCount - startCount >= maximum {
            throw .eventLimitExceeded(limit: maximum, at: VirtualInstant(nanoseconds: instant))
        }
        if instant == lastCheckedInstant {
            eventsAtLastCheckedInstant += 1
            if let maximum = limits.maximumEventsAtOneInstant, eventsAtLastCheckedInstant > maximum {
                throw .instantLimitExceeded(limit: maximum, at: VirtualInstant(nanoseconds: instant))
            }
        } else {
            lastCheckedInstant = instant
            eventsAtLastCheckedInstant = 1
        }
        if let stopReason { throw .stopped(reason: stopReason, at: stopInstant) }
    }

    /// ``RunLimits`` with every bound a number (no bound: the largest).
    private struct LimitBounds {
        let latestInstant: Int64
        let events: Int
        let eventsAtOneInstant: Int

        init(_ limits: RunLimits) {
            latestInstant = limits.maximumVirtualTime?.nanoseconds ?? .max
            events = limits.maximumEvents ?? .max
            eventsAtOneInstant = limits.maximumEventsAtOneInstant ?? .max
        }
    }

    /// The instant of the latest event checked against the limits, and how many events were due then.
    @exclusivity(unchecked) private var lastCheckedInstant = Int64.min
    @exclusivity(unchecked) private var eventsAtLastCheckedInstant = 0
    /// Why the run must stop, once something asked it to (``stop(because:)``).
    @exclusivity(unchecked) public private(set) var stopReason: String?
    /// Whether ``stopReason`` is set (a flag: cheaper to test before every event than the string).
    @exclusivity(unchecked) private var isStopped = false
    /// When it was asked to stop.
    @exclusivity(unchecked) private var stopInstant = VirtualInstant.zero

    /// Stops the run before its next event with ``SchedulerError/stopped(reason:at:)``: for a driver
    /// that finds it cannot go on (a log whose time never advances, more beacons in reach than a
    /// phone can range) and says why. The first reason given is kept.
    public func stop(because reason: String) {
        guard stopReason == nil else { return }
        stopReason = reason
        isStopped = true
        stopInstant = now
    }
}

/// Bounds on one run of a scheduler; a run that crosses one stops with a ``SchedulerError``.
public struct RunLimits: Sendable, Hashable {
    /// No event may be scheduled to run past this virtual time (nil: no bound).
    public var maximumVirtualTime: VirtualInstant?
    /// At most this many events in one call of `run` (nil: no bound).
    public var maximumEvents: Int?
    /// At most this many events due at one virtual instant (nil: no bound): a wall of events that
    /// does not let time advance stops here, however far the event bound is.
    public var maximumEventsAtOneInstant: Int?

    /// The default bound of events at one instant.
    public static let defaultMaximumEventsAtOneInstant = 1_000_000

    /// Creates limits; by default at most 50 million events per run, 400 days of virtual time, and
    /// ``defaultMaximumEventsAtOneInstant`` events at one instant (set ``maximumEventsAtOneInstant`` to change it).
    public init(maximumVirtualTime: VirtualInstant? = VirtualInstant(offset: .seconds(400 * 86_400)), maximumEvents: Int? = 50_000_000) {
        self.maximumVirtualTime = maximumVirtualTime
        self.maximumEvents = maximumEvents
        self.maximumEventsAtOneInstant = Self.defaultMaximumEventsAtOneInstant
    }

    /// No bounds at all.
    public static let unbounded: RunLimits = {
        var limits = RunLimits(maximumVirtualTime: nil, maximumEvents: nil)
        limits.maximumEventsAtOneInstant = nil
        return limits
    }()
}

/// Why a scheduler stopped before its deadline.
public enum SchedulerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// More events ran in one call than ``RunLimits/maximumEvents`` allows.
    case eventLimitExceeded(limit: Int, at: VirtualInstant)
    /// An event was due after ``RunLimits/maximumVirtualTime``.
    case virtualTimeLimitExceeded(limit: VirtualInstant, eventsRun: Int)
    /// More events were due at one instant than ``RunLimits/maximumEventsAtOneInstant`` allows.
    case instantLimitExceeded(limit: Int, at: VirtualInstant)
    /// Something in the simulation stopped it (``EventScheduler/stop(because:)``).
    case stopped(reason: String, at: VirtualInstant)

    public var description: String {
        switch self {
        case .eventLimitExceeded(let limit, let at):
            "runaway simulation: more than \(limit) events in one run (stopped at virtual time \(at)); raise the event limit if this is intended"
        case .virtualTimeLimitExceeded(let limit, let eventsRun):
            "runaway simulation: an event was due after the virtual time limit \(limit) (\(eventsRun) events had run)"
        case .instantLimitExceeded(let limit, let at):
            "runaway simulation: more than \(limit) events at one instant (virtual time \(at)) without time advancing; a wall of events at one instant is refused"
        case .stopped(let reason, let at):
            "the run stopped at virtual time \(at): \(reason)"
        }
    }
}
