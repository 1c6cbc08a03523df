import DeviceSim
import DeviceSimNetwork
import DeviceSimTesting
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// WWDC21 "Use async/await with URLSession" (Samples/UsingAsyncAwaitWithURLSession.swift): `data(from:)`
/// on a simulated phone.
@Suite(.simulation) struct AsyncDataTests {
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3])
    let photo = URL(string: "https://photos.example.com/dog.png")!

    func photos(_ simulation: TestSimulation, body: Data = AsyncDataTests.png) -> FakeHTTPServer {
        FakeHTTPServer(simulation, host: "photos.example.com") { server in
            server.route("GET", "/dog.png") { _ in FakeHTTPServer.Response(headers: ["Content-Type": "image/png"], body: body) }
        }
    }

    @Test func theAwaitingCodeResumesWithThePhotoAtTheReplysInstant() async throws {
        let simulation = try TestSimulation.current
        simulation.addDevice("phone", at: cafe, gpsOn: false)
        photos(simulation).latency = .milliseconds(200)
        let photo = photo
        let task = simulation.spawn { try await fetchPhoto(url: photo) }
        try await simulation.advance(by: .milliseconds(399))
        #expect(task.result == nil)
        try await simulation.advance(by: .milliseconds(1))
        #expect(try task.value().data == Self.png)
    }

    @Test func aStatusOtherThan200ThrowsInvalidServerResponse() async throws {
        let simulation = try TestSimulation.current
        simulation.addDevice("phone", at: cafe, gpsOn: false)
        photos(simulation).failNext(1, with: .status(503))
        let photo = photo
        let task = simulation.spawn { try await fetchPhoto(url: photo) }
        try await simulation.advance(by: .seconds(1))
        #expect(throws: WoofError.invalidServerResponse) { try task.value() }
    }

    @Test func dataThatIsNoImageThrowsUnsupportedImage() async throws {
        let simulation = try TestSimulation.current
        simulation.addDevice("phone", at: cafe, gpsOn: false)
        _ = photos(simulation, body: Data("woof".utf8))
        let photo = photo
        let task = simulation.spawn { try await fetchPhoto(url: photo) }
        try await simulation.advance(by: .seconds(1))
        #expect(throws: WoofError.unsupportedImage) { try task.value() }
    }

    /// `data(from:)` throws the URLError: offline at once; a reply lost, after the session's
    /// `timeoutIntervalForRequest` when the request did not set its own.
    @Test func offlineDataFromThrowsNotConnectedToInternetAtOnce() async throws {
        let simulation = try TestSimulation.current
        let phone = simulation.addDevice("phone", at: cafe, gpsOn: false)
        _ = photos(simulation)
        phone.setOnline(false)
        let photo = photo
        let task = simulation.spawn { try await fetchPhoto(url: photo) }
        try await simulation.runCurrent()
        #expect { try task.value() } throws: { ($0 as? URLError)?.code == .notConnectedToInternet }
    }

    /// "timeoutIntervalForRequest: The timeout interval to use when waiting for additional data" (a
    /// session of its own, configured for the simulation, its requests made from URLs).
    @Test func aSessionsTimeoutIntervalForRequestTimesOutALostReply() async throws {
        let simulation = try TestSimulation.current
        simulation.addDevice("phone", at: cafe, gpsOn: false)
        photos(simulation).failNext(1, with: .replyLost)
        let configuration = SimulatedURLProtocol.sessionConfiguration(.ephemeral)
        configuration.timeoutIntervalForRequest = 5
        let session = URLSession(configuration: configuration)
        let photo = photo
        let clock = simulation.clock
        let task = simulation.spawn { () async -> (URLError.Code?, VirtualInstant) in
            do {
                _ = try await session.data(from: photo)
                return (nil, clock.now)
            } catch {
                return ((error as? URLError)?.code, clock.now)
            }
        }
        try await simulation.advance(by: .seconds(70))
        let (code, at) = try task.value()
        #expect(code == .timedOut)
        #expect(at == VirtualInstant(offset: .seconds(5)))
    }

    /// "httpAdditionalHeaders: A dictionary of additional headers to send with requests ... If the same
    /// header appears in both this array and the request object, the request object's value takes
    /// precedence."
    @Test func aSessionsAdditionalHeadersAreSentAndTheRequestsOwnWin() async throws {
        let simulation = try TestSimulation.current
        simulation.addDevice("phone", at: cafe, gpsOn: false)
        let server = photos(simulation)
        let configuration = SimulatedURLProtocol.sessionConfiguration(.ephemeral)
        configuration.httpAdditionalHeaders = ["Authorization": "Bearer session", "X-Client": "sample"]
        let session = URLSession(configuration: configuration)
        var request = URLRequest(url: photo)
        request.setValue("Bearer request", forHTTPHeaderField: "authorization")
        let sent = request
        let task = simulation.spawn { try await session.data(for: sent).0 }
        try await simulation.advance(by: .seconds(1))
        #expect(try task.value() == Self.png)
        let arrived = try #require(server.requests.first)
        #expect(arrived.header("Authorization") == "Bearer request")
        #expect(arrived.header("X-Client") == "sample")
        #expect(arrived.header("Content-Length") == nil)
    }
}
