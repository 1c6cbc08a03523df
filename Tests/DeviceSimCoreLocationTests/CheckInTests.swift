import DeviceSim
import DeviceSimCoreLocation
import DeviceSimTesting
import Testing

/// The café of ``CheckInViewModel``: its centre, and the counter's iBeacon 30 m east of it.
enum Cafe {
    static let center = GeoCoordinate(latitude: 52.5200, longitude: 13.4050)
    static let counterPosition = center.destination(distance: 30, bearing: 90)
    static let counter = BeaconIdentifier.iBeacon(uuid: "F7826DA6-4FA2-4E98-8024-BC5B71E0893E", major: 1, minor: 7)
    static let world = World(beacons: [Beacon(id: counter, position: counterPosition)])
    /// 600 m west of the café: outside its 100 m region by more than the 200 m margin.
    static let street = center.destination(distance: 600, bearing: 270)
}

@MainActor @Suite struct CheckInTests {
    @Test(.simulation(world: Cafe.world)) func checksInAtTheCafeAndOffersAStampAtTheCounter() async throws {
        let simulation = try TestSimulation.current
        let phone = simulation.addDevice("phone", at: Cafe.street)      // the current device
        let model = CheckInViewModel()                                  // its CLLocationManager is phone's
        model.start()
        phone.answer(prompt: "location.authorization", with: "Allow While Using App")
        try await simulation.advance(by: .seconds(5))
        #expect(model.authorization == .authorizedWhenInUse)
        #expect(model.status == "Not checked in")

        phone.walk(to: [Cafe.center, Cafe.counterPosition.offsetBy(east: -0.3, north: 0)], speed: 1.4)
        try await simulation.advance(by: .seconds(480))
        #expect(model.status == "Stamp offered")
        #expect(simulation.events(named: "corelocation.region.entered").count == 1)

        phone.walk(to: [Cafe.street], speed: 1.4)
        try await simulation.advance(by: .seconds(480))
        #expect(model.status == "Checked out")
        #expect(model.lastError == nil)
    }
}
