import DeviceSimTime
import Synchronization
import Testing

/// A cancelled sleep leaves nothing behind: the clock does not move to its deadline and no event is
/// left pending.
@Suite struct CancelledSleepTests {
    @Test func aSleepCancelledInTheSimulationDoesNotMoveTheClock() throws {
        let scheduler = EventScheduler()
        let clock = VirtualClock(scheduler)
        let log = EventLog()
        let task = scheduler.spawn {
            do {
                try await clock.sleep(for: .seconds(10))
                log.append("woke")
            } catch {
                log.append("cancelled @\(clock.now)")
            }
        }
        scheduler.schedule(after: .seconds(5)) { task.cancel() }
        try scheduler.runUntilIdle()
        #expect(log.all == ["cancelled @5.000s"])
        #expect(scheduler.now == VirtualInstant(offset: .seconds(5)))
        #expect(!scheduler.hasPendingEvents)
    }

    @Test func aSleepCancelledFromTheTestDoesNotMoveTheClock() throws {
        let scheduler = EventScheduler()
        let clock = VirtualClock(scheduler)
        let log = EventLog()
        let task = scheduler.spawn {
            do {
                try await clock.sleep(for: .seconds(10))
                log.append("woke")
            } catch {
                log.append("cancelled @\(clock.now)")
            }
        }
        try scheduler.run(for: .seconds(5))
        task.cancel()                       // from the test's thread, between two runs
        try scheduler.runUntilIdle()
        #expect(log.all == ["cancelled @5.000s"])
        #expect(scheduler.now == VirtualInstant(offset: .seconds(5)))
        #expect(scheduler.nextEventInstant == nil)
    }

    @Test func theLoserOfATimeoutRaceLeavesNoTimerBehind() throws {
        let scheduler = EventScheduler()
        let clock = VirtualClock(scheduler)
        let log = EventLog()
        scheduler.spawn {
            let winner = await withTaskGroup(of: String.self) { group in
                group.addTask { (try? await clock.sleep(for: .seconds(2))).map { "work" } ?? "work cancelled" }
                group.addTask { (try? await clock.sleep(for: .seconds(30))).map { "timeout" } ?? "timeout cancelled" }
                let first = await group.next()!
                group.cancelAll()
                return first
            }
            log.append("\(winner) @\(clock.now)")
        }
        try scheduler.runUntilIdle()
        #expect(log.all == ["work @2.000s"])
        #expect(scheduler.now == VirtualInstant(offset: .seconds(2)))
    }
}

@Suite struct PendingSleepTests {
    @Test func pendingSleepsListWhatIsStillWaitingAndWhere() throws {
        let scheduler = EventScheduler()
        let clock = VirtualClock(scheduler)
        let shortLine = #line + 1
        let short = scheduler.spawn { try await clock.sleep(for: .seconds(3)) }
        let longLine = #line + 1
        let long = scheduler.spawn { try await clock.sleep(for: .seconds(10)) }
        try scheduler.runCurrent()
        #expect(scheduler.pendingSleeps.map(\.deadline.offset) == [.seconds(3), .seconds(10)])
        #expect(scheduler.pendingSleeps.map { $0.origin?.line } == [shortLine, longLine])
        #expect(scheduler.unfinishedTasks.map(\.line) == [shortLine, longLine])
        try scheduler.run(for: .seconds(3))
        #expect(scheduler.pendingSleeps.map(\.deadline.offset) == [.seconds(10)])
        #expect(scheduler.unfinishedTasks.map(\.line) == [longLine])
        #expect(scheduler.unfinishedTasks.first?.fileID == "DeviceSimTimeTests/CancelledSleepTests.swift")
        long.cancel()
        try scheduler.runCurrent()
        #expect(scheduler.pendingSleeps.isEmpty)
        #expect(scheduler.unfinishedTasks.isEmpty)
        _ = short
    }

    @Test func aTaskStartedInsideASpawnedTaskKnowsWhereItCameFrom() async throws {
        let scheduler = EventScheduler()
        let inner = Mutex<Task<SimulationTaskOrigin?, Never>?>(nil)
        let spawnLine = #line + 1
        scheduler.spawn {
            inner.withLock { $0 = Task { SimulationTaskOrigin.current } }
        }
        try scheduler.runCurrent()
        // A Task {} copies task-local values, so even a task that escapes the simulation names its origin.
        let origin = await inner.withLock { $0 }?.value
        #expect(origin == SimulationTaskOrigin(fileID: "DeviceSimTimeTests/CancelledSleepTests.swift", line: spawnLine))
    }
}
