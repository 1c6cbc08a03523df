import DeviceSimTime
import Synchronization
import Testing

/// An ordered log that tasks on the simulation's executor append to.
final class EventLog: @unchecked Sendable {
    private let entries = Mutex<[String]>([])
    func append(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
}

actor Counter {
    var value = 0
    func increment() -> Int {
        value += 1
        return value
    }
}

@Suite struct VirtualClockTests {
    @Test func aSleepingLoopRunsInVirtualTimeWithoutWaiting() throws {
        let scheduler = EventScheduler()
        let clock = VirtualClock(scheduler)
        let log = EventLog()
        scheduler.spawn {
            for tick in 1...86_400 {
                try await clock.sleep(for: .seconds(1))
                if tick % 21_600 == 0 { log.append("\(tick)@\(clock.now)") }
            }
        }
        let wall = ContinuousClock.now
        try scheduler.run(for: .seconds(86_400))
        #expect(log.all == ["21600@21600.000s", "43200@43200.000s", "64800@64800.000s", "86400@86400.000s"])
        #expect(ContinuousClock.now - wall < .seconds(60), "a day of 1 Hz sleeps must not take real time")
    }

    @Test func sameInstantWakeUpsFollowSchedulingOrder() throws {
        let scheduler = EventScheduler()
        let clock = VirtualClock(scheduler)
        let log = EventLog()
        for name in ["a", "b", "c"] {
            scheduler.spawn {
                for round in 0..<3 {
                    try await clock.sleep(until: VirtualInstant(offset: .seconds(round + 1)))
                    log.append("\(name)\(round)")
                }
            }
        }
        try scheduler.run(for: .seconds(5))
        #expect(log.all == ["a0", "b0", "c0", "a1", "b1", "c1", "a2", "b2", "c2"])
    }

    @Test func childTasksTaskGroupsAndActorsStayInVirtualTime() throws {
        let scheduler = EventScheduler()
        let clock = VirtualClock(scheduler)
        let counter = Counter()
        let log = EventLog()
        scheduler.spawn {
            async let early: Void = { try? await clock.sleep(for: .seconds(1)); log.append("async let @\(clock.now)") }()
            await withTaskGroup(of: Void.self) { group in
                for delay in [3, 2] {
                    group.addTask {
                        try? await clock.sleep(for: .seconds(delay))
                        let count = await counter.increment()
                        log.append("child \(delay)s #\(count) @\(clock.now)")
                    }
                }
            }
            await early
            log.append("done @\(clock.now)")
        }
        try scheduler.run(for: .seconds(10))
        #expect(log.all == ["async let @1.000s", "child 2s #1 @2.000s", "child 3s #2 @3.000s", "done @3.000s"])
        #expect(scheduler.executor.escapedCallCount == 0)
    }

    @Test func cancellingASleepingTaskEndsItsSleepAtOnce() throws {
        let scheduler = EventScheduler()
        let clock = VirtualClock(scheduler)
        let log = EventLog()
        let task = scheduler.spawn {
            do {
                try await clock.sleep(for: .seconds(100))
                log.append("woke")
            } catch is CancellationError {
                log.append("cancelled @\(clock.now)")
            }
        }
        scheduler.schedule(after: .seconds(5)) { task.cancel() }
        try scheduler.run(for: .seconds(10))
        #expect(log.all == ["cancelled @5.000s"])
    }

    @Test func aTimeoutRaceIsDecidedByVirtualTime() throws {
        let scheduler = EventScheduler()
        let clock = VirtualClock(scheduler)
        let log = EventLog()
        func race(work: Duration, timeout: Duration) async -> String {
            await withTaskGroup(of: String.self) { group in
                group.addTask { (try? await clock.sleep(for: work)).map { "work" } ?? "work cancelled" }
                group.addTask { (try? await clock.sleep(for: timeout)).map { "timeout" } ?? "timeout cancelled" }
                let first = await group.next()!
                group.cancelAll()
                return first
            }
        }
        scheduler.spawn {
            log.append(await race(work: .seconds(2), timeout: .seconds(5)) + " @\(clock.now)")
            log.append(await race(work: .seconds(9), timeout: .seconds(3)) + " @\(clock.now)")
        }
        try scheduler.run(for: .seconds(60))
        #expect(log.all == ["work @2.000s", "timeout @5.000s"])
    }

