import DeviceSim
import DeviceSimTesting
import Testing

// MARK: App code

/// At the shop's counter, offers to pay by phone: a `@MainActor` view model that ranges the counter's
/// beacon (proximity and distance, once a second) and watches the shop's beacon fence.
@MainActor final class CounterViewModel {
    private(set) var offer: String?
    private(set) var inShop = false
    private(set) var proximities: [BeaconProximity] = []
    private let beacons: any BeaconRanging
    private let counter: BeaconIdentifier
    private var tasks: [Task<Void, Never>] = []

    init(beacons: any BeaconRanging, counter: BeaconIdentifier) {
        self.beacons = beacons
        self.counter = counter
    }

    func start() {
        tasks.append(Task {
            for await report in beacons.rangingReports() {
                let proximity = report.first { $0.beacon == counter }?.proximity ?? .unknown
                if proximities.last != proximity { proximities.append(proximity) }
                offer = proximity == .immediate ? "Pay by phone" : nil
            }
        })
        tasks.append(Task {
            for await event in beacons.fenceEvents() where event.fence == "shop" {
                inShop = event.entered
                if !event.entered { offer = nil }
            }
        })
    }

    func stop() { tasks.forEach { $0.cancel() } }
}

// MARK: Tests

/// A shop with one iBeacon at its counter, 40 m east of the street corner.
enum Shop {
    static let corner = GeoCoordinate(latitude: 52.5200, longitude: 13.4050)
    static let counterPosition = corner.destination(distance: 40, bearing: 90)
    static let counter = BeaconIdentifier.iBeacon(uuid: "F7826DA6-4FA2-4E98-8024-BC5B71E0893E", major: 1, minor: 7)
    static let world = World(beacons: [Beacon(id: counter, position: counterPosition, fence: "shop")])
}

@MainActor @Suite struct BeaconExampleTests {
    @Test(.simulation(world: Shop.world)) func thePaymentOfferShowsAtTheCounterOnly() async throws {
        let simulation = try TestSimulation.current
        let phone = simulation.addDevice("phone", at: Shop.corner)
        let model = CounterViewModel(beacons: phone.beacons!, counter: Shop.counter)
        model.start()
        phone.walk(to: [Shop.counterPosition.offsetBy(east: -0.3, north: 0)], speed: 1)   // 40 m at 1 m/s
        try await simulation.advance(by: .seconds(20))
        #expect(model.inShop && model.offer == nil)                   // heard from 20 m: far
        try await simulation.advance(by: .seconds(40))
        #expect(model.offer == "Pay by phone")
        // Not heard from 40 m (a beacon carries some 23 m indoors, docs/radios.md), then far ... immediate.
        #expect(model.proximities.first == .unknown && model.proximities.dropFirst().first == .far && model.proximities.last == .immediate)
        phone.setBluetooth(on: false)                                 // leaves every fence at once
        try await simulation.advance(by: .seconds(1))
        #expect(!model.inShop && model.offer == nil)
        model.stop()
    }
}
