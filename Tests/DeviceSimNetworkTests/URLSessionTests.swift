import DeviceSim
import DeviceSimNetwork
import DeviceSimTesting
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization
import Testing

/// What a request ended with, and the virtual instant it ended at.
private struct Ended: Sendable {
    let status: Int?
    let body: String
    let headers: [String: String]
    let error: URLError.Code?
    let at: VirtualInstant
}

private let cafe = GeoCoordinate(latitude: 52.5145, longitude: 13.3501)
private let items = URL(string: "https://api.example.com/items")!

/// Sends `request` with `session` from the simulation's task; what it ended with, and when.
private func ended(_ request: URLRequest, session: URLSession, clock: VirtualClock) async -> Ended {
    do {
        let (data, response) = try await session.data(for: request)
        let http = response as! HTTPURLResponse
        let headers = Dictionary(uniqueKeysWithValues: http.allHeaderFields.map { ("\($0.key)", "\($0.value)") })
        return Ended(status: http.statusCode, body: String(decoding: data, as: UTF8.self), headers: headers, error: nil, at: clock.now)
    } catch let error as URLError {
        return Ended(status: nil, body: "", headers: [:], error: error.code, at: clock.now)
    } catch {
        return Ended(status: nil, body: "\(error)", headers: [:], error: nil, at: clock.now)
    }
}

private func request(_ url: URL = items, method: String = "GET", timeout: TimeInterval = 10) -> URLRequest {
    var request = URLRequest(url: url)
    request.httpMethod = method
    request.timeoutInterval = timeout
    return request
}

private func ms(_ milliseconds: Int64) -> VirtualInstant { VirtualInstant(offset: .milliseconds(milliseconds)) }

/// `URLSession` through the simulated connection to a `FakeHTTPServer`: replies, failure points,
/// the device's connectivity, at virtual instants.
@Suite(.simulation) struct URLSessionTests {
    func itemsServer(_ simulation: TestSimulation) -> FakeHTTPServer {
        FakeHTTPServer(simulation, host: "api.example.com") { server in
            server.route("GET", "/items") { _ in
                var response = FakeHTTPServer.Response.json(["items": ["tea", "cake"]])
                response.headers["X-Served-By"] = "fake"
                return response
            }
            server.route("POST", "/check-ins") { _ in .json(["id": "c1"], status: 201) }
        }
    }

    @Test func dataForARequestGetsTheServersStatusHeadersAndBodyAfterTheRoundTrip() async throws {
        let simulation = try TestSimulation.current
        let clock = simulation.clock
        simulation.addDevice("phone", at: cafe)
        let server = itemsServer(simulation)
        let task = simulation.spawn { await ended(request(), session: .shared, clock: clock) }
        try await simulation.advance(by: .milliseconds(99))
        #expect(task.result == nil)
        try await simulation.advance(by: .milliseconds(1))
        let result = try #require(try task.result?.get())
        #expect(result.status == 200)
        #expect(result.body == #"{"items":["tea","cake"]}"#)
        #expect(result.headers["X-Served-By"] == "fake")
        #expect(result.at == ms(100))                       // 50 ms each way
        #expect(server.requests.map(\.arrivedAt) == [ms(50)])
        #expect(server.applied("GET", "/items").count == 1)
    }

    @Test func dataFromAURLOnASessionWithItsOwnConfiguration() async throws {
        let simulation = try TestSimulation.current
        simulation.addDevice("phone", at: cafe)
        let server = itemsServer(simulation)
        server.latency = .milliseconds(300)
        let session = URLSession(configuration: SimulatedURLProtocol.sessionConfiguration())
        let task = simulation.spawn { () async throws -> Int in
            let (_, response) = try await session.data(from: items)
            return (response as! HTTPURLResponse).statusCode
        }
        try await simulation.advance(by: .milliseconds(600))
        #expect(try task.result?.get() == 200)
        #expect(simulation.events(named: "http.response").map(\.time) == [ms(600)])
    }

    @Test func aDataTaskCallsItsCompletionHandlerAtTheReplysInstant() async throws {
        let simulation = try TestSimulation.current
        simulation.addDevice("phone", at: cafe)
        _ = itemsServer(simulation)
        let status = Mutex<Int?>(nil)
        try simulation.perform {
            URLSession.shared.dataTask(with: items) { _, response, _ in
                status.withLock { $0 = (response as? HTTPURLResponse)?.statusCode }
            }.resume()
        }
        try await simulation.advance(by: .milliseconds(99))
        #expect(status.withLock { $0 } == nil)
        try await simulation.advance(by: .milliseconds(1))
        #expect(status.withLock { $0 } == 200)
    }

