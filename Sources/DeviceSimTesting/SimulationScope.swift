import DeviceSim
import Foundation

/// The simulation of one test run under the `.simulation` trait (Swift Testing) or in a
/// ``SimulationTestCase`` (XCTest): made the first time the test asks for it, in the test's own
/// isolation (so a `@MainActor` test gets a simulation that belongs to the main actor), and checked when
/// the test ends.
final class SimulationScope: @unchecked Sendable {
    /// What the simulation is made from.
    struct Configuration: Sendable {
        var seed: UInt64
        var world: World?
        var startDate: Date
        var limits: RunLimits
        /// Whether the end of the test checks that no work is pending (see ``TestSimulation/expectNoPendingWork()``).
        var checksPendingWork: Bool
    }

    let configuration: Configuration
    private let lock = NSLock()
    private var made: TestSimulation?

    init(_ configuration: Configuration) {
        self.configuration = configuration
    }

    /// The scope of the test running now, if it runs under the trait or in a ``SimulationTestCase``.
    @TaskLocal static var current: SimulationScope?

    /// The simulation, made on first use.
    var simulation: TestSimulation {
        lock.lock()
        defer { lock.unlock() }
        if let made { return made }
        let simulation = TestSimulation(
            seed: configuration.seed, world: configuration.world, startDate: configuration.startDate, limits: configuration.limits
        )
        made = simulation
        return simulation
    }

    /// The simulation if the test made it.
    var simulationIfMade: TestSimulation? {
        lock.lock()
        defer { lock.unlock() }
        return made
    }

    /// What the end of the test checks, after letting the work due now run (a task the test cancelled
    /// last finishes): nothing escaped since the last advance and, unless turned off, no work is
    /// pending. Throws what it finds.
    func finish() async throws {
        guard let simulation = simulationIfMade else { return }
        try await UncheckedTestSimulation(simulation).runCurrent()
        if configuration.checksPendingWork {
            try simulation.expectNoPendingWork()
        } else {
            try simulation.checkNothingEscaped()
        }
    }
}

extension TestSimulation {
    /// The simulation of the test running now: the one the `.simulation` trait (Swift Testing) or a
    /// ``SimulationTestCase`` (XCTest) made for it, on first use, in the test's isolation. Throws
    /// ``TestSimulationError/noSimulationInScope`` elsewhere.
    ///
    /// ```swift
    /// @Test(.simulation(seed: 7)) func uploadsWhenBackOnline() async throws {
    ///     let phone = try TestSimulation.current.addDevice("phone", at: home)
    ///     ...
    /// }
    /// ```
    public static var current: TestSimulation {
        get throws(TestSimulationError) {
            guard let scope = SimulationScope.current else { throw .noSimulationInScope }
            return scope.simulation
        }
    }
}

/// The test's simulation, settled after the test returned (nothing else touches it by then).
private struct UncheckedTestSimulation: @unchecked Sendable {
    let simulation: TestSimulation
    init(_ simulation: TestSimulation) { self.simulation = simulation }

    func runCurrent() async throws {
        try await simulation.runCurrent(isolation: nil)
    }
}
