import DeviceSim
import DeviceSimScenario
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// An app that checks in with `URLSession.shared`: `do: check-in` POSTs to its server's `/check-ins`
/// with an idempotency key, and retries every 30 s until a 2xx, with the same key (or, with
/// `new-key-per-retry: true`, the classic bug: a new key per try).
final class URLSessionCheckInScenarioApp: ScenarioApp {
    struct Settings: Sendable {
        var newKeyPerRetry = false
        var server = "https://api.cafe.example"
    }

    static let name = "url-session-check-in"
    static let settingKeys = ["new-key-per-retry", "server"]
    static let actions: [String: [String]] = ["check-in": []]

    let device: Device
    let settings: Settings
    private var checkIns = 0

    static func parseSettings(_ settings: YAMLMapping?) throws(ScenarioError) -> Settings {
        var parsed = Settings()
        if let node = settings?.optional("new-key-per-retry") { parsed.newKeyPerRetry = try node.bool() }
        if let node = settings?.optional("server") { parsed.server = try node.string() }
        return parsed
    }

    static func parseAction(_ name: String, step: YAMLMapping) throws(ScenarioError) {}

    init(context: ScenarioAppContext, settings: Settings) {
        device = context.device
        self.settings = settings
    }

    func perform(_ action: Void) {
        checkIns += 1
        let visit = checkIns
        // The device is touched only on the simulation's thread, where the spawned task runs.
        nonisolated(unsafe) let device = device
        let settings = settings
        let url = URL(string: settings.server + "/check-ins")!
        device.scheduler.spawn {
            for attempt in 1...10 {
                let key = settings.newKeyPerRetry ? "visit-\(visit)-try-\(attempt)" : "visit-\(visit)"
                var request = URLRequest(url: url)
                request.httpMethod = "POST"
                request.setValue(key, forHTTPHeaderField: "Idempotency-Key")
                request.httpBody = Data(#"{"venue":"cafe"}"#.utf8)
                request.timeoutInterval = 15
                do {
                    let (data, response) = try await URLSession.shared.data(for: request)
                    let status = (response as? HTTPURLResponse)?.statusCode ?? 0
                    device.record("checkin.answered", [("status", .int(status)), ("body", .string(String(decoding: data, as: UTF8.self)))])
                    if (200..<300).contains(status) { return }
                } catch let error as URLError {
                    device.record("checkin.error", [("code", .int(error.code.rawValue))])
                } catch {
                    device.record("checkin.error", [("code", .int(0))])
                }
                do { try await device.clock.sleep(for: .seconds(30)) } catch { return }
            }
        }
    }
}

/// `http-servers:` in scenario files: what the server answers, where its requests fail (per call and
/// from a virtual instant), and `http:` expectations on what it was sent, received and applied.
@Suite struct HTTPServerScenarioTests {
    init() throws {
        try ScenarioAppRegistry.register(BundledApps.all + [URLSessionCheckInScenarioApp.self])
    }

    static func scenario(server: String, expect: String, settings: String = "{}", timeline: String = "  - { at: 10s, do: check-in }") -> String {
        """
        name: check in over URLSession
        duration: 10m
        http-servers:
        \(server)
        devices:
          - id: phone
            at: [52.52, 13.405]
            app: { name: url-session-check-in, settings: \(settings) }
        timeline:
        \(timeline)
        expect:
        \(expect)
        """
    }

    static let cafeServer = """
          - host: api.cafe.example
            latency: 100ms
            routes:
              - { method: POST, path: /check-ins, status: 201, json: { id: c1, venue: { name: Café, open: true, seats: 12 } } }
        """

    func run(_ text: String) throws -> ScenarioResult {
        ScenarioRunner().run(try ScenarioParser.parse(text, file: "http.yaml"))
    }

    func failures(_ result: ScenarioResult) -> String {
        (result.runError.map { [$0] } ?? []).joined() + result.outcomes.filter { !$0.passed }.map { "\($0.expected): \($0.observed)" }.joined(separator: "\n")
    }

    @Test func theServerAnswersTheAppsURLSessionRequestAtVirtualInstants() throws {
        let result = try run(Self.scenario(server: Self.cafeServer, expect: """
          - { http: POST /check-ins, sent: 1, arrived: 1, applied: 1, answered: 1 }
          - { event: checkin.answered, count: 1, within: [10s200ms, 10s200ms], where: { status: 201 } }
        """))
        #expect(result.passed, "\(failures(result))")
        let http = result.events.filter { $0.name.hasPrefix("http.") }
        #expect(http.map(\.name) == ["http.request", "http.arrived", "http.response"])
        #expect(http.map { $0.time.offset } == [.seconds(10), .milliseconds(10_100), .milliseconds(10_200)])
        #expect(http[0].fields.map(\.key) == ["method", "host", "path", "key"])
        #expect(http[0]["key"]?.description == "visit-1")
        #expect(http[1].fields.map(\.key) == ["method", "host", "path", "applied"])
        #expect(http[2]["status"]?.description == "201")
        let answered = try #require(result.events.first { $0.name == "checkin.answered" })
        #expect(answered["body"]?.description == #"{"id":"c1","venue":{"name":"Café","open":true,"seats":12}}"#)
    }

