import DeviceSim
import DeviceSimTesting
import Foundation
import Testing

/// The six misuses of virtual time of issue 45, written as a developer would write them by mistake.
/// Five of these tests FAIL, by design, with a message naming their cause; the sixth (a synchronous
/// advance on the main actor) is no longer a misuse: it runs the view model's tasks and passes. They run
/// only in the child processes that ``MisuseStressTests`` starts (`DEVICESIM_MISUSE_CASES=1`), which
/// check the outcomes.
enum MisuseCases {
    static let variable = "DEVICESIM_MISUSE_CASES"
    static var isChild: Bool { ProcessInfo.processInfo.environment[variable] == "1" }

    /// The case that must pass (a synchronous advance on the main actor runs the main actor's work).
    static let expectedToPass = "aSynchronousAdvanceOnTheMainActor()"

    /// What each failing case's failure must say (its test's name, and a part of the message naming the cause).
    static let expectedFailures: [(test: String, cause: String)] = [
        ("awaitingTheClockWithoutAdvancing()", "came from outside the simulation's executor"),
        ("theTestsOwnTaskSleepsOnTheVirtualClock()", "not deterministic"),
        ("runAwaitingVirtualTime()", "did not finish at the current instant"),
        ("aWrongClockInjected()", "sleep(s) on a real clock in the simulation"),
        ("forgettingToStop()", "work is still pending at the end of the test"),
    ]

    /// A view model doing its work in `Task {}`s on the main actor, on the clock it is given.
    @MainActor final class CheckInModel {
        private(set) var checkIns = 0
        private(set) var task: Task<Void, Never>?
        private let clock: any Clock<Duration>

        init(clock: any Clock<Duration>) { self.clock = clock }

        /// Checks in after a dwell of `dwell`.
        func entered(dwell: Duration = .seconds(60)) {
            task = Task {
                guard (try? await clock.sleep(for: dwell)) != nil else { return }
                checkIns += 1
            }
        }

        /// Checks in every 10 s until stopped.
        func startPolling() {
            task = Task {
                while (try? await clock.sleep(for: .seconds(10))) != nil { checkIns += 1 }
            }
        }

        func stop() { task?.cancel() }
    }
}

@Suite(.enabled(if: MisuseCases.isChild), .timeLimit(.minutes(1))) struct MisuseCaseTests {
    /// 1. Awaits the view model's work without advancing the simulation.
    @MainActor @Test(.simulation) func awaitingTheClockWithoutAdvancing() async throws {
        let model = MisuseCases.CheckInModel(clock: try TestSimulation.current.clock)
        model.entered()
        await model.task?.value
        #expect(model.checkIns == 1)
    }

    /// 2. The test's own task sleeps on the virtual clock, as if time passed by itself.
    @Test(.simulation) func theTestsOwnTaskSleepsOnTheVirtualClock() async throws {
        let simulation = try TestSimulation.current
        try await simulation.clock.sleep(for: .seconds(5))
    }

    /// 3. `run {}` given an operation that waits for virtual time.
    @Test(.simulation) func runAwaitingVirtualTime() async throws {
        let simulation = try TestSimulation.current
        let clock = simulation.clock
        try await simulation.run { try await clock.sleep(for: .seconds(5)) }
    }

    /// 4. The app given `ContinuousClock()` instead of the simulation's clock.
    @MainActor @Test(.simulation) func aWrongClockInjected() async throws {
        let simulation = try TestSimulation.current
        let model = MisuseCases.CheckInModel(clock: ContinuousClock())
        model.entered(dwell: .seconds(600))                        // ten real minutes: must not hold anything up
        try await simulation.advance(by: .seconds(700))
        #expect(model.checkIns == 0)
    }

    /// 5. A synchronous advance on the main actor, before the view model's tasks started: it runs them.
    @MainActor @Test(.simulation) func aSynchronousAdvanceOnTheMainActor() async throws {
        let simulation = try TestSimulation.current
        let model = MisuseCases.CheckInModel(clock: simulation.clock)
        model.entered()
        func advance() throws { try simulation.advance(by: .seconds(400)) }
        try advance()
        #expect(model.checkIns == 1)
    }

    /// 6. The view model's polling is never stopped.
    @MainActor @Test(.simulation) func forgettingToStop() async throws {
        let simulation = try TestSimulation.current
        let model = MisuseCases.CheckInModel(clock: simulation.clock)
        model.startPolling()
        try await simulation.advance(by: .seconds(35))
        #expect(model.checkIns == 3)
    }
}
