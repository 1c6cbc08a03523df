import DeviceSimClock
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The executor a simulation owns: async jobs of the simulation's tasks queue here and run, one at a
/// time and in the order they were enqueued, when the scheduler drains it.
///
/// It is both a `SerialExecutor` (actors may run on it) and a `TaskExecutor` (tasks created with
/// `Task(executorPreference:)`, and their child tasks, run on it). The scheduler advances virtual time only
/// when this executor has no runnable job left (the quiescence rule), so no one ever waits by yielding.
///
/// The executor also carries the simulation's mailbox: closures submitted from other threads (a gpsd
/// reader, a task cancellation handler) that run on the simulation's thread at the next drain.
///
/// The simulation's thread is whichever thread drains the executor. When the simulation is driven from
/// the main actor (``EventScheduler/runOnMainActor(until:)``), main-actor code counts as running on the
/// simulation's thread whenever no other thread drains it, so `@MainActor` code (a view model, its
/// `Task {}`s) sleeps on the virtual clock deterministically: the main actor runs one job at a time.
public final class SimulationExecutor: SerialExecutor, TaskExecutor, @unchecked Sendable {
    private struct Queue: ~Copyable {
        var jobs: [UnownedJob] = []
        var jobsHead = 0
        var actions: [@Sendable () -> Void] = []
        var wake: (@Sendable () -> Void)?
    }

    private let queue = Mutex(Queue())
    private let drainingThread = Atomic<UInt>(0)
    private let mainActorHosted = Atomic<Bool>(false)
    private let escapedSleepsFail = Atomic<Bool>(false)
    private let globalWorkCaptured = Atomic<Bool>(false)
    private let globalWorkCaptureRequested = Atomic<Bool>(false)
    private let strandedWakes = Mutex<[PendingSleep]>([])
    private let arrivals = Atomic<UInt64>(0)
    /// Jobs and closures taken from the queue (each was counted in `arrivals` before it was queued):
    /// while the two counts are equal and no handoff is pending, nothing is queued, and a drain
    /// returns without taking the queue's lock (a drain runs after every event).
    private let taken = Atomic<UInt64>(0)
    /// How many handoffs are pending (`handoffs.pending.count`, readable without its lock).
    private let pendingHandoffCount = Atomic<Int>(0)
    private let caughtEscapes = Mutex<[SimulationEscape]>([])

    init() {}

    public func enqueue(_ job: consuming ExecutorJob) {
        enqueueCaptured(UnownedJob(job))
    }

    /// Queues a job: one of ours, or one captured on its way to the global executor.
    package func enqueueCaptured(_ unowned: UnownedJob) {
        arrivals.add(1, ordering: .releasing)
        let wake = queue.withLock { queue -> (@Sendable () -> Void)? in
            queue.jobs.append(unowned)
            return queue.wake
        }
        wake?()
    }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    public func asUnownedTaskExecutor() -> UnownedTaskExecutor {
        UnownedTaskExecutor(ordinary: self)
    }

    public func checkIsolated() {
        precondition(isOnSimulationThread, "not running on the simulation's executor")
    }

    /// Submits a closure, from any thread, to run on the simulation's thread at the next drain.
    public func submit(_ action: @escaping @Sendable () -> Void) {
        arrivals.add(1, ordering: .releasing)
        let wake = queue.withLock { queue -> (@Sendable () -> Void)? in
            queue.actions.append(action)
            return queue.wake
        }
        wake?()
    }

    /// Whether the calling thread is the simulation's thread: the one draining this executor right now,
    /// or, for a simulation driven from the main actor, main-actor code while no other thread drains it.
    public var isOnSimulationThread: Bool {
        let draining = drainingThread.load(ordering: .acquiring)
        if draining == Self.currentThreadID { return true }
        return (draining == 0 || draining == Self.mainActorMark) && mainActorHosted.load(ordering: .acquiring) && MainQueue.isCurrent
    }

