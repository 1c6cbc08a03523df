import DeviceSim
import DeviceSimTesting
import Testing

// MARK: App code

/// The loyalty card's server.
protocol StampAPI: Sendable {
    func collectStamp(shop: String) async throws -> Int
}

/// A loyalty stamp card: after five minutes in the shop (its beacon fence), the app asks whether to
/// collect a stamp, and collects it if the user says so. Plain Swift: a `@MainActor` view model, a
/// `Task {}`, an injected clock and the small protocols of the device.
@MainActor final class StampCardViewModel {
    private(set) var stamps = 0
    private(set) var message: String?
    private let beacons: any BeaconRanging
    private let prompts: any NotificationPresenting
    private let api: any StampAPI
    private let clock: any Clock<Duration>
    private var visit: Task<Void, Never>?
    private var watching: Task<Void, Never>?

    init(beacons: any BeaconRanging, prompts: any NotificationPresenting, api: any StampAPI, clock: any Clock<Duration>) {
        self.beacons = beacons
        self.prompts = prompts
        self.api = api
        self.clock = clock
    }

    func start() {
        watching = Task {
            for await event in beacons.fenceEvents() {
                visit?.cancel()                                      // leaving ends the visit (and its prompt)
                if event.entered { visit = Task { await self.stay(in: event.fence) } }
            }
        }
    }

    func stop() {
        watching?.cancel()
        visit?.cancel()
    }

    private func stay(in shop: String) async {
        do { try await clock.sleep(for: .seconds(300)) } catch { return }
        let prompt = UserPrompt(id: "stamp", message: "Collect a stamp at \(shop)?", choices: ["Collect", "Not now"])
        guard await prompts.ask(prompt, timeout: .seconds(120)) == "Collect" else { return }
        do {
            stamps = try await api.collectStamp(shop: shop)
            message = "\(stamps) stamps"
        } catch {
            message = "No stamp this time: \(error)"
        }
    }
}

// MARK: Tests

struct FakeStampAPI: StampAPI {
    let network: FakeNetwork

    func collectStamp(shop: String) async throws -> Int {
        try await network.send("stamps.collect", extraLatency: .milliseconds(250)) { 3 }
    }
}

@MainActor @Suite struct PromptExampleTests {
    static let street = Shop.corner
    static let counter = Shop.counterPosition

    @Test(.simulation(world: Shop.world)) func aStampAfterFiveMinutesInTheShop() async throws {
        let phone = try TestSimulation.current.addDevice("phone", at: Self.counter)
        let model = StampCardViewModel(beacons: phone.beacons!, prompts: phone.notifications, api: FakeStampAPI(network: phone.network), clock: phone.clock)
        model.start()
        try await TestSimulation.current.advance(by: .seconds(301))        // entered at 1 s; asked at 301 s
        #expect(phone.notifications.showing.map(\.id) == ["stamp"])
        phone.answer(prompt: "stamp", with: "Collect")
        try await TestSimulation.current.advance(by: .milliseconds(250))
        #expect(model.message == "3 stamps")
        model.stop()
    }

    @Test(.simulation(world: Shop.world)) func leavingEarlyTakesThePromptBackAndOfflineSaysSo() async throws {
        let simulation = try TestSimulation.current
        let phone = simulation.addDevice("phone", at: Self.counter)
        let model = StampCardViewModel(beacons: phone.beacons!, prompts: phone.notifications, api: FakeStampAPI(network: phone.network), clock: phone.clock)
        model.start()
        try await simulation.advance(by: .seconds(302))                     // asked at 301 s
        phone.walk(to: [Self.street.destination(distance: 600, bearing: 270)], speed: 10)
        try await simulation.advance(by: .seconds(120))
        #expect(phone.notifications.showing.isEmpty)                       // taken back when the visit ended
        #expect(simulation.events(named: "prompt.withdrawn").count == 1)
        phone.walk(to: [Self.counter], speed: 10)                          // back, for another five minutes
        phone.answer(prompt: "stamp", with: "Collect")                     // whenever it asks next
        phone.setOnline(false)
        try await simulation.advance(by: .seconds(600))
        #expect(model.message == "No stamp this time: \(FakeNetworkError.notConnected(device: "phone"))")
        model.stop()
    }
}
