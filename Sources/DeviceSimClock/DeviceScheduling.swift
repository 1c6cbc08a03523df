/// A device's time as app-side code sees it: the current virtual instant, callbacks after a delay, the
/// device's tasks, its executor and sleeping on its clock. Protocols and values only: the
/// discrete-event scheduler that implements it (`EventScheduler`, with the simulation executor and the
/// wall-clock driver) lives in DeviceSimTime, which tests, the runner and the CLI link and app targets do not.
///
/// App code reaches it as `Device.scheduling`; for a `Clock`, use ``VirtualClock`` (`device.clock`).
///
/// ```swift
/// let reminder = device.scheduling.schedule(after: .seconds(180)) { post(checkInReminder) }
/// let upload = device.spawn { try await uploader.send(batch) }
/// if device.scheduling.executor.isOnSimulationThread { reminder.cancel() }
/// ```
public protocol DeviceScheduling: AnyObject {
    /// What ``schedule(after:_:)`` returns.
    associatedtype Event: CancellableEvent
    /// The executor the device's tasks run on.
    associatedtype Executor: SimulationExecuting

    /// The current virtual time.
    var now: VirtualInstant { get }

    /// The executor on which the device's async tasks run.
    var executor: Executor { get }

    /// Runs `action` after `delay` of virtual time, on the simulation's thread.
    @discardableResult
    func schedule(after delay: Duration, _ action: @escaping () -> Void) -> Event

    /// Runs `action` at `instant` (or now, if `instant` is in the past), on the simulation's thread.
    @discardableResult
    func schedule(at instant: VirtualInstant, _ action: @escaping () -> Void) -> Event

    /// Starts `operation` as a task on the device's executor (see `Device.spawn`).
    @discardableResult
    func spawn<Success: Sendable>(
        _ operation: sending @escaping @isolated(any) () async throws -> Success,
        fileID: String,
        line: Int
    ) -> Task<Success, any Error>

    /// Starts a non-throwing `operation` as a task on the device's executor (see `Device.spawn`).
    @discardableResult
    func spawn<Success: Sendable>(
        _ operation: sending @escaping @isolated(any) () async -> Success,
        fileID: String,
        line: Int
    ) -> Task<Success, Never>

    /// Suspends the calling task until virtual time reaches `deadline` (what ``VirtualClock`` sleeps on).
    func sleep(until deadline: VirtualInstant, tolerance: Duration?) async throws
}

extension SimulationThread {
    /// Whether the calling code runs on a simulation's thread (a drain of any simulation's executor).
    package static var isSimulationThread: Bool { current != nil }
}
