import DeviceSim
import DeviceSimTesting
import XCTest

/// The @MainActor view model of MainActorViewModelTests, driven the same way under XCTest.
@MainActor
final class MainActorXCTests: XCTestCase {
    func testTheSearchIsDebouncedAndRetriedUnderXCTest() async throws {
        let simulation = TestSimulation()
        let search = ScriptedPlaceSearch(clock: simulation.clock, failures: 1)
        let model = PlaceSearchViewModel(clock: simulation.clock, search: search)
        model.queryChanged("c")
        try await simulation.advanceOnMainActor(by: .milliseconds(200))
        model.queryChanged("cafe")
        try await simulation.advanceOnMainActor(by: .milliseconds(299))
        XCTAssertEqual(model.status, "idle")
        try await simulation.advanceOnMainActor(to: VirtualInstant(offset: .milliseconds(500)))
        XCTAssertEqual(model.status, "searching")
        try await simulation.runOnMainActorUntilIdle()
        XCTAssertEqual(model.log, ["cancelled c", "search cafe", "retry in 1.0 seconds"])
        XCTAssertEqual(search.requests.map(\.at.description), ["0.500s", "1.700s"])
        XCTAssertEqual(model.results, ["cafe Café", "cafe Bar"])
        XCTAssertEqual(simulation.now, VirtualInstant(offset: .milliseconds(1_900)))
        try simulation.expectNoPendingWork()
    }
}
