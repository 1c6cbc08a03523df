import DeviceSim
import DeviceSimTesting
import Testing

@Suite struct FakeNetworkTests {
    static let home = GeoCoordinate(latitude: 52.5200, longitude: 13.4050)

    /// The case: a FakeService made for a simulation with one device answered while that
    /// device was offline.
    @Test func aServiceFailsAtOnceWhileTheOnlyDeviceIsOffline() async throws {
        let simulation = TestSimulation()
        let phone = simulation.addDevice("phone", at: Self.home)
        let service = FakeService<String, Int>(simulation, name: "lookup", latency: .milliseconds(300)) { $0.count }
        phone.setOnline(false)
        await #expect(throws: FakeNetworkError.notConnected(device: "phone")) {
            try await simulation.run { try await service.call("four") }
        }
        #expect(simulation.events(named: "lookup.failed").map(\.time) == [.zero])
        phone.setOnline(true)
        let answered = simulation.spawn { try await service.call("four") }
        try await simulation.advance(by: .milliseconds(300))
        #expect(try answered.value() == 4)
    }

    @Test func aRequestInFlightFailsWhenTheDeviceGoesOffline() throws {
        let simulation = TestSimulation()
        let phone = simulation.addDevice("phone", at: Self.home)
        let uploads = phone.network.service("uploads", latency: .seconds(2)) { (photo: String) in "receipt-\(photo)" }
        let first = simulation.spawn { try await uploads.call("p1") }
        try simulation.advance(by: .seconds(1))
        phone.setOnline(false)
        try phone.setOnline(true, at: VirtualInstant(offset: .milliseconds(1_500)))
        try simulation.advance(by: .seconds(1))
        #expect(throws: FakeNetworkError.connectionLost(device: "phone")) { try first.value() }
        let second = simulation.spawn { try await uploads.call("p2") }
        try simulation.advance(by: .seconds(2))
        #expect(try second.value() == "receipt-p2")
        #expect(uploads.calls.map(\.finishedAt) == [2, 4].map { VirtualInstant(offset: .seconds($0)) })
    }

    @Test func theNetworksLatencyAddsToTheServicesAndItsFailuresAreScripted() throws {
        let simulation = TestSimulation()
        let phone = simulation.addDevice("phone", at: Self.home)
        phone.network.latency = .milliseconds(500)
        phone.network.failNext(1)
        let api = FakeService<Int, Int>(simulation, device: phone, name: "double", latency: .milliseconds(100)) { $0 * 2 }
        let network = phone.network
        let failed = simulation.spawn { try await api.call(1) }
        let sent = simulation.spawn { try await network.send("ping") { "pong" } }
        try simulation.advance(by: .milliseconds(599))
        #expect(!failed.isFinished && sent.isFinished)            // 500 ms, no service latency
        try simulation.advance(by: .milliseconds(1))
        #expect(throws: FakeNetworkError.injected) { try failed.value() }
        #expect(try sent.value() == "pong")
    }

    @Test func withSeveralDevicesAServiceWithoutOneSaysWhichToGive() async throws {
        let simulation = TestSimulation()
        let anna = simulation.addDevice("anna", at: Self.home)
        simulation.addDevice("ben", at: Self.home)
        let service = FakeService<String, Int>(simulation, name: "lookup") { $0.count }
        #expect(try await simulation.advanceAndCall(service, "ok") == 2)    // everyone online: no question
        anna.setOnline(false)
        await #expect(throws: FakeNetworkError.ambiguousDevice(service: "lookup", offline: "anna", devices: 2)) {
            try await simulation.advanceAndCall(service, "ok")
        }
    }
}

extension TestSimulation {
    /// Calls `service` in the simulation and advances until it answered.
    fileprivate func advanceAndCall(_ service: FakeService<String, Int>, _ request: String) async throws -> Int {
        let call = spawn { try await service.call(request) }
        try await advance(by: service.latency)
        return try call.value()
    }
}
