import DeviceSim
import DeviceSimTesting
import Testing

/// Every wait that needs virtual time and cannot get it ends, per simulation, whatever else advances
/// from the main actor meanwhile (issue 45: a `@MainActor` test awaiting its clock without advancing hung
/// while a parallel `@MainActor` test advanced).
@MainActor @Suite struct NoHangTests {
    /// What a task's sleep ended with.
    final class Outcome {
        var text: String?
    }

    @Test func aSleepOnOneSimulationsClockWhileAnotherAdvancesFromTheMainActorFailsAtOnce() async throws {
        let idle = TestSimulation()
        let advancing = TestSimulation()
        let idleClock = idle.clock
        let outcome = Outcome()
        // Main-actor code sleeping on the idle simulation's clock, run while the other one advances from
        // the main actor (as a parallel @MainActor test does): nothing will ever advance the idle one.
        let task = Task {
            do {
                try await idleClock.sleep(for: .seconds(1))
                outcome.text = "woke"
            } catch {
                outcome.text = "\(error)"
            }
        }
        try await advancing.advance(by: .seconds(5))
        await task.value
        #expect(outcome.text?.hasPrefix("not deterministic") == true)
        #expect(idle.pendingWork.isEmpty)
        #expect(throws: TestSimulationError.self) { try idle.advance(by: .seconds(1)) }
    }

    @Test func aCancelledSleepEndsAtOnceWhenNothingAdvances() async throws {
        let simulation = TestSimulation()
        let clock = simulation.clock
        let outcome = Outcome()
        let task = Task {
            do {
                try await clock.sleep(for: .seconds(60))
                outcome.text = "woke"
            } catch {
                outcome.text = "\(type(of: error))"
            }
        }
        try await simulation.advance(by: .seconds(1))             // the sleep is scheduled, due at 60 s
        #expect(simulation.pendingWork.count == 1)
        await Task.detached { task.cancel() }.value                // as a time limit cancels a test
        await task.value                                           // no advance: it must end anyway
        #expect(outcome.text == "CancellationError")
        try await simulation.runCurrent()
        #expect(simulation.pendingWork.isEmpty)
    }
}
