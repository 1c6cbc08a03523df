import CRealClockWatch
import DeviceSimTime

/// The parts of DeviceSim that reach below the Swift language, for test targets, the scenario runner and
/// the command line only: the Swift runtime's enqueue hooks, looked up by name, that keep a `Task {}`
/// started by simulated code inside its simulation (see `GlobalWorkCapture`), and the watch on Dispatch
/// timers that reports a sleep on a real clock (an interposed `dispatch_after_f`, see `RealClockWatch`).
///
/// App targets never link this module: `DeviceSimCore` and the mirrored Apple frameworks hold no lookup
/// of a private symbol and interpose nothing. `DeviceSimTesting` and the runner install it for you.
///
/// ```swift
/// import DeviceSimRuntimeHooks
///
/// DeviceSimRuntimeHooks.install()              // before making the first simulation
/// let scheduler = EventScheduler()
/// scheduler.executor.capturesGlobalWork = true  // now possible
/// ```
public enum DeviceSimRuntimeHooks {
    /// Installs the hooks for every simulation made afterwards in this process (idempotent, thread-safe).
    public static func install() { _ = installed }

    private static let installed: Void = {
        InstalledRuntimeHooks.hooks = ProcessRuntimeHooks(slots: .process)
        _ = RealClockWatch.isWatching     // the Dispatch timer observer, installed once
        _ = RealClockWatch.holdsMainQueueJobs   // main-actor jobs a synchronous advance may run early
    }()
}

/// The process's runtime hooks, as DeviceSimTime's executors use them.
final class ProcessRuntimeHooks: SimulationRuntimeHooks {
    /// Where the runtime's hook slots are (the process's; a test may give slots of a runtime without them).
    let slots: RuntimeHookSlots

    init(slots: RuntimeHookSlots) { self.slots = slots }

    var globalWorkCaptureUnavailableReason: String? {
        if let reason = slots.unavailableReason { return reason }
        return GlobalWorkCapture.isInstalled ? nil : "the runtime's global-enqueue hook could not be installed"
    }

    func reassertGlobalWorkCapture() { GlobalWorkCapture.reassert() }

    func beginMainActorAdvance(_ executor: SimulationExecutor) -> UInt? {
        RealClockWatch.beginMainActorAdvance(executor)
        return GlobalWorkCapture.isInstalled ? GlobalWorkCapture.beginAdvancing() : nil
    }

    func endMainActorAdvance(_ executor: SimulationExecutor, key: UInt?) {
        if GlobalWorkCapture.isInstalled { GlobalWorkCapture.endAdvancing(key) }
        RealClockWatch.endMainActorAdvance(executor)
    }

    var mainActorRedirects: UInt64 { GlobalWorkCapture.mainActorRedirects.load(ordering: .acquiring) }

    var watchesRealClocks: Bool { RealClockWatch.isWatching }

    var watchesTheMainQueue: Bool { RealClockWatch.isWatchingTheMainQueue }

    var canRunQueuedMainActorJobs: Bool { RealClockWatch.holdsMainQueueJobs }

    func ownMainActorJobsQueuedOnThisThread(by owners: MainActorJobOwners?) {
        devicesim_own_main_queue_jobs_queued_here(owners?.tasks)
    }

    func runQueuedMainActorJobs(of owners: MainActorJobOwners) -> Int? {
        guard RealClockWatch.holdsMainQueueJobs, MainQueue.isCurrent else { return nil }
        return Int(devicesim_run_held_main_queue_jobs(owners.tasks, &owners.count, owners.capacity))
    }
}