    @Test func asyncStreamConsumersSeeValuesWhenTheyAreSent() throws {
        let scheduler = EventScheduler()
        let clock = VirtualClock(scheduler)
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
        let log = EventLog()
        scheduler.spawn {
            for await value in stream { log.append("\(value)@\(clock.now)") }
            log.append("end@\(clock.now)")
        }
        for second in 1...3 { scheduler.schedule(after: .seconds(second)) { continuation.yield(second * 10) } }
        scheduler.schedule(after: .seconds(4)) { continuation.finish() }
        try scheduler.run(for: .seconds(10))
        #expect(log.all == ["10@1.000s", "20@2.000s", "30@3.000s", "end@4.000s"])
    }

    @Test func theSameProgramGivesTheSameOrderEveryTime() throws {
        func run() throws -> [String] {
            let scheduler = EventScheduler()
            let clock = VirtualClock(scheduler)
            let log = EventLog()
            for (name, period) in [("two", 2), ("three", 3), ("five", 5)] {
                scheduler.spawn {
                    while clock.now < VirtualInstant(offset: .seconds(30)) {
                        try await clock.sleep(for: .seconds(period))
                        log.append("\(name)@\(clock.now.seconds)")
                    }
                }
            }
            try scheduler.run(for: .seconds(60))
            return log.all
        }
        let reference = try run()
        #expect(reference.count == 15 + 10 + 6)
        for _ in 0..<200 { #expect(try run() == reference) }
    }

    @Test func sleepsFromOutsideTheSimulationAreCounted() async throws {
        let scheduler = EventScheduler()
        let clock = VirtualClock(scheduler)
        // A task on the global executor (escaped): its sleep still completes, through the mailbox, and is counted.
        let escaped = Task.detached { try await clock.sleep(for: .seconds(1)) }
        while scheduler.executor.escapedCallCount == 0 { await Task.yield() }
        try scheduler.run(for: .seconds(2))
        try await escaped.value
        #expect(scheduler.executor.escapedCallCount == 1)
    }

    @Test func theWallClockDriverRunsEventsWhenTheirTimeComes() throws {
        let scheduler = EventScheduler()
        let log = EventLog()
        scheduler.schedule(after: .milliseconds(100)) { log.append("100ms") }
        scheduler.schedule(after: .milliseconds(200)) { log.append("200ms") }
        let started = ContinuousClock.now
        try WallClockDriver().run(scheduler, for: .milliseconds(300))
        #expect(ContinuousClock.now - started >= .milliseconds(300))
        #expect(log.all == ["100ms", "200ms"])
        // Work submitted from another thread is picked up while the driver runs.
        let stop = StopSignal()
        let executor = scheduler.executor
        Thread.detachNewThread {
            executor.submit { log.append("submitted"); stop.raise() }
        }
        try WallClockDriver().run(scheduler, for: .seconds(30), stop: stop)
        #expect(log.all.last == "submitted")
    }

    /// Far faster than the events can run, the driver falls behind the wall clock; at the end every
    /// event due before it has still run, each at its own instant, and the clock stands at the end.
    @Test func aDriverBehindTheWallClockStillRunsEveryEventAtItsInstant() throws {
        let scheduler = EventScheduler()
        var instants: [VirtualInstant] = []
        let ticks = scheduler.repeating(every: .milliseconds(1)) { _ in instants.append(scheduler.now) }
        try WallClockDriver(speed: 100_000).run(scheduler, for: .seconds(10))
        ticks.cancel()
        #expect(instants.count == 10_000, "a tick a millisecond for 10 s: \(instants.count)")
        #expect(instants == (1...10_000).map { VirtualInstant(offset: .milliseconds($0)) })
        #expect(scheduler.now == VirtualInstant(offset: .seconds(10)))
    }

    /// An event that takes longer on the wall clock than the whole run lasts at the driver's speed: the
    /// clock stops at the run's end, so work the event hands on (a `Task`'s sleep, a submitted job) starts
    /// from the end, not from beyond it. (It once jumped to the wall clock's instant after the event: a
    /// 10 s run then stood at 30 s, and a wake due at 2 s of a main-actor run was moved past its end.)
    @Test func aSlowEventNeverCarriesTheClockPastTheRunsEnd() throws {
        let scheduler = EventScheduler()
        let handedOnAt = EventLog()
        let clock = VirtualClock(scheduler)
        scheduler.schedule(at: .zero) {
            let started = ContinuousClock.now
            while ContinuousClock.now - started < .milliseconds(30) {}   // 30 virtual seconds at 1,000x
            scheduler.executor.submit { handedOnAt.append("\(clock.now)") }
        }
        try WallClockDriver(speed: 1_000).run(scheduler, for: .seconds(10))
        #expect(scheduler.now == VirtualInstant(offset: .seconds(10)))
        #expect(handedOnAt.all == ["\(VirtualInstant(offset: .seconds(10)))"])
    }
}

import Foundation