    @Test func uploadForARequestFromDataIsAnswered() async throws {
        let simulation = try TestSimulation.current
        simulation.addDevice("phone", at: cafe)
        let server = itemsServer(simulation)
        let task = simulation.spawn { () async throws -> Int in
            let (_, response) = try await URLSession.shared.upload(for: request(URL(string: "https://api.example.com/check-ins")!, method: "POST"), from: Data("{}".utf8))
            return (response as! HTTPURLResponse).statusCode
        }
        try await simulation.advance(by: .seconds(1))
        #expect(try task.result?.get() == 201)
        #expect(server.applied("POST", "/check-ins").count == 1)
        // The body given separately, not in the request, reaches the server too.
        #expect(server.requests.first.map { String(decoding: $0.body, as: UTF8.self) } == "{}")
    }

    @Test func uploadForARequestFromAFileSendsTheFilesBytes() async throws {
        let simulation = try TestSimulation.current
        simulation.addDevice("phone", at: cafe)
        let server = itemsServer(simulation)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("devicesim-upload-\(UInt64.random(in: 0...UInt64.max)).json")
        try Data(#"{"venue":"cafe"}"#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let task = simulation.spawn { () async throws -> Int in
            let (_, response) = try await URLSession.shared.upload(for: request(URL(string: "https://api.example.com/check-ins")!, method: "POST"), fromFile: file)
            return (response as! HTTPURLResponse).statusCode
        }
        try await simulation.advance(by: .seconds(1))
        #expect(try task.result?.get() == 201)
        #expect(server.requests.first.map { String(decoding: $0.body, as: UTF8.self) } == #"{"venue":"cafe"}"#)
    }

    @Test func offlineFailsWithNotConnectedToInternetAtOnce() async throws {
        let simulation = try TestSimulation.current
        let clock = simulation.clock
        let phone = simulation.addDevice("phone", at: cafe)
        let server = itemsServer(simulation)
        phone.setOnline(false)
        let task = simulation.spawn { await ended(request(), session: .shared, clock: clock) }
        try await simulation.runCurrent()
        let result = try #require(try task.result?.get())
        #expect(result.error == .notConnectedToInternet)
        #expect(result.at == .zero)
        #expect(server.requests.first?.arrivedAt == nil)
    }

    @Test(arguments: [(Int64(30), false, "request"), (Int64(80), true, "reply")])
    func theInterfaceGoingDownMidRequestFailsWithNetworkConnectionLost(downAt: Int64, applied: Bool, lost: String) async throws {
        let simulation = try TestSimulation.current
        let clock = simulation.clock
        let phone = simulation.addDevice("phone", at: cafe)
        let server = itemsServer(simulation)
        try phone.setOnline(false, at: ms(downAt))
        let task = simulation.spawn { await ended(request(items.deletingLastPathComponent().appendingPathComponent("check-ins"), method: "POST"), session: .shared, clock: clock) }
        try await simulation.advance(by: .seconds(1))
        let result = try #require(try task.result?.get())
        #expect(result.error == .networkConnectionLost)
        #expect(result.at == ms(downAt))
        #expect(server.applied().isEmpty == !applied)
        #expect(simulation.events(named: "http.failed").first?.fields.contains { $0.key == "lost" && $0.value == .string(lost) } == true)
    }

    @Test func aRequestLostBeforeItArrivesTimesOutAndIsNotApplied() async throws {
        let simulation = try TestSimulation.current
        let clock = simulation.clock
        simulation.addDevice("phone", at: cafe)
        let server = itemsServer(simulation)
        server.failNext(1, with: .lostBeforeArrival)
        let task = simulation.spawn { await ended(request(timeout: 5), session: .shared, clock: clock) }
        try await simulation.advance(by: .seconds(10))
        let result = try #require(try task.result?.get())
        #expect(result.error == .timedOut)
        #expect(result.at == VirtualInstant(offset: .seconds(5)))
        #expect(server.arrived().isEmpty)
        #expect(server.requests.first?.outcome == .failed(error: "timedOut", lost: .request))
    }

