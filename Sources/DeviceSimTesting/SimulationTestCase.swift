#if canImport(XCTest)
import DeviceSim
import Foundation
import XCTest

/// The XCTest equivalent of the `.simulation` trait: each test method gets a fresh ``simulation`` (also
/// ``TestSimulation/current``), made on first use in the test's isolation, and ``tearDown()``
/// fails the test if anything escaped virtual time or work is still pending. Override ``seed``,
/// ``world`` or ``checksPendingWork`` to change them.
///
/// ```swift
/// final class BannerTests: SimulationTestCase {
///     @MainActor func testTheBannerGoesAfterThreeSeconds() async throws {
///         let model = BannerModel(clock: simulation.clock)
///         model.show("Saved")
///         try await simulation.advance(by: .seconds(3))
///         XCTAssertNil(model.banner)
///     }
/// }
/// ```
open class SimulationTestCase: XCTestCase {
    /// The simulation's root seed (1 unless overridden).
    open var seed: UInt64 { 1 }
    /// The world the devices' radios live in (none unless overridden).
    open var world: World? { nil }
    /// Whether the end of each test checks that no work is pending (true unless overridden).
    open var checksPendingWork: Bool { true }

    private var scope: SimulationScope?

    /// This test's simulation, made on first use.
    public var simulation: TestSimulation { currentScope.simulation }

    private var currentScope: SimulationScope {
        if let scope { return scope }
        let made = SimulationScope(.init(
            seed: seed, world: world, startDate: TestSimulation.defaultStartDate, limits: RunLimits(), checksPendingWork: checksPendingWork
        ))
        scope = made
        return made
    }

    open override func invokeTest() {
        let scope = currentScope
        SimulationScope.$current.withValue(scope) {
            DeviceContext.withFallback({ scope.simulationIfMade?.currentDevice?.device }) {
                RealClockSleeps.$simulationOfTask.withValue(SimulationOfTask { scope.simulationIfMade?.scheduler.executor }) {
                    super.invokeTest()
                }
            }
        }
    }

    open override func tearDown() async throws {
        let finishing = scope
        scope = nil
        try await finishing?.finish()
        try await super.tearDown()
    }
}
#endif
