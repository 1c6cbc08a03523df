import CheckIn
import DeviceSim
import DeviceSimCoreLocation
import DeviceSimTesting
import Testing

/// The check-in flow: the dwell, the single check-in per visit and the denied state with the phone
/// offline (no request leaves it), and the check-in sent with `URLSession` to a fake café server, once
/// even when its reply is lost.
@MainActor @Suite(.simulation(world: Cafe.world)) struct CheckInTests {
    /// A phone allowed location "Always", offline unless `online`, at `position`, and the view model started on it.
    func startedModel(at position: GeoCoordinate, online: Bool = false) throws -> (TestDevice, CheckInViewModel, KeyMaker) {
        let simulation = try TestSimulation.current
        let phone = simulation.addDevice("phone", at: position)         // the current device
        phone.setLocationAuthorization(.always)
        phone.setOnline(online)
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

    /// The café's server: a check-in is answered 201.
    func cafeServer() throws -> FakeHTTPServer {
        FakeHTTPServer(try TestSimulation.current, host: "api.cafe.example") { server in
            server.route("POST", "/check-ins") { _ in .json(["id": "c1"], status: 201) }
        }
    }

    @Test func checkingInOnlineReachesTheServerOnce() async throws {
        let simulation = try TestSimulation.current
        let server = try cafeServer()
        let (phone, model, _) = try startedModel(at: Cafe.street, online: true)
        phone.walk(to: [Cafe.center, Cafe.atCounter], speed: 1.4)
        #expect(try await advance { model.status == .atCafe } != nil)
        try await simulation.advance(by: .seconds(185))
        #expect(model.status == .checkedIn)
        #expect(model.confirmedCheckIns == 1)
        #expect(model.pendingCheckIn == nil)
        #expect(server.applied("POST", "/check-ins").map { $0.header("Idempotency-Key") } == ["key-1"])
        #expect(simulation.events(named: "http.response").count == 1)
        model.stop()
    }

    @Test func aLostReplyIsRetriedWithTheSameKeyAndAppliedOnce() async throws {
        let simulation = try TestSimulation.current
        let server = try cafeServer()
        server.failNext(1, with: .replyLost)                            // applied; the reply never comes back
        let (phone, model, keys) = try startedModel(at: Cafe.street, online: true)
        phone.walk(to: [Cafe.center, Cafe.atCounter], speed: 1.4)
        #expect(try await advance { model.status == .atCafe } != nil)
        try await simulation.advance(by: .seconds(185))
        #expect(model.confirmedCheckIns == 0)                           // waiting for the reply (15 s timeout)
        try await simulation.advance(by: .seconds(60))                  // timed out, retried 30 s later
        #expect(model.confirmedCheckIns == 1)
        #expect(server.requests.count == 2)
        #expect(server.requests.map { $0.header("Idempotency-Key") } == ["key-1", "key-1"])
        #expect(server.applied("POST", "/check-ins").count == 1)        // a new key per retry would make this 2
        #expect(server.requests.last?.replayed == true)
        #expect(keys.count == 1)
        #expect(simulation.events(named: "http.failed").count == 1)
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