    @Test func anAppliedRequestWhoseReplyIsLostTimesOut() async throws {
        let simulation = try TestSimulation.current
        let clock = simulation.clock
        simulation.addDevice("phone", at: cafe)
        let server = itemsServer(simulation)
        server.failNext(1, with: .replyLost)
        let task = simulation.spawn { await ended(request(timeout: 5), session: .shared, clock: clock) }
        try await simulation.advance(by: .seconds(10))
        let result = try #require(try task.result?.get())
        #expect(result.error == .timedOut)
        #expect(result.at == VirtualInstant(offset: .seconds(5)))
        #expect(server.applied().count == 1)
        #expect(server.requests.first?.outcome == .failed(error: "timedOut", lost: .reply))
    }

    @Test func aSlowServerAnswersLateOrTimesOut() async throws {
        let simulation = try TestSimulation.current
        let clock = simulation.clock
        simulation.addDevice("phone", at: cafe)
        let server = itemsServer(simulation)
        server.failNext(1, with: .slow(.seconds(2)))
        server.failNext(1, with: .slow(.seconds(20)))
        let first = simulation.spawn { await ended(request(timeout: 5), session: .shared, clock: clock) }
        try await simulation.advance(by: .seconds(10))
        let second = simulation.spawn { await ended(request(timeout: 5), session: .shared, clock: clock) }
        try await simulation.advance(by: .seconds(10))
        #expect(try first.result?.get().status == 200)
        #expect(try first.result?.get().at == ms(2_100))
        #expect(try second.result?.get().error == .timedOut)
        #expect(server.applied().count == 2)
    }

    @Test func scriptedStatusesPerCallAndByTime() async throws {
        let simulation = try TestSimulation.current
        let clock = simulation.clock
        simulation.addDevice("phone", at: cafe)
        let server = itemsServer(simulation)
        server.failNext(1, with: .status(503))
        server.fail(within: .seconds(10) ... .seconds(20), with: .status(429))
        var statuses: [Int?] = []
        for start in [0, 1, 12, 25] as [Int64] {
            try await simulation.advance(to: VirtualInstant(offset: .seconds(start)))
            let task = simulation.spawn { await ended(request(), session: .shared, clock: clock) }
            try await simulation.advance(by: .milliseconds(500))
            statuses.append(try task.result?.get().status)
        }
        #expect(statuses == [503, 200, 429, 200])
        #expect(server.applied().count == 2)
    }

    @Test func theTraceHasTheRequestsAndReplies() async throws {
        let simulation = try TestSimulation.current
        let clock = simulation.clock
        simulation.addDevice("phone", at: cafe)
        let server = itemsServer(simulation)
        server.failNext(1, with: .replyLost)
        let task = simulation.spawn { () async -> [Ended] in
            [await ended(request(timeout: 2), session: .shared, clock: clock), await ended(request(), session: .shared, clock: clock)]
        }
        try await simulation.advance(by: .seconds(5))
        #expect(try task.result?.get().count == 2)
        let lines = simulation.trace.events.filter { $0.name.hasPrefix("http.") }.map { event in
            "\(event.time) \(event.device ?? "-") \(event.name) " + event.fields.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        }
        #expect(lines.count == 6)
        #expect(lines.map { $0.split(separator: " ")[2] } == ["http.request", "http.arrived", "http.failed", "http.request", "http.arrived", "http.response"])
        #expect(lines[2].contains("error=") && lines[2].contains("timedOut") && lines[2].contains("reply"))
        #expect(lines[5].contains("status=") && lines[5].contains("200"))
    }

    @Test func aRequestToAHostWithNoServerFailsAndSaysHowToAddOne() async throws {
        let simulation = try TestSimulation.current
        let clock = simulation.clock
        simulation.addDevice("phone", at: cafe)
        _ = itemsServer(simulation)
        let task = simulation.spawn { await ended(request(URL(string: "https://elsewhere.example/x")!), session: .shared, clock: clock) }
        let error = await #expect(throws: TestSimulationError.self) { try await simulation.advance(by: .seconds(1)) }
        #expect("\(error!)".contains("FakeHTTPServer(simulation, host: \"elsewhere.example\")"))
        #expect(try task.result?.get().error == .cannotFindHost)
    }
}