    /// Whether a sleep on the virtual clock called by the caller belongs to this simulation: the caller
    /// is the thread draining it, or main-actor code *during this simulation's own* advance from the main
    /// actor. Main-actor code between two advances is not (its sleep would wake only if some later advance
    /// came, and nothing says one will: a test awaiting the clock without advancing would wait forever),
    /// whatever other simulation advances from the main actor meanwhile (parallel `@MainActor` tests
    /// share the main actor).
    var acceptsSleepFromCaller: Bool {
        let draining = drainingThread.load(ordering: .acquiring)
        if draining == Self.currentThreadID { return true }
        return draining == Self.mainActorMark && mainActorHosted.load(ordering: .acquiring) && MainQueue.isCurrent
    }

    /// Whether any thread (or the main actor) is draining this executor right now.
    var isDrainedAnywhere: Bool { drainingThread.load(ordering: .acquiring) != 0 }

    /// When true, work that code running on the simulation's thread sends to the global concurrent
    /// executor (a `Task {}` or `Task.detached {}`, a nonisolated async function called from the main
    /// actor) joins this executor instead, so it stays in the simulation; see `DeviceSimRuntimeHooks`. Off by
    /// default; `TestSimulation` turns it on. Setting it installs the runtime hook once; it stays off
    /// if the runtime does not offer the hook.
    public var capturesGlobalWork: Bool {
        get { globalWorkCaptured.load(ordering: .acquiring) }
        set {
            globalWorkCaptureRequested.store(newValue, ordering: .releasing)
            globalWorkCaptured.store(newValue && globalWorkCaptureUnavailableReason == nil, ordering: .releasing)
        }
    }

    /// Why ``capturesGlobalWork`` was asked for and is off: the runtime does not offer the hook it
    /// needs (nil: capture is on, or was not asked for).
    public var globalWorkCaptureProblem: String? {
        guard globalWorkCaptureRequested.load(ordering: .acquiring), !capturesGlobalWork else { return nil }
        return globalWorkCaptureUnavailableReason ?? "the runtime's global-enqueue hook could not be installed"
    }

    /// The runtime hooks this executor uses (the process's installed ones, unless a test says otherwise).
    package var runtimeHooks: (any SimulationRuntimeHooks)? = InstalledRuntimeHooks.hooks

    private var globalWorkCaptureUnavailableReason: String? {
        guard let runtimeHooks else { return InstalledRuntimeHooks.notInstalledReason }
        return runtimeHooks.globalWorkCaptureUnavailableReason
    }

    /// The simulation executor that the calling thread is draining right now, if any: code running in a
    /// simulation (its tasks, its events) finds its own here.
    public static var current: SimulationExecutor? { SimulationThread.currentExecutor }

    /// Whether the calling thread is draining this executor right now (not merely hosted).
    public var isDrainingOnThisThread: Bool {
        SimulationThread.current == Unmanaged.passUnretained(self).toOpaque()
    }

    /// Whether main-actor code counts as running on the simulation's thread when no other thread drains
    /// the executor. Set by driving the simulation from the main actor; drive it from one place only.
    public var hostsMainActor: Bool {
        get { mainActorHosted.load(ordering: .acquiring) }
        set { mainActorHosted.store(newValue, ordering: .releasing) }
    }

    /// When true, a sleep on the virtual clock from outside the simulation's thread throws
    /// ``VirtualClockError/sleptOutsideTheSimulation(_:)`` at once (tests want this); when false (the
    /// default) it still completes, through the mailbox, at a time that depends on thread timing.
    /// Either way it is counted in ``escapes``.
    public var failsEscapedSleeps: Bool {
        get { escapedSleepsFail.load(ordering: .acquiring) }
        set { escapedSleepsFail.store(newValue, ordering: .releasing) }
    }

