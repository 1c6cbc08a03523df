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
        let sleeper = Sleeper()
        let origin = SimulationTaskOrigin.current
        try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Void, any Error>) in
                sleeper.install(continuation)
                let executor = handle.executor
                if executor.acceptsSleepFromCaller {
                    handle.scheduleWake(sleeper, at: deadline, origin: origin, resumesOnTheMainActor: executor.callerIsMainActorCode)
                    return
                }
                let escape = SimulationEscape(deadline: deadline, origin: origin, place: MainQueue.isCurrent ? .mainActor : .otherThread)
                // Counted only once its wake is on its way, so whoever sees the count and then advances
                // finds the wake in the mailbox.
                if executor.failsEscapedSleeps {
                    executor.noteEscape(escape)
                    sleeper.resume(throwing: VirtualClockError.sleptOutsideTheSimulation(escape))
                } else {
                    executor.submit { handle.scheduleWake(sleeper, at: deadline, origin: origin, resumesOnTheMainActor: false) }
                    executor.noteEscape(escape)
                }
            }
        } onCancel: {
            handle.cancel(sleeper)
        }
    }
}

/// Lets a `Sendable` clock refer to its non-`Sendable` scheduler; the scheduler is only touched on the
/// simulation's thread (checked through the executor).
private final class SchedulerHandle: @unchecked Sendable {
    let scheduler: EventScheduler
    let executor: SimulationExecutor

    init(_ scheduler: EventScheduler) {
        self.scheduler = scheduler
        self.executor = scheduler.executor
    }

    /// Schedules the sleeper's wake-up (on the simulation's thread). The wake of a sleep of main-actor
    /// code (`resumesOnTheMainActor`) that comes while the simulation runs synchronously on the main
    /// queue is noted as stranded: the code after the sleep cannot run until that run returns.
    func scheduleWake(_ sleeper: Sleeper, at deadline: VirtualInstant, origin: SimulationTaskOrigin?, resumesOnTheMainActor: Bool) {
        guard !sleeper.isFinished else { return }
        guard resumesOnTheMainActor else {
            sleeper.wake = scheduler.scheduleSleep(until: deadline, origin: origin) { sleeper.resume(throwing: nil) }
            return
        }
        let executor = self.executor
        let sleep = PendingSleep(deadline: max(deadline, scheduler.now), origin: origin, sequence: 0)
        sleeper.wake = scheduler.scheduleSleep(until: deadline, origin: origin) {
            if executor.isDrainingSynchronouslyOnTheMainQueue { executor.noteStrandedMainActorWake(sleep) }
            sleeper.resume(throwing: nil)
        }
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
    func cancel(_ sleeper: Sleeper) {
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

/// One pending sleep: resumed exactly once, by its deadline or by cancellation.
private final class Sleeper: @unchecked Sendable {
    private let state = Mutex<(continuation: UnsafeContinuation<Void, any Error>?, finished: Bool, error: (any Error)?)>((nil, false, nil))
    /// The scheduled wake-up; read and written on the simulation's thread only.
    var wake: ScheduledEvent?

    var isFinished: Bool { state.withLock { $0.finished } }

    func install(_ continuation: UnsafeContinuation<Void, any Error>) {
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