    static let replyLostOnce = """
          - host: api.cafe.example
            routes:
              - { method: POST, path: /check-ins, status: 201 }
            failures:
              - { fail: reply-lost, count: 1 }
        """

    @Test func aReplyLostIsRetriedWithTheSameKeyAndAppliedOnce() throws {
        let result = try run(Self.scenario(server: Self.replyLostOnce, expect: """
          - { http: POST /check-ins, sent: 2, arrived: 2, applied: 1 }
          - { event: http.failed, count: 1, where: { error: timedOut, lost: reply } }
          - { event: http.arrived, count: 1, where: { applied: false, replayed: true } }
        """))
        #expect(result.passed, "\(failures(result))")
    }

    /// The classic bug: a new idempotency key per retry. The server applies the retry again; the
    /// expectation that it applied one check-in fails, at the line of `applied:`.
    @Test func aNewKeyPerRetryFailsTheAppliedOnceExpectation() throws {
        let result = try run(Self.scenario(server: Self.replyLostOnce, expect: """
          - http: POST /check-ins
            applied: 1
        """, settings: "{ new-key-per-retry: true }"))
        #expect(!result.passed)
        let failed = try #require(result.outcomes.first { !$0.passed })
        #expect(failed.location.line == 17, "the line of applied: 1")
        #expect(failed.observed.contains("2"), "\(failed.observed)")
        #expect(result.events.filter { $0.name == "http.arrived" && $0["applied"]?.description == "true" }.count == 2)
    }

    @Test func aRequestLostBeforeArrivalIsNeverApplied() throws {
        let result = try run(Self.scenario(server: """
          - host: api.cafe.example
            routes: [{ method: POST, path: /check-ins, status: 201 }]
            failures: [{ fail: lost-before-arrival, count: 1 }]
        """, expect: """
          - { http: POST /check-ins, sent: 2, arrived: 1, applied: 1, answered: 1 }
          - { event: http.failed, count: 1, where: { error: timedOut, lost: request } }
        """))
        #expect(result.passed, "\(failures(result))")
    }

    /// Failures by virtual time: a 503 for requests sent in the first minute, a slow server from 1m
    /// (20 s more than the request's 15 s timeout: applied, and the device times out).
    @Test func failuresFromAVirtualInstantAndWithinAWindow() throws {
        let result = try run(Self.scenario(server: """
          - host: api.cafe.example
            routes: [{ method: POST, path: /check-ins, status: 201 }]
            failures:
              - { fail: status, status: 503, within: [0s, 59s] }
              - { fail: slow, by: 20s, from: 1m, count: 1 }
        """, expect: """
          - { event: checkin.answered, count: 2, where: { status: 503 } }
          - { http: POST /check-ins, applied: 1, answered: 3, within: [0s, 3m] }
          - { event: http.failed, count: 1, within: [1m25s200ms, 1m25s200ms], where: { error: timedOut, lost: reply } }
          - { event: http.arrived, count: 1, within: [1m55s250ms, 1m55s250ms], where: { replayed: true } }
        """))
        // 10s: 503 (not applied); 40s100ms: 503; 1m10s200ms: slow (applied; the device times out 15 s
        // later); 1m55s200ms: the same key again, answered with the applied request's 201, not applied twice.
        #expect(result.passed, "\(failures(result))")
        let sent = result.events.filter { $0.name == "http.request" }.map { $0.time.offset }
        #expect(sent == [.seconds(10), .milliseconds(40_100), .milliseconds(70_200), .milliseconds(115_200)])
    }

    @Test func theDeviceOfflineFailsAtOnceWithoutReachingTheServer() throws {
        let result = try run(Self.scenario(server: Self.cafeServer, expect: """
          - { http: POST /check-ins, sent: { at-least: 2 }, arrived: 1 }
          - { event: http.failed, count: 1, within: [10s, 10s], where: { error: notConnectedToInternet } }
        """, timeline: """
          - { at: 5s, do: go-offline }
          - { at: 10s, do: check-in }
          - { at: 20s, do: go-online }
        """))
        #expect(result.passed, "\(failures(result))")
    }

