#if canImport(XCTest)
import CheckIn
import DeviceSim
import DeviceSimCoreLocation
import DeviceSimTesting
import XCTest

/// The same flow in XCTest: a `SimulationTestCase` gives each test method its own simulation.
final class CheckInXCTests: SimulationTestCase {
    override var world: World? { Cafe.world }

    @MainActor func testStartingAtTheCounterChecksInAfterThreeMinutes() async throws {
        let phone = simulation.addDevice("phone", at: Cafe.atCounter)   // the current device
        phone.setLocationAuthorization(.whenInUse)
        phone.setOnline(false)
        let keys = KeyMaker()
        let model = CheckInViewModel(cafe: Cafe.settings, clock: simulation.clock, makeKey: keys.make)
        model.start()
        phone.answer(prompt: "notifications.authorization", with: "Allow")
        try await simulation.advance(by: .seconds(170))                // in range within seconds; not yet three minutes
        XCTAssertEqual(model.status, .atCafe)
        XCTAssertEqual(keys.count, 0)
        try await simulation.advance(by: .seconds(30))
        XCTAssertEqual(model.status, .checkedIn)
        XCTAssertEqual(model.pendingCheckIn, "key-1")
        XCTAssertEqual(keys.count, 1)
        model.stop()
    }
}
#endif