    /// When true, a sleep on a real clock (`Task.sleep`, `ContinuousClock`, `SuspendingClock`,
    /// `DispatchQueue.asyncAfter`) started by code running in this simulation is recorded in
    /// ``realClockSleeps`` (and handed to ``onRealClockSleep``): it would wait for wall-clock time, which
    /// does not pass in virtual time. Off by default (live runs sleep for real); tests and scenario runs
    /// turn it on. Seen through the Dispatch timer it arms (see ``RealClockSleep``); sleeps inside
    /// `RealClockSleeps.allowed { }` are not recorded.
    public var reportsRealClockSleeps: Bool {
        get { realClockSleepsReported.load(ordering: .acquiring) }
        set {
            realClockSleepsReported.store(newValue, ordering: .releasing)
        }
    }

    /// Whether this process sees real-clock sleeps at all (the watch of `DeviceSimRuntimeHooks` is
    /// installed and linked into the executable).
    public static var canSeeRealClockSleeps: Bool { InstalledRuntimeHooks.hooks?.watchesRealClocks ?? false }

    /// The real-clock sleeps recorded so far, in order (see ``reportsRealClockSleeps``).
    public var realClockSleeps: [RealClockSleep] { caughtRealClockSleeps.withLock { $0 } }

    /// Called (on the sleeping code's thread, right after recording it) for each real-clock sleep
    /// recorded: the scenario runner stops the run there.
    public var onRealClockSleep: (@Sendable (RealClockSleep) -> Void)? {
        get { realClockSleepHandler.withLock { $0 } }
        set { realClockSleepHandler.withLock { $0 = newValue } }
    }

    /// When true, main-actor work queued by code draining this executor on a thread of its own (not from
    /// the main actor) is recorded in ``strandedMainActorWork`` (and handed to ``onStrandedMainActorWork``):
    /// nothing runs the main actor in step with the simulation. Off by default; scenario runs driven from a
    /// worker thread turn it on. Seen through the main-queue enqueue (the watch linked into the executable).
    public var reportsStrandedMainActorWork: Bool {
        get { strandedMainActorWorkReported.load(ordering: .acquiring) }
        set {
            if newValue { _ = runtimeHooks?.watchesTheMainQueue }
            strandedMainActorWorkReported.store(newValue, ordering: .releasing)
        }
    }

    /// Whether this process sees main-queue work at all (the watch is linked into the executable).
    public static var canSeeStrandedMainActorWork: Bool { InstalledRuntimeHooks.hooks?.watchesTheMainQueue ?? false }

    /// The main-actor work recorded so far, in order (see ``reportsStrandedMainActorWork``).
    public var strandedMainActorWork: [StrandedMainActorWork] { caughtStrandedMainActorWork.withLock { $0 } }

    /// Called (on the queueing thread, right after recording it) for each stranded main-actor job: the
    /// scenario runner stops the run there.
    public var onStrandedMainActorWork: (@Sendable (StrandedMainActorWork) -> Void)? {
        get { strandedMainActorWorkHandler.withLock { $0 } }
        set { strandedMainActorWorkHandler.withLock { $0 = newValue } }
    }

    private let strandedMainActorWorkReported = Atomic<Bool>(false)
    private let caughtStrandedMainActorWork = Mutex<[StrandedMainActorWork]>([])
    private let strandedMainActorWorkHandler = Mutex<(@Sendable (StrandedMainActorWork) -> Void)?>(nil)

    package func noteStrandedMainActorWork(_ work: StrandedMainActorWork) {
        caughtStrandedMainActorWork.withLock { $0.append(work) }
        onStrandedMainActorWork?(work)
    }

    private let realClockSleepsReported = Atomic<Bool>(false)
    private let caughtRealClockSleeps = Mutex<[RealClockSleep]>([])
    private let realClockSleepHandler = Mutex<(@Sendable (RealClockSleep) -> Void)?>(nil)

    package func noteRealClockSleep(_ sleep: RealClockSleep) {
        caughtRealClockSleeps.withLock { $0.append(sleep) }
        onRealClockSleep?(sleep)
    }

    /// How many times simulated code was caught running off the simulation's executor (see ``VirtualClock``).
    public var escapedCallCount: Int { caughtEscapes.withLock { $0.count } }

