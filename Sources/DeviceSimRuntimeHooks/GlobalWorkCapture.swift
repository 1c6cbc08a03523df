import CRealClockWatch
import DeviceSimTime
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Keeps work that simulated code sends to the global concurrent executor inside the simulation.
///
/// A `Task {}` or `Task.detached {}` started by simulated code, and a nonisolated async function called
/// from `@MainActor` code (`VirtualClock.sleep` itself, reached through `any Clock<Duration>`), are
/// enqueued on the global executor, where they would run on another thread at a time set by thread
/// timing. Swift 6.3.1 has no public way to change that, but the runtime calls
/// `swift_task_enqueueGlobal_hook` for every such enqueue. The hook installed here looks only at the
/// enqueuing thread: when that thread is draining a simulation executor whose
/// ``SimulationExecutor/capturesGlobalWork`` is on, the job joins that executor's queue (and runs in the
/// same drain, deterministically); every other job goes on exactly as before, to the hook that was
/// installed before (if any) or to the global executor. So parallel tests are not affected: only the
/// thread that is running a simulation, and only while it runs it, is redirected.
///
/// While a simulation advances from the main actor, jobs that main-actor code sends to the global
/// executor go to the main actor's queue instead (see ``mainActorAdvances``).
///
/// Other libraries set the same process-wide hook: swift-concurrency-extras' `withMainSerialExecutor`
/// replaces it with one that sends every job to `MainActor.shared.enqueue`, without calling the hook it
/// replaced, and when it returns it installs its own again whenever it found any hook installed. So
/// DeviceSim also installs `swift_task_enqueueMainExecutor_hook`, which sees exactly those explicit
/// `MainActor.shared.enqueue` calls (main-actor hops do not reach it): a job that such a hook sends to
/// the main actor from a thread draining a simulation joins the simulation all the same. And every
/// drain puts DeviceSim's global hook back in front if it was replaced, keeping the replacement as the
/// hook it forwards to. Either hook alone keeps the simulation's work inside; both orders work.
///
/// The hooks are not public API: if the runtime does not export the global one, nothing is captured,
/// and ``unavailableReason`` says why (`TestSimulation` then fails its next advance with that reason
/// unless the test turned capture off).
enum GlobalWorkCapture {
    typealias Original = @convention(thin) (UnownedJob) -> Void
    typealias Hook = @convention(thin) (UnownedJob, Original) -> Void

    /// How many simulations are advancing from the main actor right now (see
    /// ``EventScheduler/runOnMainActor(until:)``). While there is one, jobs that main-actor code sends to
    /// the global executor (main-actor code calling a nonisolated async function, such as
    /// `VirtualClock.sleep` through `any Clock<Duration>`) go to the back of the main actor's queue
    /// instead and run there in first-in, first-out order, where the advancing simulation
    /// sees them.
    static let mainActorAdvances = Atomic<Int>(0)

    /// How many jobs have been sent to the main actor's queue that way: each may be one step of a chain
    /// of hops (a nonisolated async function calling another) that has not reached the simulation yet,
    /// so an advancing simulation settles again whenever this changed.
    static let mainActorRedirects = Atomic<UInt64>(0)

    /// The tasks advancing a simulation from the main actor: their own resumptions (after waiting for
    /// the main queue) also pass through the global executor, and are not work to wait for.
    private static let advancingTasks = Mutex<Set<UInt>>([])

    /// Marks the calling task as advancing a simulation until ``endAdvancing(_:)``; returns its key.
    static func beginAdvancing() -> UInt? {
        reassert()
        let key = withUnsafeCurrentTask { $0.map { unsafeBitCast($0, to: UInt.self) } }
        if let key { _ = advancingTasks.withLock { $0.insert(key) } }
        mainActorAdvances.add(1, ordering: .acquiringAndReleasing)
        return key
    }

    static func endAdvancing(_ key: UInt?) {
        mainActorAdvances.subtract(1, ordering: .acquiringAndReleasing)
        if let key { _ = advancingTasks.withLock { $0.remove(key) } }
    }

    /// Whether `job` is an advancing task resuming (a task is its own job).
    static func isAdvancingTask(_ job: UnownedJob) -> Bool {
        let key = unsafeBitCast(job, to: UInt.self)
        return advancingTasks.withLock { $0.contains(key) }
    }

    // MARK: The runtime's hook slots

    /// Where the runtime keeps its two hooks (nil: not exported), found once.
    private static var slots: RuntimeHookSlots { RuntimeHookSlots.process }

    /// The hooks that were installed before ours, as bit patterns (0: none), called for the jobs we do
    /// not capture. Atomic: hooks run on any thread while a drain may put ours back in front.
    private static let previousGlobal = Atomic<UInt>(0)
    private static let previousMain = Atomic<UInt>(0)
    /// Serializes installing (reading a slot, remembering it, writing ours).
    private static let installing = Mutex<Void>(())

    /// Why jobs cannot be captured on this runtime (nil: they can).
    static var unavailableReason: String? { slots.global == nil ? slots.missingReason : nil }

    /// Whether the global hook can be installed.
    static var isInstalled: Bool { unavailableReason == nil && installedOnce }

