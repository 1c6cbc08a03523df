import DeviceSimClock
import Synchronization
import Testing

/// The budget of a real-time wait for another thread: time in which the thread pool had no thread free
/// does not count, so a wait for work stuck behind other CPU-bound work is not called abandoned.
struct RealTimeWaitBudgetTests {
    /// A clock the test sets, and a thread pool the test runs (or holds) the probes of.
    final class FakePool: Sendable {
        let time = Mutex<UInt64>(0)
        let held = Mutex<[@Sendable () -> Void]>([])
        let starved = Mutex(false)
        let probesSent = Mutex(0)

        func now() -> UInt64 { time.withLock { $0 } }

        func send(_ probe: @escaping @Sendable () -> Void) {
            probesSent.withLock { $0 += 1 }
            if starved.withLock({ $0 }) { held.withLock { $0.append(probe) } } else { probe() }
        }

        /// Runs the probes held while the pool was starved, at the current time.
        func free() {
            starved.withLock { $0 = false }
            for probe in held.withLock({ list in defer { list.removeAll() }; return list }) { probe() }
        }

        func budget(
            limit: Duration = .seconds(10), ceiling: Duration = .seconds(300), grace: Duration = .milliseconds(50),
            probeInterval: Duration = .milliseconds(10)
        ) -> RealTimeWaitBudget {
            RealTimeWaitBudget(
                limit: limit, ceiling: ceiling, grace: grace, probeInterval: probeInterval, now: { self.now() }, sendProbe: { self.send($0) })
        }

        /// Polls `budget` every `step` milliseconds up to `milliseconds` of fake time; the time it was
        /// first spent, if it was.
        func poll(_ budget: inout RealTimeWaitBudget, until milliseconds: UInt64, step: UInt64 = 5) -> UInt64? {
            while now() < milliseconds * 1_000_000 {
                time.withLock { $0 += step * 1_000_000 }
                if budget.isSpent() { return now() / 1_000_000 }
            }
            return nil
        }
    }

    /// With the pool free, the budget is spent just after its limit of real time.
    @Test func withThreadsFreeTheLimitIsRealTime() {
        let pool = FakePool()
        var budget = pool.budget()
        #expect(pool.poll(&budget, until: 10_000) == nil)
        #expect(pool.poll(&budget, until: 10_100) == 10_005)
        #expect(pool.probesSent.withLock { $0 } > 100)
    }

    /// A wait that ends within the first half second sends no probe.
    @Test func aShortWaitSendsNoProbe() {
        let pool = FakePool()
        var budget = pool.budget()
        #expect(pool.poll(&budget, until: 400) == nil)
        #expect(pool.probesSent.withLock { $0 } == 0)
    }

    /// While no probe gets a thread, the time beyond the grace does not count: 30 s of a starved pool,
    /// then the limit counts on from where it stood.
    @Test func timeWithNoThreadFreeDoesNotCount() {
        let pool = FakePool()
        var budget = pool.budget()
        #expect(pool.poll(&budget, until: 2_000) == nil)
        pool.starved.withLock { $0 = true }
        #expect(pool.poll(&budget, until: 32_000) == nil)
        let counted = budget.countedNanoseconds() / 1_000_000
        #expect((2_000...2_100).contains(counted), "counted \(counted) ms of 32,000")
        pool.free()
        // The probe held was sent at 2,010 ms (one every 10 ms) and ran at 32,000: its 29,990 ms less
        // the 50 ms grace are not counted, so 10 s are counted at 39,940 ms, seen at the next poll.
        #expect(pool.poll(&budget, until: 50_000) == 39_945)
    }

    /// A probe's wait is taken off once, however many polls pass before the next probe is sent (here a
    /// probe every 100 ms, a grace of 5 ms, a poll every 5 ms).
    @Test func aProbesWaitIsTakenOffOnce() {
        let pool = FakePool()
        var budget = pool.budget(grace: .milliseconds(5), probeInterval: .milliseconds(100))
        #expect(pool.poll(&budget, until: 1_000) == nil)
        pool.starved.withLock { $0 = true }
        #expect(pool.poll(&budget, until: 1_150) == nil)
        pool.free()
        #expect(pool.poll(&budget, until: 1_300) == nil)
        // The probe held was sent at 1,100 ms and ran at 1,150: 45 ms are not counted (not 45 ms at each of
        // the nine polls before the next probe is due).
        #expect(budget.countedNanoseconds() / 1_000_000 == 1_300 - 45)
    }

    /// A pool that never frees a thread still ends the wait at the ceiling.
    @Test func theCeilingBoundsAStarvedWait() {
        let pool = FakePool()
        var budget = pool.budget(ceiling: .seconds(60))
        pool.starved.withLock { $0 = true }
        #expect(pool.poll(&budget, until: 59_995) == nil)
        #expect(pool.poll(&budget, until: 61_000) == 60_005)
        #expect(pool.probesSent.withLock { $0 } == 1, "one probe waits; no more are sent while it does")
    }
}