    /// Every sleep on the virtual clock that came from outside the simulation's thread, in the order
    /// they were caught.
    public var escapes: [SimulationEscape] { caughtEscapes.withLock { $0 } }

    func noteEscape(_ escape: SimulationEscape) { caughtEscapes.withLock { $0.append(escape) } }

    /// Sleeps of `@MainActor` code that woke while the simulation was run synchronously from the main
    /// actor, since the last ``takeStrandedMainActorWakes()``: the code after each such sleep cannot run
    /// until that synchronous call returns, so it ran late, outside virtual time. Drive main-actor code
    /// with an `async` advance from the main actor instead (see ``EventScheduler/runOnMainActor(until:)``).
    public func takeStrandedMainActorWakes() -> [PendingSleep] {
        strandedWakes.withLock { wakes in
            defer { wakes.removeAll() }
            return wakes
        }
    }

    func noteStrandedMainActorWake(_ sleep: PendingSleep) { strandedWakes.withLock { $0.append(sleep) } }

    /// Whether the calling code is main-actor code running outside this executor's drain (so a sleep it
    /// starts resumes on the main actor).
    var callerIsMainActorCode: Bool { !isDrainingOnThisThread && MainQueue.isCurrent }

    /// Whether a drain of this executor runs synchronously on the main queue right now, on this thread
    /// (so main-actor work it wakes waits until it returns).
    var isDrainingSynchronouslyOnTheMainQueue: Bool { isDrainingOnThisThread && MainQueue.isCurrent }

    /// Whether a thread other than the calling one is draining this executor right now (main-actor
    /// driving counts as the main queue's).
    public var isDrainedElsewhere: Bool {
        let draining = drainingThread.load(ordering: .acquiring)
        if draining == 0 { return false }
        if draining == Self.mainActorMark { return !MainQueue.isCurrent }
        return draining != Self.currentThreadID
    }

    /// Whether the simulation is being advanced from the main actor right now and the caller is
    /// main-actor code (so it runs between two of that advance's events, inside the simulation).
    public var isInsideAMainActorAdvance: Bool {
        drainingThread.load(ordering: .acquiring) == Self.mainActorMark && MainQueue.isCurrent
    }

    /// How many jobs and closures have arrived so far (see ``EventScheduler/activity``).
    var arrivalCount: UInt64 { arrivals.load(ordering: .relaxed) }

    /// Whether a job or a submitted closure is waiting to run.
    public var hasRunnableWork: Bool {
        queue.withLock { $0.jobsHead < $0.jobs.count || !$0.actions.isEmpty }
    }

    /// Installs the closure called (on the enqueuing thread) whenever work arrives; used by the
    /// wall-clock driver to wake up.
    func setWake(_ wake: (@Sendable () -> Void)?) {
        queue.withLock { $0.wake = wake }
    }

    /// What ``beginDraining()`` replaced, for ``endDraining(restoring:)``.
    struct DrainingMark {
        let thread: UInt
        /// What the calling thread drained before (nil: nothing to restore, for the main actor).
        let executorOfThread: UnsafeMutableRawPointer??
    }

    /// Marks the main actor as the simulation's thread until ``endDraining(restoring:)``, across
    /// suspensions (main-actor jobs may run on different threads).
    func beginDrainingOnTheMainActor() -> DrainingMark {
        DrainingMark(thread: drainingThread.exchange(Self.mainActorMark, ordering: .acquiringAndReleasing), executorOfThread: nil)
    }

    /// The draining "thread" while the simulation is driven from the main actor.
    static let mainActorMark = UInt.max

    /// How many simulations of the process are advancing from the main actor right now. Main-actor code
    /// may then be running for one of them (its settling runs every queued main-actor job, including jobs
    /// of other tests that were sent there), so the main queue alone does not say whose code it is.
    static let mainActorAdvancesInProgress = Atomic<Int>(0)

