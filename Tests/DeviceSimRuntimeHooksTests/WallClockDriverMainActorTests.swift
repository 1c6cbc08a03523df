import DeviceSimRuntimeHooks
import DeviceSimTime
import Testing

/// A `@MainActor` view model, as `devicesim serve` and `live` run one: a `Task {}` that sleeps on the
/// clock it is given (as `any Clock<Duration>`, so the sleep leaves for the global executor).
@MainActor private final class DwellingModel {
    private(set) var log: [String] = []
    private let clock: any Clock<Duration>

    init(clock: any Clock<Duration>) { self.clock = clock }

    func arrive() {
        log.append("arrived")
        Task {
            try? await clock.sleep(for: .seconds(2))
            log.append("checked in")
        }
    }
}

/// `WallClockDriver.runOnMainActor`, in this shared test process: nothing here blocks a thread (the
/// driver waits with a Dispatch timer, the test awaits on the main actor), and every run is bounded in
/// virtual time, at a speed that makes it last milliseconds, so a broken driver fails instead of
/// stalling other suites. The scenario-level runs (serve, live, a blocked main thread) are checked in
/// processes of their own (EndToEndTests/MainActorWallClockAndWatchdogTests).
@Suite struct WallClockDriverMainActorTests {
    init() { DeviceSimRuntimeHooks.install() }

    @MainActor @Test func mainActorWorkAnEventWakesRunsBeforeTheDriverReturns() async throws {
        let scheduler = EventScheduler()
        scheduler.executor.capturesGlobalWork = true
        let model = DwellingModel(clock: VirtualClock(scheduler))
        // Arrives in the first event; its Task starts, and its sleep is taken, inside the run.
        scheduler.schedule(at: .zero) { MainActor.assumeIsolated { model.arrive() } }
        // A second of wall time: the sleep must be taken before the clock passes 98 s, so a loaded
        // machine has most of a second of slack (at a million times real time it had 8 ms and failed in CI).
        try await WallClockDriver(speed: 100).runOnMainActor(scheduler, for: .seconds(100))
        #expect(model.log == ["arrived", "checked in"], "the wake at 2 s ran, and the main-actor code after it, within the 100 s run")
        #expect(scheduler.now == VirtualInstant(offset: .seconds(100)))
        #expect(scheduler.nextEventInstant == nil, "nothing left pending")
        #expect(!scheduler.executor.isInsideAMainActorAdvance, "the main actor no longer counts as the simulation's thread")
    }

    @MainActor @Test func aStopSignalRaisedByAnEventEndsTheRunThere() async throws {
        let scheduler = EventScheduler()
        let stop = StopSignal()
        var ticks = 0
        func tick() {
            ticks += 1
            if ticks == 3 { stop.raise() }
            scheduler.schedule(after: .seconds(1)) { tick() }
        }
        scheduler.schedule(at: .zero) { tick() }
        try await WallClockDriver(speed: 1_000).runOnMainActor(scheduler, for: .seconds(3_600), stop: stop)
        #expect(ticks == 3, "no event after the stop")
        #expect(scheduler.now < VirtualInstant(offset: .seconds(3_600)), "it returned at the stop, not at the end")
    }

    @MainActor @Test func aStopRequestedBySimulatedCodeThrowsWithItsReason() async throws {
        let scheduler = EventScheduler()
        scheduler.schedule(at: VirtualInstant(offset: .seconds(1))) { scheduler.stop(because: "the log's time never advances") }
        do {
            try await WallClockDriver(speed: 1_000_000).runOnMainActor(scheduler, for: .seconds(10))
            Issue.record("the run went on to its end")
        } catch SchedulerError.stopped(let reason, _) {
            #expect(reason == "the log's time never advances")
        }
    }
}
