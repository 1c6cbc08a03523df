import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Which simulation executor the calling thread is draining right now (nil: none), in thread-local
/// storage so that the global-enqueue hook can ask without a lock.
enum SimulationThread {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        precondition(pthread_key_create(&key, nil) == 0, "cannot create the simulation's thread-local key")
        return key
    }()

    /// The executor the calling thread drains, as an unretained pointer (the executor outlives its drain).
    static var current: UnsafeMutableRawPointer? {
        get { pthread_getspecific(key) }
        set { pthread_setspecific(key, newValue) }
    }
}

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
/// The hook is not public API: if the runtime does not export it, nothing is captured and such work is
/// caught as an escape instead (``SimulationEscape``).
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

    /// The hook that was installed before ours, called for the jobs we do not capture.
    nonisolated(unsafe) private static var previousHook: Hook?

    /// Installs the hook once; false if the runtime does not export it.
    static let isInstalled: Bool = {
        guard let handle = dlopen(nil, RTLD_NOW), let symbol = dlsym(handle, "swift_task_enqueueGlobal_hook") else {
            return false
        }
        let slot = symbol.assumingMemoryBound(to: Hook?.self)
        previousHook = slot.pointee
        slot.pointee = { job, original in
            if GlobalWorkCapture.mainActorAdvances.load(ordering: .acquiring) > 0, MainQueue.isCurrent {
                if !GlobalWorkCapture.isAdvancingTask(job) {
                    GlobalWorkCapture.mainActorRedirects.add(1, ordering: .acquiringAndReleasing)
                }
                MainActor.shared.enqueue(job)
                return
            }
            if let pointer = SimulationThread.current {
                let executor = Unmanaged<SimulationExecutor>.fromOpaque(pointer).takeUnretainedValue()
                if executor.capturesGlobalWork {
                    executor.enqueueCaptured(job)
                    return
                }
            }
            if let previous = GlobalWorkCapture.previousHook { previous(job, original) } else { original(job) }
        }
        return true
    }()
}
