import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The executor a simulation owns: async jobs of the simulation's tasks queue here and run, one at a
/// time and in the order they were enqueued, when the scheduler drains it.
///
/// It is both a `SerialExecutor` (actors may run on it) and a `TaskExecutor` (tasks created with
/// `Task(executorPreference:)`, and their child tasks, run on it). The scheduler advances virtual time only
/// when this executor has no runnable job left (the quiescence rule), so no one ever waits by yielding.
///
/// The executor also carries the simulation's mailbox: closures submitted from other threads (a gpsd
/// reader, a task cancellation handler) that run on the simulation's thread at the next drain.
public final class SimulationExecutor: SerialExecutor, TaskExecutor, @unchecked Sendable {
    private struct Queue: ~Copyable {
        var jobs: [UnownedJob] = []
        var jobsHead = 0
        var actions: [@Sendable () -> Void] = []
        var wake: (@Sendable () -> Void)?
    }

    private let queue = Mutex(Queue())
    private let drainingThread = Atomic<UInt>(0)
    private let escapedCount = Atomic<Int>(0)

    init() {}

    public func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        let wake = queue.withLock { queue -> (@Sendable () -> Void)? in
            queue.jobs.append(unowned)
            return queue.wake
        }
        wake?()
    }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    public func asUnownedTaskExecutor() -> UnownedTaskExecutor {
        UnownedTaskExecutor(ordinary: self)
    }

    public func checkIsolated() {
        precondition(isOnSimulationThread, "not running on the simulation's executor")
    }

    /// Submits a closure, from any thread, to run on the simulation's thread at the next drain.
    public func submit(_ action: @escaping @Sendable () -> Void) {
        let wake = queue.withLock { queue -> (@Sendable () -> Void)? in
            queue.actions.append(action)
            return queue.wake
        }
        wake?()
    }

    /// Whether the calling thread is the one draining this executor right now.
    public var isOnSimulationThread: Bool {
        drainingThread.load(ordering: .acquiring) == Self.currentThreadID
    }

    /// How many times simulated code was caught running off the simulation's executor (see ``VirtualClock``).
    public var escapedCallCount: Int { escapedCount.load(ordering: .relaxed) }

    func noteEscape() { escapedCount.add(1, ordering: .relaxed) }

    /// Whether a job or a submitted closure is waiting to run.
    var hasWork: Bool {
        queue.withLock { $0.jobsHead < $0.jobs.count || !$0.actions.isEmpty }
    }

    /// Installs the closure called (on the enqueuing thread) whenever work arrives; used by the
    /// wall-clock driver to wake up.
    func setWake(_ wake: (@Sendable () -> Void)?) {
        queue.withLock { $0.wake = wake }
    }

    /// Marks the calling thread as the simulation's thread until ``endDraining()``.
    func beginDraining() -> UInt {
        drainingThread.exchange(Self.currentThreadID, ordering: .acquiringAndReleasing)
    }

    func endDraining(restoring previous: UInt) {
        drainingThread.store(previous, ordering: .releasing)
    }

    /// Runs queued jobs and submitted closures until none is left; returns how many ran.
    func drain() -> Int {
        var ran = 0
        while true {
            let next: (job: UnownedJob?, actions: [@Sendable () -> Void]) = queue.withLock { queue in
                if !queue.actions.isEmpty {
                    let actions = queue.actions
                    queue.actions.removeAll(keepingCapacity: true)
                    return (nil, actions)
                }
                guard queue.jobsHead < queue.jobs.count else { return (nil, []) }
                let job = queue.jobs[queue.jobsHead]
                queue.jobsHead += 1
                if queue.jobsHead == queue.jobs.count {
                    queue.jobs.removeAll(keepingCapacity: true)
                    queue.jobsHead = 0
                }
                return (job, [])
            }
            if let job = next.job {
                job.runSynchronously(isolatedTo: asUnownedSerialExecutor(), taskExecutor: asUnownedTaskExecutor())
                ran += 1
            } else if !next.actions.isEmpty {
                for action in next.actions { action() }
                ran += next.actions.count
            } else {
                return ran
            }
        }
    }

    static var currentThreadID: UInt {
        #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
        #else
        UInt(pthread_self())
        #endif
    }
}
