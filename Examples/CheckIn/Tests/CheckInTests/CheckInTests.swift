import CheckIn
import DeviceSim
import DeviceSimCoreLocation
import DeviceSimTesting
import Testing

/// The check-in flow with the phone offline, so no request leaves it: the dwell, the single check-in per
/// visit, and the denied state. (Sending through URLSession to the café's server needs the simulated
/// URLSession transport; see the report.)
@MainActor @Suite(.simulation(world: Cafe.world)) struct CheckInTests {
    /// A phone allowed location "Always", offline, at `position`, and the view model started on it.
    func startedModel(at position: GeoCoordinate) throws -> (TestDevice, CheckInViewModel, KeyMaker) {
        let simulation = try TestSimulation.current
        let phone = simulation.addDevice("phone", at: position)         // the current device
        phone.setLocationAuthorization(.always)
        phone.setOnline(false)
        let keys = KeyMaker()
        let model = CheckInViewModel(cafe: Cafe.settings, clock: simulation.clock, makeKey: keys.make)
        model.start()
        phone.answer(prompt: "notifications.authorization", with: "Allow")
        return (phone, model, keys)
    }

    /// Advances one second at a time until `condition` holds; the seconds it took (nil: not within `limit`).
    func advance(until condition: () -> Bool, limit: Int = 900) async throws -> Int? {
        let simulation = try TestSimulation.current
        for second in 0...limit {
            if condition() { return second }
            try await simulation.advance(by: .seconds(1))
        }
        return nil
    }

    @Test func arrivingAndStayingThreeMinutesChecksInOnce() async throws {
        let simulation = try TestSimulation.current
        let (phone, model, keys) = try startedModel(at: Cafe.street)
        try await simulation.advance(by: .seconds(5))
        #expect(model.status == .away)
        #expect(model.isOnline == false)

        phone.walk(to: [Cafe.center, Cafe.atCounter], speed: 1.4)
        let arrival = try await advance { model.status == .atCafe }
        #expect(arrival != nil)
        try await simulation.advance(by: .seconds(175))
        #expect(model.status == .atCafe)
        #expect(keys.count == 0)

        try await simulation.advance(by: .seconds(10))
        #expect(model.status == .checkedIn)
        #expect(model.pendingCheckIn == "key-1")

        try await simulation.advance(by: .seconds(600))                 // staying on: still one check-in
        #expect(model.status == .checkedIn)
        #expect(keys.count == 1)
        #expect(simulation.events(named: "corelocation.region.entered").count == 1)
        #expect(simulation.events(named: "api.diagnostic").isEmpty)   // no delegate method missed or misspelt
        model.stop()
    }

    @Test func leavingAfterTwoMinutesDoesNotCheckIn() async throws {
        let simulation = try TestSimulation.current
        let (phone, model, keys) = try startedModel(at: Cafe.street)
        phone.walk(to: [Cafe.center, Cafe.atCounter], speed: 1.4)
        #expect(try await advance { model.status == .atCafe } != nil)
        try await simulation.advance(by: .seconds(120))

        phone.walk(to: [Cafe.street], speed: 1.4)
        try await simulation.advance(by: .seconds(900))
        #expect(model.status == .away)
        #expect(keys.count == 0)
        #expect(model.pendingCheckIn == nil)
        model.stop()
    }

    @Test func aSecondVisitChecksInAgainWithANewKey() async throws {
        let simulation = try TestSimulation.current
        let (phone, model, keys) = try startedModel(at: Cafe.street)
        phone.walk(to: [Cafe.center, Cafe.atCounter], speed: 1.4)
        #expect(try await advance { model.status == .atCafe } != nil)
        try await simulation.advance(by: .seconds(200))
        #expect(model.pendingCheckIn == "key-1")

        phone.walk(to: [Cafe.street], speed: 1.4)
        #expect(try await advance { model.status == .away } != nil)
        phone.walk(to: [Cafe.center, Cafe.atCounter], speed: 1.4)
        #expect(try await advance { model.status == .atCafe } != nil)
        try await simulation.advance(by: .seconds(200))
        #expect(model.status == .checkedIn)
        #expect(keys.count == 2)
        model.stop()
    }

    @Test func deniedLocationShowsLocationDenied() async throws {
        let simulation = try TestSimulation.current
        let phone = simulation.addDevice("phone", at: Cafe.atCounter)
        let model = CheckInViewModel(cafe: Cafe.settings, clock: simulation.clock)
        model.start()
        phone.answer(prompt: "location.authorization", with: "Don't Allow")
        phone.answer(prompt: "notifications.authorization", with: "Allow")
        try await simulation.advance(by: .seconds(400))
        #expect(model.status == .locationDenied)
        #expect(model.pendingCheckIn == nil)
        model.stop()
    }
}
