import DeviceSimClock
import Synchronization

/// A `Clock` whose time is a simulation's virtual time.
///
/// Code written against `any Clock<Duration>` runs unchanged on it: `sleep` suspends the calling task
/// until the scheduler reaches the deadline, without any real waiting; a cancelled sleep throws
/// `CancellationError` at once and leaves nothing scheduled. Tasks must run on the simulation's
/// executor (start them with ``EventScheduler/spawn(_:fileID:line:)``) or, for a simulation driven from
/// the main actor, on the main actor. A sleep called from elsewhere is recorded in
/// ``SimulationExecutor/escapes`` and either fails at once with ``VirtualClockError`` (when the
/// executor's ``SimulationExecutor/failsEscapedSleeps`` is on, as in tests) or still completes, at a
/// time that depends on thread timing.
///
/// ```swift
/// let scheduler = EventScheduler()
/// let clock = VirtualClock(scheduler)
/// scheduler.spawn {
///     try? await clock.sleep(for: .seconds(5))
///     // runs at virtual 5 s
/// }
/// try scheduler.run(for: .seconds(10))
/// ```
struct SchedulerClock: Clock, Sendable {
    public typealias Instant = VirtualInstant

    private let handle: SchedulerHandle

    /// A clock reading the virtual time of `scheduler`.
    public init(_ scheduler: EventScheduler) {
        handle = SchedulerHandle(scheduler)
    }

    public var now: VirtualInstant { handle.scheduler.now }

    public var minimumResolution: Duration { .nanoseconds(1) }

    public func sleep(until deadline: VirtualInstant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        let handle = self.handle
        let sleeper = VirtualClockSleeper(handle: handle, origin: SimulationTaskOrigin.current)
        if let cancellation = SpawnedTaskCancellation.ofCurrentTask, let cancelled = cancellation.watch(sleeper) {
            // A spawned task's own sleep: the cancellation handler its spawn installed once serves
            // it, so the sleep adds no cancellation record to the task.
            if cancelled { handle.cancel(sleeper) }
            defer { cancellation.unwatch() }
            try await withUnsafeThrowingContinuation { continuation in
                sleeper.start(continuation, until: deadline)
            }
        } else {
            try await withTaskCancellationHandler {
                try await withUnsafeThrowingContinuation { continuation in
                    sleeper.start(continuation, until: deadline)
                }
            } onCancel: {
                handle.cancel(sleeper)
            }
        }
    }
}

/// Lets a `Sendable` clock refer to its non-`Sendable` scheduler; the scheduler is only touched on the
/// simulation's thread (checked through the executor).
final class SchedulerHandle: @unchecked Sendable {
    let scheduler: EventScheduler
    let executor: SimulationExecutor

    init(_ scheduler: EventScheduler) {
        self.scheduler = scheduler
        self.executor = scheduler.executor
    }

    /// Schedules the sleeper's wake-up (on the simulation's thread). The wake of a sleep of main-actor
    /// code (`resumesOnTheMainActor`) that comes while the simulation runs synchronously on the main
    /// queue is noted as stranded: the code after the sleep cannot run until that run returns.
    func scheduleWake(_ sleeper: VirtualClockSleeper, at deadline: VirtualInstant, resumesOnTheMainActor: Bool) {
        guard !sleeper.isFinished else { return }
        sleeper.notesStrandedWake = resumesOnTheMainActor
        sleeper.wake = scheduler.scheduleSleep(until: deadline, sleeper)
    }

    /// Ends a cancelled sleep with `CancellationError` and removes its wake-up from the scheduler, so
    /// that it neither moves the clock nor stays pending. Done at once when the simulation runs on this
    /// thread; otherwise (a test cancelling between two advances) at the next drain, so that the
    /// resumed task, too, runs in the simulation.
    ///
    /// When nothing drains the simulation at all (no advance is in progress anywhere) and the cancel comes
    /// from off the main actor (a test's time limit), the sleep ends at once and only its wake-up is removed at the next drain: a task awaiting the virtual clock while
    /// nobody advances (a test's time limit cancelling it) must not wait for an advance that never comes.
    /// The resumed task still runs where it belongs (a task of the simulation is queued on its executor).
    func cancel(_ sleeper: VirtualClockSleeper) {
        let cancel: @Sendable () -> Void = {
            sleeper.resume(throwing: CancellationError())
            sleeper.wake?.cancel()
            sleeper.wake = nil
        }
        if executor.isDrainingOnThisThread {
            cancel()
        } else {
            // Main-actor code cancelling (a view model replacing its task) keeps the mailbox's order, unless
            // another simulation is advancing from the main actor: then this code may be another test's work
            // that its settling ran (a detached task created on the main actor is sent there meanwhile),
            // and the order it keeps would be a wait for an advance of this simulation that may never come.
            if !executor.isDrainedAnywhere
                && (!MainQueue.isCurrent || SimulationExecutor.mainActorAdvancesInProgress.load(ordering: .acquiring) > 0) {
                sleeper.resume(throwing: CancellationError())
            }
            executor.submit(cancel)
        }
    }
}