    /// Marks the calling thread as the simulation's thread until ``endDraining(restoring:)``; work it
    /// sends to the global executor joins this executor if ``capturesGlobalWork`` (see `DeviceSimRuntimeHooks`).
    func beginDraining() -> DrainingMark {
        if capturesGlobalWork { runtimeHooks?.reassertGlobalWorkCapture() }
        let mark = DrainingMark(
            thread: drainingThread.exchange(Self.currentThreadID, ordering: .acquiringAndReleasing),
            executorOfThread: .some(SimulationThread.current)
        )
        SimulationThread.current = Unmanaged.passUnretained(self).toOpaque()
        return mark
    }

    /// Marks this executor as driven from the main actor until ``MainActorAdvance/end()``: main-actor code
    /// counts as the simulation's, the runtime hooks (if installed) send main-actor code's global work to
    /// the main queue and attribute its real-clock sleeps here, and other simulations know a main-actor
    /// advance is in progress. Shared by ``EventScheduler/runOnMainActor(until:)`` and the wall-clock driver.
    @MainActor
    func beginMainActorAdvance() -> MainActorAdvance {
        hostsMainActor = true
        let hooks = runtimeHooks
        let key = hooks?.beginMainActorAdvance(self)
        let previous = beginDrainingOnTheMainActor()
        Self.mainActorAdvancesInProgress.add(1, ordering: .acquiringAndReleasing)
        return MainActorAdvance(executor: self, hooks: hooks, key: key, previous: previous)
    }

    /// A main-actor advance in progress (see ``beginMainActorAdvance()``).
    struct MainActorAdvance {
        let executor: SimulationExecutor
        let hooks: (any SimulationRuntimeHooks)?
        let key: UInt?
        let previous: DrainingMark

        /// Undoes ``SimulationExecutor/beginMainActorAdvance()``, in the reverse order.
        @MainActor
        func end() {
            SimulationExecutor.mainActorAdvancesInProgress.subtract(1, ordering: .acquiringAndReleasing)
            executor.endDraining(restoring: previous)
            hooks?.endMainActorAdvance(executor, key: key)
        }
    }

    func endDraining(restoring mark: DrainingMark) {
        if case .some(let previous) = mark.executorOfThread { SimulationThread.current = previous }
        drainingThread.store(mark.thread, ordering: .releasing)
    }

    /// Runs queued jobs and submitted closures until none is left; returns how many ran.
    ///
    /// Inlined where it is called (after every event): when nothing is queued, as after most
    /// events, it is two comparisons and no call.
    @inline(__always)
    func drain() -> Int {
        isIdle ? 0 : drainQueued()
    }

    /// Whether nothing is queued and no handoff is pending: a drain would run nothing.
    @inline(__always)
    private var isIdle: Bool {
        arrivals.load(ordering: .acquiring) == taken.load(ordering: .relaxed) && pendingHandoffCount.load(ordering: .acquiring) == 0
    }

    /// ``drain()`` when something may be queued.
    @inline(never)
    private func drainQueued() -> Int {
        var ran = 0
        while true {
            if isIdle { return ran }
            let next: (job: UnownedJob?, actions: [@Sendable () -> Void]) = queue.withLock { queue in
                if !queue.actions.isEmpty {
                    let actions = queue.actions
                    queue.actions.removeAll(keepingCapacity: true)
                    taken.add(UInt64(actions.count), ordering: .relaxed)
                    return (nil, actions)
                }
                guard queue.jobsHead < queue.jobs.count else { return (nil, []) }
                let job = queue.jobs[queue.jobsHead]
                queue.jobsHead += 1
                taken.add(1, ordering: .relaxed)
                if queue.jobsHead == queue.jobs.count {
                    queue.jobs.removeAll(keepingCapacity: true)
                    queue.jobsHead = 0
                }
                return (job, [])
            }
            if let job = next.job {
                // On the generic executor with this one as the task executor: a nonisolated async
                // function entered from simulated code then runs on without a hop (run as this serial
                // executor, every such entry and return was a job queued and drained again: four per
                // virtual-clock sleep). Code of an actor on this executor still comes here to run, and
                // its isolation checks pass through ``checkIsolated()`` (this is the simulation's thread).
                job.runSynchronously(on: asUnownedTaskExecutor())
                ran += 1
            } else if !next.actions.isEmpty {
                for action in next.actions { action() }
                ran += next.actions.count
            } else if !waitForHandoffs() {
                return ran
            }
        }
    }

