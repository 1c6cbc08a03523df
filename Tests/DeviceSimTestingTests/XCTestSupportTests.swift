import DeviceSim
import DeviceSimTesting
import XCTest

/// DeviceSimTesting works the same under XCTest.
final class XCTestSupportTests: XCTestCase {
    func testTheDogWalkAppUnderXCTest() throws {
        let simulation = TestSimulation(seed: 11)
        let walker = simulation.addDevice("walker", at: GeoCoordinate(latitude: 48.8584, longitude: 2.2945))
        let app = DogWalkApp(device: walker.device)
        app.startService()
        try simulation.advance(by: .seconds(60))
        XCTAssertEqual(simulation.events(named: "marker.moved").count, 12)
        XCTAssertEqual(simulation.events(named: "map.shown").first?.time, .zero)
        XCTAssertTrue(app.isLocationAvailable)
    }
}
