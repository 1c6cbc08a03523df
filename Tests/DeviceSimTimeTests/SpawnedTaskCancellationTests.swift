@testable import DeviceSimTime
import Synchronization
import Testing

/// A spawned task carries its origin and its one cancellation handler from its first instruction, and
/// only the task itself uses that handler: its child tasks and the tasks it starts see the values (they
/// are copied) but add cancellation records of their own.
@Suite struct SpawnedTaskCancellationTests {
    private struct Seen: Equatable {
        var origin: SimulationTaskOrigin?
        var ownHandler: Bool
    }

    @Test func theSpawnedTaskAloneUsesItsHandler() async throws {
        let scheduler = EventScheduler()
        let seen = Mutex<[String: Seen]>([:])
        let started = Mutex<Task<Seen, Never>?>(nil)
        let spawnLine = #line + 1
        scheduler.spawn {
            let mine = Seen(origin: SimulationTaskOrigin.current, ownHandler: SpawnedTaskCancellation.ofCurrentTask != nil)
            async let child = Seen(origin: SimulationTaskOrigin.current, ownHandler: SpawnedTaskCancellation.ofCurrentTask != nil)
            let ofChild = await child
            seen.withLock { $0["task"] = mine; $0["child"] = ofChild }
            started.withLock { $0 = Task { Seen(origin: SimulationTaskOrigin.current, ownHandler: SpawnedTaskCancellation.ofCurrentTask != nil) } }
        }
        // The values were bound only while the task was made, not in the caller afterwards.
        #expect(SimulationTaskOrigin.current == nil)
        #expect(SpawnedTaskCancellation.current == nil)
        try scheduler.runUntilIdle()

        let origin = SimulationTaskOrigin(fileID: "DeviceSimTimeTests/SpawnedTaskCancellationTests.swift", line: spawnLine)
        let byTask = seen.withLock { $0 }
        #expect(byTask["task"] == Seen(origin: origin, ownHandler: true))
        #expect(byTask["child"] == Seen(origin: origin, ownHandler: false))
        let ofStarted = await started.withLock { $0 }?.value
        #expect(ofStarted == Seen(origin: origin, ownHandler: false))
        #expect(SpawnedTaskCancellation.ofCurrentTask == nil)
    }

    @Test func eachSpawnedTaskHasAHandlerOfItsOwn() throws {
        let scheduler = EventScheduler()
        let clock = VirtualClock(scheduler)
        let log = EventLog()
        let first = scheduler.spawn {
            do { try await clock.sleep(for: .seconds(10)); log.append("first woke") }
            catch { log.append("first cancelled @\(clock.now)") }
        }
        scheduler.spawn {
            do { try await clock.sleep(for: .seconds(10)); log.append("second woke @\(clock.now)") }
            catch { log.append("second cancelled") }
        }
        scheduler.schedule(after: .seconds(4)) { first.cancel() }
        try scheduler.runUntilIdle()
        #expect(log.all == ["first cancelled @4.000s", "second woke @10.000s"])
    }
}