/// The idempotency-key pair: a client that retries with the same key is applied once when a reply is
/// lost; one that makes a new key per retry is caught by the same assertion.
@Suite(.simulation) struct IdempotencyKeyTests {
    /// Posts a check-in until the server answers 2xx, waiting 30 s between tries; how many tries it took.
    static func checkIn(newKeyPerRetry: Bool, clock: VirtualClock) async -> Int {
        var key = "key-1"
        for attempt in 1...5 {
            var request = request(URL(string: "https://api.example.com/check-ins")!, method: "POST", timeout: 15)
            request.setValue(key, forHTTPHeaderField: "Idempotency-Key")
            request.httpBody = Data(#"{"venue":"cafe"}"#.utf8)
            if let (_, response) = try? await URLSession.shared.data(for: request), (response as? HTTPURLResponse)?.statusCode == 201 {
                return attempt
            }
            if newKeyPerRetry { key = "key-\(attempt + 1)" }
            try? await clock.sleep(for: .seconds(30))
        }
        return 0
    }

    func appliedCheckIns(newKeyPerRetry: Bool) async throws -> (applied: Int, tries: Int?) {
        let simulation = try TestSimulation.current
        let clock = simulation.clock
        simulation.addDevice("phone", at: cafe)
        let server = FakeHTTPServer(simulation, host: "api.example.com") { server in
            server.route("POST", "/check-ins") { _ in .json(["id": "c1"], status: 201) }
        }
        server.failNext(1, with: .replyLost)
        let task = simulation.spawn { await Self.checkIn(newKeyPerRetry: newKeyPerRetry, clock: clock) }
        try await simulation.advance(by: .seconds(120))
        return (server.applied("POST", "/check-ins").count, try task.result?.get())
    }

    @Test func aClientThatRetriesWithTheSameKeyIsAppliedOnce() async throws {
        let outcome = try await appliedCheckIns(newKeyPerRetry: false)
        #expect(outcome.tries == 2)
        #expect(outcome.applied == 1)
    }

    @Test func aClientThatMakesANewKeyPerRetryIsCaughtByAppliedOnce() async throws {
        let outcome = try await appliedCheckIns(newKeyPerRetry: true)
        #expect(outcome.tries == 2)
        #expect(outcome.applied != 1, "the 'applied once' assertion must fail for this client")
    }
}

/// The same requests, failure points and seed give a byte-identical trace, run after run.
@Suite struct URLSessionTraceTests {
    /// A simulation where a phone sends three requests (one reply lost, one while offline); its trace.
    static func trace() throws -> String {
        let simulation = TestSimulation(seed: 3)
        let phone = simulation.addDevice("phone", at: cafe)
        let server = FakeHTTPServer(simulation, host: "api.example.com") { server in
            server.route("GET", "/items") { _ in .json(["tea"]) }
        }
        server.failNext(1, with: .replyLost)
        try phone.setOnline(false, at: VirtualInstant(offset: .seconds(20)))
        let clock = simulation.clock
        DeviceContext.withDevice(phone.device) {
            _ = simulation.spawn { () async -> [URLError.Code?] in
                var codes: [URLError.Code?] = []
                for _ in 0..<3 {
                    codes.append(await ended(request(timeout: 8), session: .shared, clock: clock).error)
                    try? await clock.sleep(for: .seconds(1))
                }
                return codes
            }
        }
        try simulation.advance(by: .seconds(30))
        return simulation.traceJSONLines
    }

    @Test func theTraceIsTheSameEveryRun() throws {
        let first = try Self.trace()
        #expect(first.contains("http.failed"))
        for _ in 0..<5 { #expect(try Self.trace() == first) }
    }
}

/// A request from code running in a simulation on no device (a callback that bound none) is claimed and
/// failed, not sent to the real network; outside any simulation the protocol leaves requests alone.
@Suite struct RequestsOnNoDeviceTests {
    @Test func aRequestFromTheSimulationsThreadOnNoDeviceIsClaimed() throws {
        let scheduler = EventScheduler()
        let claimed = Mutex<Bool?>(nil)
        scheduler.schedule(after: .seconds(1)) {
            claimed.withLock { $0 = SimulatedURLProtocol.canInit(with: URLRequest(url: items)) }
        }
        try scheduler.run(until: VirtualInstant(offset: .seconds(2)))
        #expect(DeviceContext.current == nil)
        #expect(claimed.withLock { $0 } == true)
        #expect(SimulatedURLProtocol.canInit(with: URLRequest(url: items)) == false)
    }
}
