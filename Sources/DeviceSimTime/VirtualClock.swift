import Synchronization

/// A `Clock` whose time is a simulation's virtual time.
///
/// Code written against `any Clock<Duration>` runs unchanged on it: `sleep` suspends the calling task
/// until the scheduler reaches the deadline, without any real waiting. Tasks must run on the
/// simulation's executor (start them with ``EventScheduler/spawn(_:)``); a sleep called from elsewhere
/// still works but is counted in ``SimulationExecutor/escapedCallCount`` and may be non-deterministic.
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
public struct VirtualClock: Clock, Sendable {
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
        try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { (continuation: UnsafeContinuation<Void, any Error>) in
                sleeper.install(continuation)
                let executor = handle.executor
                if executor.isOnSimulationThread {
                    handle.scheduleWake(sleeper, at: deadline)
                } else {
                    executor.noteEscape()
                    executor.submit { handle.scheduleWake(sleeper, at: deadline) }
                }
            }
        } onCancel: {
            sleeper.resume(throwing: CancellationError())
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

    func scheduleWake(_ sleeper: Sleeper, at deadline: VirtualInstant) {
        guard !sleeper.isFinished else { return }
        scheduler.schedule(at: deadline) { sleeper.resume(throwing: nil) }
    }
}

/// One pending sleep: resumed exactly once, by its deadline or by cancellation.
private final class Sleeper: Sendable {
    private let state = Mutex<(continuation: UnsafeContinuation<Void, any Error>?, finished: Bool, error: (any Error)?)>((nil, false, nil))

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

extension EventScheduler {
    /// Starts `operation` as a task on this simulation's executor. It and its child tasks run only while
    /// the scheduler runs, and virtual time waits for them to become idle.
    @discardableResult
    public func spawn<Success: Sendable>(
        _ operation: sending @escaping @isolated(any) () async throws -> Success
    ) -> Task<Success, any Error> {
        Task(executorPreference: executor, operation: operation)
    }

    /// Starts a non-throwing `operation` as a task on this simulation's executor.
    @discardableResult
    public func spawn<Success: Sendable>(
        _ operation: sending @escaping @isolated(any) () async -> Success
    ) -> Task<Success, Never> {
        Task(executorPreference: executor, operation: operation)
    }
}
