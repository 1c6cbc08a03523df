import DeviceSim
import DeviceSimNetwork
import DeviceSimTesting
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// Posts a check-in at launch with `URLSession.shared` and retries 30 s after a failure, with the same key.
private final class PostAtLaunchScenarioApp: ScenarioApp {
    static let name = "post-at-launch"
    static let settingKeys: [String] = []
    static let actions: [String: [String]] = [:]
    static func parseSettings(_ settings: YAMLMapping?) throws(ScenarioError) {}
    static func parseAction(_ name: String, step: YAMLMapping) throws(ScenarioError) {}

    init(context: ScenarioAppContext, settings: Void) {
        nonisolated(unsafe) let device = context.device
        device.scheduler.spawn { await postUntilAnswered(clock: device.clock) }
    }

    func perform(_ action: Void) {}
}

/// The app's flow: POST /check-ins with the key `k1` until a reply comes (at most 3 tries, 30 s apart).
private func postUntilAnswered(clock: any Clock<Duration>) async {
    for _ in 1...3 {
        var request = URLRequest(url: URL(string: "https://api.cafe.example/check-ins")!)
        request.httpMethod = "POST"
        request.setValue("k1", forHTTPHeaderField: "Idempotency-Key")
        request.timeoutInterval = 15
        if (try? await URLSession.shared.data(for: request)) != nil { return }
        do { try await clock.sleep(for: .seconds(30)) } catch { return }
    }
}

/// Issue 45: a test's trace and a scenario's trace hold the same `http.*` events, at the same instants
/// with the same fields, for the same exchange (the server applies the first request and loses its reply).
@Suite(.serialized) struct TestAndScenarioTraceTests {
    @Test func theSameExchangeGivesTheSameHTTPEventsInATestAndInAScenario() async throws {
        let simulation = TestSimulation(seed: 1)
        let phone = simulation.addDevice("phone", at: GeoCoordinate(latitude: 52.52, longitude: 13.405))
        let server = FakeHTTPServer(simulation, host: "api.cafe.example") { server in
            server.route("POST", "/check-ins") { _ in .status(201) }
        }
        server.failNext(1, with: .replyLost)
        let clock = simulation.clock
        _ = DeviceContext.withDevice(phone.device) { simulation.spawn { await postUntilAnswered(clock: clock) } }
        try await simulation.advance(by: .seconds(120))
        let inTest = simulation.events(named: "http.request") + simulation.events(named: "http.arrived")
            + simulation.events(named: "http.response") + simulation.events(named: "http.failed")

        try ScenarioAppRegistry.register(PostAtLaunchScenarioApp.self)
        let result = ScenarioRunner().run(try ScenarioParser.parse("""
            name: the same exchange
            duration: 2m
            http-servers:
              - host: api.cafe.example
                routes: [{ method: POST, path: /check-ins, status: 201 }]
                failures: [{ fail: reply-lost, count: 1 }]
            devices:
              - { id: phone, at: [52.52, 13.405], app: { name: post-at-launch } }
            """, file: "same.yaml"))
        let inScenario = result.events.filter { $0.name.hasPrefix("http.") }
        let sorted = { (events: [TraceEvent]) in events.sorted { ($0.time, $0.name) < ($1.time, $1.name) } }
        #expect(inScenario.map(\.name) == ["http.request", "http.arrived", "http.failed", "http.request", "http.arrived", "http.response"])
        #expect(sorted(inTest) == sorted(inScenario))
    }
}