/// One pending sleep: resumed exactly once, by its deadline or by cancellation. The scheduler's queue
/// holds it as the sleep's wake-up (see ``EventScheduler/pendingSleeps``).
final class VirtualClockSleeper: @unchecked Sendable {
    private let state = Mutex<(continuation: UnsafeContinuation<Void, any Error>?, finished: Bool, error: (any Error)?)>((nil, false, nil))
    private let handle: SchedulerHandle
    /// The simulation task the sleep is in, if any.
    let origin: SimulationTaskOrigin?
    /// The scheduled wake-up; read and written on the simulation's thread only.
    var wake: ScheduledEvent?
    /// Whether the sleep resumes main-actor code, whose wake is noted when it comes during a
    /// synchronous run on the main queue; set on the simulation's thread before the wake is queued.
    var notesStrandedWake = false

    init(handle: SchedulerHandle, origin: SimulationTaskOrigin?) {
        self.handle = handle
        self.origin = origin
    }

    var isFinished: Bool { state.withLock { $0.finished } }

    /// Takes the continuation and queues the wake-up at `deadline`: at once when the caller is the
    /// simulation's, else (an escaped sleep) through the mailbox or failing, as the executor says.
    func start(_ continuation: UnsafeContinuation<Void, any Error>, until deadline: VirtualInstant) {
        install(continuation)
        let handle = self.handle
        let executor = handle.executor
        if executor.acceptsSleepFromCaller {
            handle.scheduleWake(self, at: deadline, resumesOnTheMainActor: executor.callerIsMainActorCode)
            return
        }
        let escape = SimulationEscape(deadline: deadline, origin: origin, place: MainQueue.isCurrent ? .mainActor : .otherThread)
        // Counted only once its wake is on its way, so whoever sees the count and then advances
        // finds the wake in the mailbox.
        if executor.failsEscapedSleeps {
            executor.noteEscape(escape)
            resume(throwing: VirtualClockError.sleptOutsideTheSimulation(escape))
        } else {
            executor.submit { handle.scheduleWake(self, at: deadline, resumesOnTheMainActor: false) }
            executor.noteEscape(escape)
        }
    }

    /// The wake-up, run by the scheduler at `instant` (the sleep's deadline, or when it was queued if
    /// that was later).
    func wakeUp(at instant: VirtualInstant) {
        if notesStrandedWake, handle.executor.isDrainingSynchronouslyOnTheMainQueue {
            handle.executor.noteStrandedMainActorWake(PendingSleep(deadline: instant, origin: origin, sequence: 0))
        }
        resume(throwing: nil)
    }

    /// Ends the sleep because its task was cancelled (see ``SchedulerHandle/cancel(_:)``).
    func cancel() {
        handle.cancel(self)
    }

    private func install(_ continuation: UnsafeContinuation<Void, any Error>) {
        let early: (any Error)?? = state.withLock { state in
            if state.finished { return .some(state.error) }
            state.continuation = continuation
            return .none
        }
        if case .some(let error) = early {
            if let error { continuation.resume(throwing: error) } else { continuation.resume() }
        }
    }

    func resume(throwing error: (any Error)?) {
        let continuation = state.withLock { state -> UnsafeContinuation<Void, any Error>? in
            guard !state.finished else { return nil }
            state.finished = true
            state.error = error
            defer { state.continuation = nil }
            return state.continuation
        }
        guard let continuation else { return }
        if let error { continuation.resume(throwing: error) } else { continuation.resume() }
    }
}
