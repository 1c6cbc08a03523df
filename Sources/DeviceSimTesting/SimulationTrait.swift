#if canImport(Testing)
import DeviceSim
import Foundation
import Testing

/// A Swift Testing trait that gives each test a fresh ``TestSimulation``, runs the test with it as
/// ``TestSimulation/current``, and checks at the end that nothing escaped virtual time and no work is
/// pending (every sleep woke or was cancelled, every spawned task finished): the test fails with the
/// list otherwise. On a suite, it applies to every test in it.
///
/// The simulation is made the first time the test reads ``TestSimulation/current``, in the test's own
/// isolation: a `@MainActor` test gets one that belongs to the main actor, so its `try await
/// simulation.advance(by:)` lets `@MainActor` code under test run.
///
/// ```swift
/// @Test(.simulation) func theBannerGoesAfterThreeSeconds() async throws {
///     let model = BannerModel(clock: try TestSimulation.current.clock)
///     model.show("Saved")
///     try await TestSimulation.current.advance(by: .seconds(3))
///     #expect(model.banner == nil)
/// }
/// ```
public struct SimulationTrait: TestTrait, SuiteTrait, TestScoping {
    let configuration: SimulationScope.Configuration

    /// Applies to every test of a suite it is attached to.
    public var isRecursive: Bool { true }

    public func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void) async throws {
        guard !test.isSuite else {
            try await function()
            return
        }
        let scope = SimulationScope(configuration)
        try await SimulationScope.$current.withValue(scope) {
            try await DeviceContext.$fallback.withValue({ scope.simulationIfMade?.currentDevice?.device }) {
                try await RealClockSleeps.$simulationOfTask.withValue(SimulationOfTask { scope.simulationIfMade?.scheduler.executor }) {
                    try await function()
                }
            }
        }
        try await scope.finish()
    }
}

extension Trait where Self == SimulationTrait {
    /// A fresh simulation for each test (seed 1, no world), checked at the end (see ``SimulationTrait``).
    public static var simulation: SimulationTrait { .simulation() }

    /// A fresh simulation for each test, made from `seed` in `world` starting at `startDate`, checked at
    /// the end: nothing escaped and, when `checksPendingWork`, no work is pending (see ``SimulationTrait``).
    ///
    /// ```swift
    /// @Suite(.simulation(seed: 7, world: World(beacons: [counter]))) struct StampCardTests { ... }
    /// ```
    public static func simulation(
        seed: UInt64 = 1,
        world: World? = nil,
        startDate: Date = TestSimulation.defaultStartDate,
        limits: RunLimits = RunLimits(),
        checksPendingWork: Bool = true
    ) -> SimulationTrait {
        SimulationTrait(configuration: .init(seed: seed, world: world, startDate: startDate, limits: limits, checksPendingWork: checksPendingWork))
    }
}
#endif
