/// What app-side code may ask of the executor a device's tasks run on: hand it work from another thread,
/// ask whether the calling code runs on it, and tell it about work that a thread outside the simulation
/// is about to start for it (a hand-off), so that virtual time waits for that work.
///
/// DeviceSimTime's `SimulationExecutor` is the implementation; app targets see only this protocol (a
/// `SerialExecutor`, so an actor of the simulation, such as `CLMonitor`, can run on it).
///
/// ```swift
/// let executor = device.scheduling.executor
/// let handoff = executor.beginHandoff("GET https://api.example.com/checkins")
/// // ... on the thread Foundation starts the request on:
/// executor.submit { deliver(response) }
/// executor.endHandoff(handoff)
/// ```
public protocol SimulationExecuting: SerialExecutor, AnyObject {
    /// Runs `action` on the simulation's thread, in order, at its next drain.
    func submit(_ action: @escaping @Sendable () -> Void)
    /// Whether the calling code may touch the simulation's objects: it runs on this executor's drain (or on
    /// the main actor of a simulation driven from there).
    var isOnSimulationThread: Bool { get }
    /// Whether the calling thread is draining this executor right now.
    var isDrainingOnThisThread: Bool { get }
    /// Notes that work for the simulation was started elsewhere and will come back through ``submit(_:)``:
    /// virtual time does not move past the current instant until ``endHandoff(_:)`` (or a time-out).
    func beginHandoff(_ description: String) -> UInt64
    /// Ends a hand-off begun with ``beginHandoff(_:)``.
    func endHandoff(_ handoff: UInt64)
    /// Notes that work another thread owed the simulation did not come back in time (a completion handler
    /// that did not return), so the simulation went on without it: a test harness reports it as it reports
    /// a hand-off that never arrived, instead of the test failing later for no visible reason.
    func reportAbandonedHandoff(_ description: String)
}
