import DeviceSim
import DeviceSimTesting
import Testing

/// Driving time to instants, cancelled sleeps and the end-of-test check for pending work.
@Suite struct PendingWorkTests {
    @Test func aCancelledSleepDoesNotMoveTheClock() throws {
        let simulation = TestSimulation()
        let clock = simulation.clock
        let sleeper = simulation.spawn { try await clock.sleep(for: .seconds(10)) }
        try simulation.advance(by: .seconds(5))
        sleeper.cancel()
        try simulation.runUntilIdle()
        #expect(simulation.now == VirtualInstant(offset: .seconds(5)))
        #expect(sleeper.result.map { if case .failure(let error) = $0 { error is CancellationError } else { false } } == true)
        try simulation.expectNoPendingWork()
    }

    @Test func decimalSecondsAdvanceExactlyThatFar() throws {
        let simulation = TestSimulation()
        let clock = simulation.clock
        let woke = simulation.spawn { try await clock.sleep(until: VirtualInstant(offset: .milliseconds(4_999))) }
        try simulation.advance(by: .seconds(4.999))
        #expect(woke.isFinished)
        #expect(simulation.now.nanoseconds == 4_999_000_000)
    }

    @Test func advanceToAnInstantRunsEverythingDueThenAndRefusesThePast() throws {
        let simulation = TestSimulation()
        let clock = simulation.clock
        let woke = simulation.spawn { try await clock.sleep(until: VirtualInstant(offset: .seconds(90))) }
        try simulation.advance(to: VirtualInstant(offset: .seconds(89)))
        #expect(!woke.isFinished)
        try simulation.advance(to: VirtualInstant(offset: .seconds(90)))
        #expect(woke.isFinished)
        #expect(simulation.now == VirtualInstant(offset: .seconds(90)))
        #expect(throws: TestSimulationError.instantInThePast(VirtualInstant(offset: .seconds(30)), now: VirtualInstant(offset: .seconds(90)))) {
            try simulation.advance(to: VirtualInstant(offset: .seconds(30)))
        }
        try simulation.advance(to: simulation.now)  // now itself is fine: runs what is due now
    }

    @Test func expectNoPendingWorkNamesWhatIsStillWaitingAndWhereItStarted() throws {
        let simulation = TestSimulation()
        let clock = simulation.clock
        let retryLine = #line + 1
        let retry = simulation.spawn {
            for attempt in 0..<5 { try await clock.sleep(for: .seconds(1 << attempt)) }  // backoff 1, 2, 4, 8, 16 s
        }
        try simulation.advance(by: .seconds(10))  // woke at 1, 3, 7 s; the next sleep ends at 15 s
        let origin = SimulationTaskOrigin(fileID: "DeviceSimTestingTests/PendingWorkTests.swift", line: retryLine)
        #expect(simulation.pendingWork.map(\.description) == [
            "a sleep until 15.000s in the task spawned at \(origin)",
            "the task spawned at \(origin) has not finished",
        ])
        #expect(throws: TestSimulationError.self) { try simulation.expectNoPendingWork() }
        try simulation.advance(by: .seconds(21))  // 15 s, then 31 s: done
        #expect(retry.isFinished)
        try simulation.expectNoPendingWork()
        #expect(simulation.now == VirtualInstant(offset: .seconds(31)))
    }

    @Test func theWorldsOwnTimersAreNotPendingWork() throws {
        let simulation = TestSimulation()
        simulation.addDevice("walker", at: GeoCoordinate(latitude: 52.5145, longitude: 13.3501))
        try simulation.advance(by: .seconds(30))
        try simulation.expectNoPendingWork()  // the GPS keeps ticking, but no task of the test waits
    }
}
