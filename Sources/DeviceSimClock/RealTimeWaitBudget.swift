import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How long a wait for another thread has lasted, in real time, not counting the time in which the
/// process's shared thread pool had no thread free.
///
/// The simulation waits, in real time, for work it handed to other threads: a `URLSession` task that
/// Foundation starts on its own queue, a data task's completion handler on the session's delegate queue.
/// On Linux that work passes through Dispatch's global queues, which share their threads with the Swift
/// concurrency pool (one thread a core). When every one of those threads runs long CPU-bound work (other
/// tests running side by side, say), the handed-off work cannot start however long the simulation waits,
/// and the app code is not at fault. So the budget sends a probe to the global queue now and then and
/// does not count the time a probe spent waiting for a thread (beyond a short grace). A wait that outlasts
/// `limit` of counted time is the other thread's fault; `ceiling` bounds the whole wait in real time, so
/// a wait never hangs.
///
/// ```swift
/// var budget = RealTimeWaitBudget(limit: .seconds(10))
/// while !workArrived() {
///     if budget.isSpent() { return reportAbandoned() }
///     usleep(20)
/// }
/// ```
package struct RealTimeWaitBudget {
    /// A probe sent to the thread pool: when it ran (0: not yet).
    private final class Probe: Sendable {
        let ranAt = Atomic<UInt64>(0)
    }

    private let limit: UInt64
    private let ceiling: UInt64
    private let grace: UInt64
    private let firstProbeAfter: UInt64
    private let probeInterval: UInt64
    private let now: @Sendable () -> UInt64
    private let sendProbe: (@escaping @Sendable () -> Void) -> Void
    private let startedAt: UInt64
    /// Time that probes spent waiting for a thread beyond the grace, over the probes that ran.
    private var starved: UInt64 = 0
    private var probe: Probe?
    private var probeSentAt: UInt64 = 0

    /// A budget of `limit` counted real time, from now.
    ///
    /// - Parameters:
    ///   - limit: The counted time after which ``isSpent()`` is true.
    ///   - ceiling: The real time after which ``isSpent()`` is true however starved the pool was.
    ///   - grace: How long a probe may wait for a thread before its wait stops counting.
    ///   - firstProbeAfter: No probe is sent before the wait has lasted this long (most waits end within
    ///     microseconds and cost no probe).
    ///   - probeInterval: The least time between two probes.
    ///   - now: A monotonic clock in nanoseconds (read on the pool's threads too).
    ///   - sendProbe: Runs a probe on the thread pool (`DispatchQueue.global().async` by default).
    package init(
        limit: Duration,
        ceiling: Duration = .seconds(300),
        grace: Duration = .milliseconds(50),
        firstProbeAfter: Duration = .milliseconds(500),
        probeInterval: Duration = .milliseconds(10),
        now: @escaping @Sendable () -> UInt64 = RealTimeWaitBudget.monotonicNanoseconds,
        sendProbe: @escaping (@escaping @Sendable () -> Void) -> Void = { DispatchQueue.global().async(execute: $0) }
    ) {
        self.limit = Self.nanoseconds(limit)
        self.ceiling = Self.nanoseconds(ceiling)
        self.grace = Self.nanoseconds(grace)
        self.firstProbeAfter = Self.nanoseconds(firstProbeAfter)
        self.probeInterval = Self.nanoseconds(probeInterval)
        self.now = now
        self.sendProbe = sendProbe
        self.startedAt = now()
    }

    /// The real time counted so far: the time since the budget began, less what probes spent waiting for
    /// a thread beyond the grace (the one still waiting included). Sends a probe when one is due.
    package mutating func countedNanoseconds() -> UInt64 {
        counted(at: now())
    }

    /// Whether the wait has lasted `limit` of counted time, or `ceiling` of real time.
    package mutating func isSpent() -> Bool {
        let time = now()
        return counted(at: time) > limit || time &- startedAt > ceiling
    }

    private mutating func counted(at time: UInt64) -> UInt64 {
        let elapsed = time &- startedAt
        guard elapsed >= firstProbeAfter else { return elapsed }
        var waiting: UInt64 = 0
        if let probe {
            let ranAt = probe.ranAt.load(ordering: .acquiring)
            if ranAt == 0 {
                waiting = excess(time &- probeSentAt)
            } else {
                // Each probe's wait is taken off once; the next is sent when the interval is up.
                starved += excess(ranAt &- probeSentAt)
                self.probe = nil
            }
        }
        if probe == nil, time &- probeSentAt >= probeInterval { send(at: time) }
        return elapsed &- min(elapsed, starved &+ waiting)
    }

    private func excess(_ wait: UInt64) -> UInt64 { wait > grace ? wait - grace : 0 }

    private mutating func send(at time: UInt64) {
        let probe = Probe()
        self.probe = probe
        probeSentAt = time
        let now = self.now
        sendProbe { probe.ranAt.store(max(1, now()), ordering: .releasing) }
    }

    private static func nanoseconds(_ duration: Duration) -> UInt64 {
        UInt64(max(0, duration.wholeNanoseconds))
    }

    /// `CLOCK_MONOTONIC` in nanoseconds.
    package static func monotonicNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
