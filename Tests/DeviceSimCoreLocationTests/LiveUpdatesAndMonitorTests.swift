import DeviceSim
import DeviceSimCoreLocation
import DeviceSimTesting
import Testing

@MainActor @Suite struct LiveUpdatesAndMonitorTests {
    /// Apple, liveUpdates(_:): "Tells Core Location to start delivering the location updates it produces";
    /// isStationary: "If Core Location stops delivering updates because the device is stationary, then it
    /// sets isStationary to true".
    @Test(.simulation) func liveUpdatesAskForAuthorizationThenFollowTheDevice() async throws {
        let simulation = try TestSimulation.current
        let phone = simulation.addDevice("phone", at: Cafe.street)
        let model = LiveLocationModel()
        model.startLiveUpdates()
        try await simulation.advance(by: .seconds(2))
        #expect(model.waitingForAuthorization)
        #expect(model.locationCount == 0)
        phone.answer(prompt: "location.authorization", with: "Allow While Using App")
        phone.walk(to: [Cafe.center], speed: 1.4)
        try await simulation.advance(by: .seconds(60))
        #expect(!model.waitingForAuthorization)
        #expect(model.locationCount >= 55)
        #expect(!model.isStationary)
        try await simulation.advance(by: .seconds(600))            // arrived long ago: standing still
        #expect(model.isStationary)
        let count = model.locationCount
        try await simulation.advance(by: .seconds(60))
        #expect(model.locationCount == count)                      // suspended while stationary
        model.stop()
        try await simulation.advance(by: .seconds(1))
    }

    /// Apple, CLMonitor: "Use CLMonitor to monitor for and observe events such as the entry to a specific
    /// geographic area"; events come with the region margin and dwell (see RegionMonitoringFigures).
    @Test(.simulation) func theMonitorReportsTheCafeSatisfiedAfterEntering() async throws {
        let simulation = try TestSimulation.current
        let phone = simulation.addDevice("phone", at: Cafe.street)
        phone.setLocationAuthorization(.whenInUse)
        let model = LiveLocationModel()
        model.startMonitoringTheCafe()
        try await simulation.advance(by: .seconds(5))
        #expect(model.atCafe == .unknown)                           // assumed unsatisfied, and it is: no event
        phone.place(at: Cafe.center)
        try await simulation.advance(by: .seconds(15))
        #expect(model.atCafe == .unknown)                           // not yet 20 s inside
        try await simulation.advance(by: .seconds(10))
        #expect(model.atCafe == .satisfied)
        phone.place(at: Cafe.street)
        try await simulation.advance(by: .seconds(30))
        #expect(model.atCafe == .unsatisfied)
        #expect(simulation.events(named: "corelocation.monitor.event").count == 2)
        model.stop()
        try await simulation.advance(by: .seconds(1))
    }
}
