import DeviceSim
import DeviceSimTesting
import Testing

/// A check-in view model as an app writes it: its work runs in `Task {}`s on the main actor, sleeping on
/// the injected clock.
@MainActor final class DwellCheckInViewModel {
    private(set) var checkIns: [VirtualInstant] = []
    private let clock: VirtualClock

    init(clock: VirtualClock) {
        self.clock = clock
    }

    /// Checks in after a 60 s dwell (through `any Clock<Duration>`, as an app's injected clock is held).
    func entered() {
        let clock: any Clock<Duration> = self.clock
        Task {
            try await clock.sleep(for: .seconds(60))
            checkIns.append(self.clock.now)
        }
    }
}

/// A synchronous `advance` called on the main actor runs the main actor's work, as `try await` does
/// (issue 45: it advanced 400 s past a view model's `Task {}`s that had not started yet, and ran none of
/// them, silently): the tasks queued before it run first, and the code after their sleeps runs at its
/// virtual instant.
@MainActor @Suite struct SynchronousAdvanceOnTheMainActorTests {
    @Test func runsTheViewModelsTasksThatHadNotStartedYet() throws {
        let simulation = TestSimulation()
        let model = DwellCheckInViewModel(clock: simulation.clock)
        model.entered()                                     // its Task {} has not started yet
        try simulation.advance(by: .seconds(400))
        #expect(model.checkIns == [VirtualInstant(offset: .seconds(60))])
        #expect(simulation.now == VirtualInstant(offset: .seconds(400)))
        try simulation.expectNoPendingWork()
    }

    /// The same from a synchronous helper an `async` test calls (the helper cannot suspend either).
    @Test func runsThemFromASynchronousHelperOfAnAsyncTest() async throws {
        let simulation = TestSimulation()
        let model = DwellCheckInViewModel(clock: simulation.clock)
        model.entered()
        model.entered()
        func advanceSynchronously() throws { try simulation.advance(by: .seconds(30)) }
        try advanceSynchronously()
        #expect(model.checkIns.isEmpty)
        #expect(simulation.pendingWork.count == 2)          // both sleep until 60 s
        try advanceSynchronously()
        #expect(model.checkIns == [VirtualInstant(offset: .seconds(60)), VirtualInstant(offset: .seconds(60))])
        try simulation.expectNoPendingWork()
    }

    /// A main-actor sleep that wakes during a synchronous advance goes on at its instant (it used to be
    /// stranded until the test suspended).
    @Test func theCodeAfterAMainActorSleepRunsAtItsInstant() async throws {
        let simulation = TestSimulation()
        let model = DwellCheckInViewModel(clock: simulation.clock)
        model.entered()
        try await simulation.advance(by: .seconds(1))       // its task sleeps until 60 s
        func advanceTo59() throws { try simulation.advance(to: VirtualInstant(offset: .seconds(59))) }
        func runCurrent() throws { try simulation.runCurrent() }
        func advanceBy1() throws { try simulation.advance(by: .seconds(1)) }
        try advanceTo59()
        #expect(model.checkIns.isEmpty)
        try runCurrent()
        try advanceBy1()
        #expect(model.checkIns == [VirtualInstant(offset: .seconds(60))])
        try simulation.expectNoPendingWork()
    }

    /// `runUntilIdle()` runs them too, and the same seed gives the same instants every time.
    @Test func runUntilIdleRunsThemInOrder() throws {
        let simulation = TestSimulation()
        let model = DwellCheckInViewModel(clock: simulation.clock)
        model.entered()
        try simulation.advance(by: .seconds(10))
        model.entered()
        try simulation.runUntilIdle()
        #expect(model.checkIns == [VirtualInstant(offset: .seconds(60)), VirtualInstant(offset: .seconds(70))])
        #expect(simulation.now == VirtualInstant(offset: .seconds(70)))
    }

    /// A simulation that main-actor code does not use (its flow runs in a spawned task) still advances
    /// synchronously from the main actor.
    @Test func aSimulationOnlyItsOwnTasksUseStillAdvancesSynchronously() throws {
        let simulation = TestSimulation()
        let clock = simulation.clock
        let done = simulation.spawn {
            try await clock.sleep(for: .seconds(60))
            return "checked in"
        }
        try simulation.advance(by: .seconds(400))
        #expect(try done.result?.get() == "checked in")
        #expect(simulation.now == VirtualInstant(offset: .seconds(400)))
        try simulation.expectNoPendingWork()
    }
}
