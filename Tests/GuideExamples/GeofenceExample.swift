import DeviceSim
import DeviceSimTesting
import Testing

// MARK: App code

/// Times the commute from leaving home to arriving at the office, with geofence events read like
/// CoreLocation's `CLMonitor.events`, and the time from an injected clock.
@MainActor final class CommuteViewModel {
    private(set) var commutes: [Duration] = []
    private(set) var status = "at home"
    private let geofences: any GeofenceMonitoring
    private let clock: any Clock<Duration>
    private var task: Task<Void, Never>?

    init(geofences: any GeofenceMonitoring, clock: any Clock<Duration>) {
        self.geofences = geofences
        self.clock = clock
    }

    func start(home: GeoCoordinate, office: GeoCoordinate) throws {
        try geofences.startMonitoring(GeofenceRegion(id: "home", center: home, radius: 150, transitions: [.exit]))
        try geofences.startMonitoring(GeofenceRegion(id: "office", center: office, radius: 150, transitions: [.enter]))
        task = Task {
            var elapsed = Duration.zero
            var timer: Task<Void, Never>?
            for await event in geofences.events() {
                switch (event.region, event.transition) {
                case ("home", .exit):
                    status = "commuting"
                    elapsed = .zero
                    timer = Task {                               // counts seconds on the injected clock
                        while (try? await clock.sleep(for: .seconds(1))) != nil { elapsed += .seconds(1) }
                    }
                case ("office", .enter):
                    timer?.cancel()
                    commutes.append(elapsed)
                    status = "at the office"
                default:
                    break
                }
            }
        }
    }

    func stop() { task?.cancel() }
}

// MARK: Tests

@MainActor @Suite struct GeofenceExampleTests {
    let home = GeoCoordinate(latitude: 52.5145, longitude: 13.3501)

    @Test(.simulation) func theCommuteRunsFromTheHomeBoundaryToTheOfficeBoundary() async throws {
        let simulation = try TestSimulation.current
        let phone = simulation.addDevice("commuter", at: home)
        let model = CommuteViewModel(geofences: phone.geofences, clock: simulation.clock)
        try model.start(home: home, office: home.destination(distance: 1_350, bearing: 90))
        phone.walk(to: [home.destination(distance: 1_350, bearing: 90)])     // 1.35 km at 1.4 m/s
        try await simulation.advance(by: .seconds(200))
        #expect(model.status == "commuting")
        try await simulation.advance(by: .seconds(800))
        #expect(model.status == "at the office")
        // From the home boundary (150 m) to the office boundary (1,200 m): 1,050 m at 1.4 m/s, 750 s.
        let seconds = try #require(model.commutes.first).components.seconds
        #expect(abs(seconds - 750) <= 5)
        model.stop()
    }
}
