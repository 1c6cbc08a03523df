import Synchronization

/// The one cancellation handler of a task started with ``EventScheduler/spawn(_:fileID:line:)``: it
/// ends whichever ``VirtualClock`` sleep the task is in when the task is cancelled.
///
/// A sleep of the task itself then only notes itself here (a lock, no task status record), instead of
/// installing a cancellation handler per sleep (`withTaskCancellationHandler` adds and removes a
/// record on the task at each call: a fifth of a 1 Hz loop's cost). Child tasks and `Task {}` inherit
/// the task-local value but not the handler, so a sleep uses it only in the task that installed it
/// (``isOwnedByCurrentTask``) and otherwise installs its own handler as before.
///
/// ```swift
/// // Inside EventScheduler.spawn's task:
/// let canceller = TaskSleepCanceller()
/// try await withTaskCancellationHandler {
///     try await TaskSleepCanceller.$current.withValue(canceller) { try await operation() }
/// } onCancel: { canceller.cancel() }
/// ```
final class TaskSleepCanceller: Sendable {
    /// The sleep in progress, and whether the task was cancelled.
    private let state = Mutex<(sleep: (any CancellableSleep)?, cancelled: Bool)>((nil, false))
    /// The identity of the task that installed the handler (its `UnsafeCurrentTask`'s hash).
    private let owner: Int?
    /// Set when the owner's operation has returned: a task made later at the same address (a `Task {}`
    /// of a `Task {}` that copied the task-local value) must not pass for the owner.
    private let ownerFinished = Atomic<Bool>(false)

    /// A canceller for the task that calls this.
    init() {
        owner = withUnsafeCurrentTask { $0?.hashValue }
    }

    /// The canceller of the spawned task the caller runs in or descends from, if any.
    @TaskLocal static var current: TaskSleepCanceller?

    /// Whether the calling task is the one whose cancellation handler this is.
    var isOwnedByCurrentTask: Bool {
        guard let owner, !ownerFinished.load(ordering: .relaxed) else { return false }
        return withUnsafeCurrentTask { $0?.hashValue } == owner
    }

    /// The owner's operation has returned (called by the owner task).
    func ownerDidFinish() {
        ownerFinished.store(true, ordering: .relaxed)
    }

    /// Notes that the task sleeps in `sleep`, to be cancelled if the task is; when it already is, the
    /// sleep is cancelled at once, as a cancellation handler installed on a cancelled task runs at once.
    func watch(_ sleep: any CancellableSleep) {
        let alreadyCancelled = state.withLock { state -> Bool in
            if state.cancelled { return true }
            state.sleep = sleep
            return false
        }
        if alreadyCancelled { sleep.cancelSleep() }
    }

    /// `sleep` is over.
    func unwatch(_ sleep: any CancellableSleep) {
        state.withLock { state in
            if state.sleep === sleep { state.sleep = nil }
        }
    }

    /// The task was cancelled: cancels its sleep in progress, if any (at most once).
    func cancel() {
        let sleep = state.withLock { state -> (any CancellableSleep)? in
            state.cancelled = true
            defer { state.sleep = nil }
            return state.sleep
        }
        sleep?.cancelSleep()
    }
}

/// A sleep that a ``TaskSleepCanceller`` can end.
protocol CancellableSleep: AnyObject, Sendable {
    /// Ends the sleep with `CancellationError` (called at most once by a canceller).
    func cancelSleep()
}
