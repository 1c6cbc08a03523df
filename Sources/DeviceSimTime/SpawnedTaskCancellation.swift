import Synchronization

/// The cancellation handler of a task started with ``EventScheduler/spawn(_:fileID:line:)``, installed
/// once for the task's whole life. The task's own sleeps on a ``VirtualClock`` register here instead
/// of each adding a cancellation record to the task (a record costs an allocation in the task and
/// atomic updates of its status, on every sleep); a sleep in any other task (a child task, a `Task {}`
/// it started) adds its own record as before.
///
/// ```swift
/// let cancellation = SpawnedTaskCancellation()
/// SpawnedTaskCancellation.$current.withValue(cancellation) {   // copied into the task
///     Task {
///         cancellation.begin()
///         try await withTaskCancellationHandler { try await operation() } onCancel: { cancellation.cancel() }
///     }
/// }
/// ```
final class SpawnedTaskCancellation: @unchecked Sendable {
    private struct State {
        var sleeper: VirtualClockSleeper?
        var cancelled = false
        /// False once the task's operation returned (its handler is gone with it).
        var active = true
    }

    private let state = Mutex(State())
    /// The address of the task whose handler it is (0 until ``begin()``).
    private let taskAddress = Atomic<UInt>(0)

    /// A handler for a task about to be spawned, which calls ``begin()`` first thing.
    init() {}

    /// Makes this the handler of the calling task (call it first thing in the spawned task).
    func begin() {
        taskAddress.store(Self.currentTaskAddress, ordering: .releasing)
    }

    /// The address of the calling task, 0 outside a task.
    private static var currentTaskAddress: UInt {
        withUnsafeCurrentTask { $0.map { unsafeBitCast($0, to: UInt.self) } } ?? 0
    }

    /// The spawned task's handler, bound by `spawn` while it makes the task, which copies it (so do the
    /// task's child tasks and the tasks it starts: ``ofCurrentTask`` tells whether the caller is that
    /// task itself).
    @TaskLocal static var current: SpawnedTaskCancellation?

    /// The handler of the calling task when it is a spawned task itself (not a task it started).
    static var ofCurrentTask: SpawnedTaskCancellation? {
        guard let cancellation = current else { return nil }
        let task = cancellation.taskAddress.load(ordering: .acquiring)
        guard task != 0, task == currentTaskAddress else { return nil }
        return cancellation
    }

    /// Watches `sleeper` until ``unwatch()``; returns whether the task is cancelled already (the
    /// caller then cancels the sleep itself, as a new handler would run at once), or nil when the
    /// handler is gone (the caller adds a record of its own).
    func watch(_ sleeper: VirtualClockSleeper) -> Bool? {
        state.withLock { state -> Bool? in
            guard state.active else { return nil }
            if state.cancelled { return true }
            state.sleeper = sleeper
            return false
        }
    }

    /// Stops watching the sleep the task was in.
    func unwatch() {
        state.withLock { $0.sleeper = nil }
    }

    /// The task was cancelled: ends the sleep it is in, if any (on the cancelling thread, as a
    /// sleep's own handler would).
    func cancel() {
        let sleeper = state.withLock { state -> VirtualClockSleeper? in
            state.cancelled = true
            defer { state.sleeper = nil }
            return state.sleeper
        }
        sleeper?.cancel()
    }

    /// The task's operation returned: its handler is about to go.
    func end() {
        state.withLock { state in
            state.active = false
            state.sleeper = nil
        }
    }
}

