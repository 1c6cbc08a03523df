import DeviceSim
import DeviceSimTesting
import Testing

/// A sleep on a real clock started by code in a simulation is reported with where it came from
/// (issue 45: a view model sleeping with `Task.sleep` made a "nothing happens" test pass).
@Suite struct RealClockSleepTests {
    /// A view model that sleeps with `Task.sleep` instead of its clock (the classic mistake). It sleeps
    /// an hour of real time: the test asserts that a virtual advance past it does not end it, so the real
    /// sleep must outlast the test even when a busy parallel run keeps the advance waiting for minutes
    /// (with 180 s, a CI run of the slow suites once took longer than that, and the sleep ended for real).
    @MainActor final class LateViewModel {
        private(set) var checkedIn = false
        private var task: Task<Void, Never>?

        func arrived() {
            task = Task {
                try? await Task.sleep(for: .seconds(3_600))
                checkedIn = true
            }
        }

        func stop() { task?.cancel() }
    }

    /// Under the trait, main-actor code is attributed to its test's simulation also while other
    /// `@MainActor` tests advance in parallel (without it, only while one simulation advances from the main actor).
    @MainActor @Test(.simulation) func aTaskSleepInMainActorCodeIsReportedByTheNextAdvance() async throws {
        let simulation = try TestSimulation.current
        let model = LateViewModel()
        model.arrived()
        // The model's task starts during the advance and sleeps for real: the advance says so.
        let error = await #expect(throws: TestSimulationError.self) { try await simulation.advance(by: .seconds(3_700)) }
        guard case .realClockSleep(let sleeps) = error else {
            Issue.record("expected a real-clock sleep, got \(String(describing: error))")
            return
        }
        #expect(sleeps.map(\.place) == [.mainActor])
        // The caller's name, when the stack could be symbolicated (run beside other tests it sometimes cannot,
        // and the report says only where it ran): never another function's name.
        let caller = sleeps.first?.caller
        #expect(caller == nil || caller == "closure #1 in RealClockSleepTests.LateViewModel.arrived()")
        #expect(!model.checkedIn)
        model.stop()
    }

    @Test func aContinuousClockSleepInASpawnedTaskNamesTheSpawn() throws {
        let simulation = TestSimulation()
        simulation.spawn { try? await ContinuousClock().sleep(for: .milliseconds(1)) }
        let error = #expect(throws: TestSimulationError.self) { try simulation.advance(by: .seconds(1)) }
        guard case .realClockSleep(let sleeps) = error else {
            Issue.record("expected a real-clock sleep, got \(String(describing: error))")
            return
        }
        #expect(sleeps.map(\.place) == [.simulationThread])
        #expect(sleeps.first?.origin?.fileID == "DeviceSimTestingTests/RealClockSleepTests.swift")
        #expect(sleeps.first?.description.contains("RealClockSleepTests.swift") == true)
    }

    @Test func aSleepAllowedDeliberatelyIsNotReported() throws {
        let simulation = TestSimulation()
        simulation.spawn { try? await RealClockSleeps.allowed { try await Task.sleep(for: .milliseconds(1)) } }
        try simulation.advance(by: .seconds(1))
        let everything = TestSimulation()
        everything.allowsRealClockSleeps = true
        everything.spawn { try? await Task.sleep(for: .milliseconds(1)) }
        try everything.advance(by: .seconds(1))
    }

    @Test(.simulation) func theTestsOwnRealSleepIsReportedAtTheEndOfTheTest() async throws {
        let simulation = try TestSimulation.current
        try await Task.sleep(for: .milliseconds(1))
        let error = await #expect(throws: TestSimulationError.self) { try await simulation.advance(by: .seconds(1)) }
        guard case .realClockSleep(let sleeps) = error else {
            Issue.record("expected a real-clock sleep, got \(String(describing: error))")
            return
        }
        #expect(sleeps.map(\.place) == [.testTask])
    }
}