    private static let installedOnce: Bool = {
        reassert()
        return slots.global != nil
    }()

    /// Puts our hooks in their slots unless they are there already, remembering what was there (unless
    /// it is ours) as the hook to forward to. Called when capture is turned on and at every drain.
    static func reassert() {
        installing.withLock { _ in
            if let slot = slots.global, bits(slot.pointee) != bits(globalHook) {
                previousGlobal.store(bits(slot.pointee), ordering: .releasing)
                slot.pointee = globalHook
            }
            if let slot = slots.main, bits(slot.pointee) != bits(mainHook) {
                previousMain.store(bits(slot.pointee), ordering: .releasing)
                slot.pointee = mainHook
            }
        }
    }

    private static func bits(_ hook: Hook?) -> UInt { unsafeBitCast(hook, to: UInt.self) }

    private static func hook(fromBits bits: UInt) -> Hook? { unsafeBitCast(bits, to: Hook?.self) }

    /// The executor draining on the calling thread, if it captures global work.
    private static var capturingExecutor: SimulationExecutor? {
        guard let executor = SimulationThread.currentExecutor, executor.capturesGlobalWork else { return nil }
        return executor
    }

    /// Jobs for the global executor: captured by the simulation draining on this thread; sent to the
    /// main actor's queue from main-actor code while a simulation advances from the main actor; else
    /// passed on unchanged.
    private static let globalHook: Hook = { job, original in
        if let executor = GlobalWorkCapture.capturingExecutor {
            executor.enqueueCaptured(job)
            return
        }
        if GlobalWorkCapture.mainActorAdvances.load(ordering: .acquiring) > 0, MainQueue.isCurrent {
            GlobalWorkCapture.noteMainActorRedirect(job)
            MainActor.shared.enqueue(job)
            return
        }
        if let previous = GlobalWorkCapture.hook(fromBits: GlobalWorkCapture.previousGlobal.load(ordering: .acquiring)) {
            previous(job, original)
        } else {
            original(job)
        }
    }

    /// Jobs explicitly enqueued on the main actor (`MainActor.shared.enqueue`, as another library's
    /// global hook does): captured by the simulation draining on this thread, else passed on.
    private static let mainHook: Hook = { job, original in
        if let executor = GlobalWorkCapture.capturingExecutor {
            executor.enqueueCaptured(job)
            return
        }
        if GlobalWorkCapture.mainActorAdvances.load(ordering: .acquiring) > 0, MainQueue.isCurrent {
            GlobalWorkCapture.noteMainActorRedirect(job)
        }
        if let previous = GlobalWorkCapture.hook(fromBits: GlobalWorkCapture.previousMain.load(ordering: .acquiring)) {
            previous(job, original)
        } else {
            original(job)
        }
    }

    private static func noteMainActorRedirect(_ job: UnownedJob) {
        if !isAdvancingTask(job) { mainActorRedirects.add(1, ordering: .acquiringAndReleasing) }
    }
}

/// The addresses of the runtime's enqueue hooks, looked up by name.
struct RuntimeHookSlots: @unchecked Sendable {
    let global: UnsafeMutablePointer<GlobalWorkCapture.Hook?>?
    let main: UnsafeMutablePointer<GlobalWorkCapture.Hook?>?
    let missingReason: String

    /// The hooks of the running process, looked up once.
    static let process = find()

    /// Why jobs cannot be captured with these slots (nil: they can).
    var unavailableReason: String? { global == nil ? missingReason : nil }

    /// Looks the hooks up in the running process: by name, or, in a binary that has the runtime in it
    /// and does not export it (linked with `-static-stdlib`), as linked.
    static func find() -> RuntimeHookSlots {
        find { name in
            #if canImport(Darwin)
            if let symbol = dlsym(RTLD_DEFAULT, name) { return symbol }
            #endif
            if let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, name) { return symbol }
            #if os(Linux)
            switch name {
            case "swift_task_enqueueGlobal_hook": return devicesim_linked_enqueue_hook(0)
            case "swift_task_enqueueMainExecutor_hook": return devicesim_linked_enqueue_hook(1)
            default: return nil
            }
            #else
            return nil
            #endif
        }
    }

    /// Looks the hooks up through `lookup` (a symbol's address by name, nil if absent).
    static func find(_ lookup: (String) -> UnsafeMutableRawPointer?) -> RuntimeHookSlots {
        let global = lookup("swift_task_enqueueGlobal_hook")
        let main = lookup("swift_task_enqueueMainExecutor_hook")
        return RuntimeHookSlots(
            global: global?.assumingMemoryBound(to: GlobalWorkCapture.Hook?.self),
            main: main?.assumingMemoryBound(to: GlobalWorkCapture.Hook?.self),
            missingReason: "this Swift runtime does not export swift_task_enqueueGlobal_hook, so a `Task {}` started "
                + "by simulated code cannot be kept in the simulation: start such tasks with `simulation.spawn` / "
                + "`Task(executorPreference: simulation.executor)`, and turn capture off "
                + "(`simulation.capturesGlobalWork = false`) to say that you have"
        )
    }
}
