import DeviceSimClock

/// What a simulation needs from outside the Swift language to keep stray work in virtual time: the
/// Swift runtime's private enqueue hooks (a `Task {}` started by simulated code joins the simulation) and
/// the watch on Dispatch timers (a sleep on a real clock is reported). Both live in
/// `DeviceSimRuntimeHooks`, which test targets, the scenario runner and the command line link and app
/// targets never do: an app that links `DeviceSimCore` or a mirrored Apple framework carries no lookup of
/// a private runtime symbol and no interposed Dispatch function.
///
/// Without hooks installed, DeviceSimTime works as before except that ``SimulationExecutor/capturesGlobalWork``
/// stays off (``SimulationExecutor/globalWorkCaptureProblem`` says why) and real-clock sleeps are not seen.
///
/// ```swift
/// import DeviceSimRuntimeHooks
/// DeviceSimRuntimeHooks.install()     // once, before the first simulation (DeviceSimTesting does it)
/// ```
package protocol SimulationRuntimeHooks: AnyObject, Sendable {
    /// Why stray global work cannot be captured in this process (nil: it can).
    var globalWorkCaptureUnavailableReason: String? { get }
    /// Puts the enqueue hooks back in front if another library replaced them (called at every drain of a
    /// capturing executor).
    func reassertGlobalWorkCapture()
    /// Marks the calling task as advancing `executor` from the main actor; returns a key for
    /// ``endMainActorAdvance(_:key:)``.
    func beginMainActorAdvance(_ executor: SimulationExecutor) -> UInt?
    /// Ends what ``beginMainActorAdvance(_:)`` began.
    func endMainActorAdvance(_ executor: SimulationExecutor, key: UInt?)
    /// How many jobs main-actor code sent to the global executor were redirected to the main actor's queue
    /// so far (an advancing simulation settles again whenever this changed).
    var mainActorRedirects: UInt64 { get }
    /// Whether Dispatch timers pass through the real-clock watch in this process.
    var watchesRealClocks: Bool { get }
    /// Whether work queued on the main queue passes through the watch in this process (installs its
    /// observer on first use).
    var watchesTheMainQueue: Bool { get }
    /// Runs at once, in order, the main-actor jobs queued so far by `owners` that have not run yet (a view
    /// model's `Task {}`s, resumed `await`s), when called on the main queue: a synchronous advance from the
    /// main actor runs them this way. Returns how many ran; nil when this process cannot (the watch is not
    /// linked into the executable).
    func runQueuedMainActorJobs(of owners: MainActorJobOwners) -> Int?
    /// Until called with nil, main-actor jobs queued on the calling thread belong to `owners` (a
    /// synchronous advance on the main queue: all that runs on its thread meanwhile is its own work).
    func ownMainActorJobsQueuedOnThisThread(by owners: MainActorJobOwners?)
    /// Whether ``runQueuedMainActorJobs(of:)`` can run them in this process.
    var canRunQueuedMainActorJobs: Bool { get }
}

/// The runtime hooks installed in this process (see ``SimulationRuntimeHooks``).
package enum InstalledRuntimeHooks {
    /// Set once by `DeviceSimRuntimeHooks.install()`, before the simulations that use it exist (a
    /// simulation's creation runs that install first, which orders this write before every read by
    /// that simulation's threads).
    nonisolated(unsafe) package static var hooks: (any SimulationRuntimeHooks)?

    /// Why nothing can be captured when no hooks are installed.
    static let notInstalledReason = "the runtime hooks that keep a `Task {}` started by simulated code in the simulation "
        + "are not linked into this program: link DeviceSimTesting (tests) or DeviceSimRuntimeHooks and call "
        + "`DeviceSimRuntimeHooks.install()` before making the simulation"
}

/// Whose queued main-actor jobs a synchronous advance runs early: the test's task, and the tasks whose
/// jobs it ran (see ``SimulationRuntimeHooks/runQueuedMainActorJobs(of:)``). One per advance, on the
/// main actor only.
package final class MainActorJobOwners {
    /// The tasks, as the runtime's task pointers (the first is the caller's, filled in by the first run).
    package let tasks: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    /// How many of ``tasks`` are set.
    package var count = 0
    /// How many tasks it can hold (more are not remembered: their later jobs run in Dispatch's order).
    package let capacity = 4_096

    package init() {
        tasks = .allocate(capacity: capacity)
        tasks.initialize(repeating: nil, count: capacity)
    }

    deinit { tasks.deallocate() }
}