    // MARK: Handoffs

    private let handoffs = Mutex<(next: UInt64, pending: [UInt64: String], abandoned: [String])>((0, [:], []))

    /// How long a drain waits, in real time, for a handoff to arrive before it gives up on it (see
    /// ``beginHandoff(_:)``). Time in which Dispatch's global queues had no thread free (every thread of
    /// the pool busy with other work, such as tests running side by side) does not count, up to five
    /// minutes of real time in all.
    public static let handoffTimeout: Duration = .seconds(10)

    /// Announces work that another thread will ``submit(_:)`` soon on behalf of code running in the
    /// simulation (a `URLSession` task that Foundation starts on its own queue): until
    /// ``endHandoff(_:)``, a drain that runs out of work waits for it (at most ``handoffTimeout``)
    /// instead of letting virtual time move on. `description` names the work in the error when it
    /// never comes (``takeAbandonedHandoffs()``). Call it on the simulation's thread, where the
    /// simulated code made its call; end it from the submitted closure.
    ///
    /// ```swift
    /// let handoff = executor.beginHandoff("GET https://api.example.com/items")
    /// foundationQueue.async { executor.submit { executor.endHandoff(handoff); start() } }
    /// ```
    public func beginHandoff(_ description: String) -> UInt64 {
        handoffs.withLock { state in
            state.next += 1
            state.pending[state.next] = description
            pendingHandoffCount.store(state.pending.count, ordering: .releasing)
            return state.next
        }
    }

    /// Ends a handoff (from any thread); ending one that was ended or abandoned does nothing.
    public func endHandoff(_ handoff: UInt64) {
        handoffs.withLock { state in
            state.pending.removeValue(forKey: handoff)
            pendingHandoffCount.store(state.pending.count, ordering: .releasing)
        }
        let wake = queue.withLock { $0.wake }
        wake?()
    }

    /// Records work owed by another thread that did not come back in time; ``takeAbandonedHandoffs()``
    /// returns it with the hand-offs that never arrived.
    public func reportAbandonedHandoff(_ description: String) {
        handoffs.withLock { $0.abandoned.append(description) }
    }

    /// Whether a handoff is announced and has not arrived yet.
    public var hasPendingHandoffs: Bool { pendingHandoffCount.load(ordering: .acquiring) > 0 }

    /// The handoffs that never arrived within ``handoffTimeout`` since the last call, by description.
    public func takeAbandonedHandoffs() -> [String] {
        handoffs.withLock { state in
            defer { state.abandoned.removeAll() }
            return state.abandoned
        }
    }

    /// With no work queued: waits while handoffs are pending, until work arrives or they end (true:
    /// drain again) or ``handoffTimeout`` of real time passes in which the thread pool could run them
    /// (false: they are abandoned).
    private func waitForHandoffs() -> Bool {
        guard hasPendingHandoffs else { return false }
        var budget = RealTimeWaitBudget(limit: Self.handoffTimeout)
        while true {
            if queue.withLock({ $0.jobsHead < $0.jobs.count || !$0.actions.isEmpty }) { return true }
            if !hasPendingHandoffs { return true }
            if budget.isSpent() {
                handoffs.withLock { state in
                    state.abandoned += state.pending.sorted { $0.key < $1.key }.map(\.value)
                    state.pending.removeAll()
                    pendingHandoffCount.store(0, ordering: .releasing)
                }
                return false
            }
            usleep(20)
        }
    }

    static var currentThreadID: UInt {
        #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
        #else
        UInt(pthread_self())
        #endif
    }
}