    @Test func aHostNoServerAnswersIsReportedWithHowToDeclareIt() throws {
        let result = try run(Self.scenario(server: Self.cafeServer, expect: """
          - { http: POST /check-ins, sent: 0 }
        """, settings: "{ server: \"https://api.other.example\" }"))
        let diagnostic = try #require(result.events.first { $0.name == "api.diagnostic" })
        #expect(diagnostic["message"]?.description.contains("http-servers: [{ host: api.other.example") == true)
        #expect(result.events.contains { $0.name == "http.failed" && $0["error"]?.description == "cannotFindHost" })
    }

    @Test(arguments: [
        ("  - { host: api.cafe.example, failures: [{ fail: reply-lots, count: 1 }] }", "4:52", "unknown failure point 'reply-lots'"),
        ("  - { host: api.cafe.example, failures: [{ fail: status, count: 1 }] }", "4:44", "fail: status needs status:"),
        ("  - { host: api.cafe.example, failures: [{ fail: slow, count: 1 }] }", "4:44", "fail: slow needs by:"),
        ("  - { host: api.cafe.example, failures: [{ fail: reply-lost, status: 503, count: 1 }] }", "4:64", "goes with fail: status"),
        ("  - { host: api.cafe.example, failures: [{ fail: reply-lost }] }", "4:44", "say which requests fail"),
        ("  - { host: api.cafe.example, failures: [{ fail: reply-lost, within: [0s, 1m], from: 2m }] }", "4:82", "not both"),
        ("  - { host: api.cafe.example, routes: [{ method: POST, path: check-ins }] }", "4:64", "a path starts with '/'"),
        ("  - { host: api.cafe.example, routes: [{ method: POTS, path: /check-ins }] }", "4:52", "unknown HTTP method 'POTS'"),
        ("  - { host: api.cafe.example, routes: [{ method: POST, path: /a, status: 1000 }] }", "4:76", "100 to 599"),
        ("  - { host: \"https://api.cafe.example\" }", "4:15", "no scheme, port or path"),
        ("  - { host: api.cafe.example, routes: [{ method: POST, path: /a, json: {}, body: x }] }", "4:84", "either json: or body:"),
        ("  - { host: api.cafe.example, rotues: [] }", "4:33", "did you mean 'routes'?"),
    ] as [(String, String, String)])
    func misuseOfTheServerDeclarationIsRefusedAtItsLineAndColumn(server: String, at: String, message: String) throws {
        let text = Self.scenario(server: "  " + server, expect: "  - { event: step }")
        let error = #expect(throws: ScenarioError.self) { try ScenarioParser.parse(text, file: "http.yaml") }
        #expect(error?.description.contains("http.yaml:\(at):") == true, "\(error?.description ?? "")")
        #expect(error?.description.contains(message) == true, "\(error?.description ?? "")")
    }

    @Test(arguments: [
        ("  - { http: POST /checkins, applied: 1 }", "15:13", "did you mean 'POST /check-ins'?"),
        ("  - { http: POST /check-ins }", "15:5", "say what to count"),
        ("  - { http: /check-ins, applied: 1 }", "15:13", "a method and a path"),
        ("  - { http: POST /check-ins, host: api.cafe.exmaple, applied: 1 }", "15:36", "unknown host"),
        ("  - { http: POST /check-ins, aplied: 1 }", "15:30", "did you mean 'applied'?"),
        ("  - { http: POST /check-ins, applied: { at-least: 2, at-most: 1 } }", "15:39", "at-most 1 is less than at-least 2"),
    ] as [(String, String, String)])
    func misuseOfAnHTTPExpectationIsRefusedAtItsLineAndColumn(expectation: String, at: String, message: String) throws {
        let text = Self.scenario(server: Self.cafeServer, expect: expectation)
        let error = #expect(throws: ScenarioError.self) { try ScenarioParser.parse(text, file: "http.yaml") }
        #expect(error?.description.contains("http.yaml:\(at):") == true, "\(error?.description ?? "")")
        #expect(error?.description.contains(message) == true, "\(error?.description ?? "")")
    }

    @Test func anHTTPExpectationWithoutAnyServerSaysHowToDeclareOne() throws {
        let text = """
        name: no server
        devices: [{ id: phone, at: [52.52, 13.405] }]
        expect:
          - { http: POST /check-ins, applied: 1 }
        """
        let error = #expect(throws: ScenarioError.self) { try ScenarioParser.parse(text, file: "http.yaml") }
        #expect(error?.description.contains("http.yaml:4:13: no HTTP server is declared: add http-servers:") == true, "\(error?.description ?? "")")
    }
}
