import DeviceSim
import DeviceSimNetwork
import DeviceSimTesting
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// "Uploading data to a website" (Samples/UploadingDataToAWebsite.swift) on a simulated phone. The
/// sample reports by printing, so these tests run one at a time and read the lines printed since they
/// began.
@Suite(.simulation, .serialized) struct UploadingDataTests {
    /// example.com's `/post`, answering with JSON (or `status` without applying it).
    func examplePost(_ simulation: TestSimulation) -> FakeHTTPServer {
        FakeHTTPServer(simulation, host: "example.com") { server in
            server.route("POST", "/post") { _ in .json(["received": true], status: 201) }
        }
    }

    /// "The session figures out the Content-Length": the server gets the JSON body of the order and the
    /// Content-Type header set with `setValue(_:forHTTPHeaderField:)`; the handler gets the JSON reply.
    @Test func theOrderArrivesAsJSONAndTheReplyIsPrinted() async throws {
        let simulation = try TestSimulation.current
        simulation.addDevice("phone", at: cafe, gpsOn: false)
        let server = examplePost(simulation)
        let before = printedLines.all.count
        try simulation.perform { placeOrder() }
        try await simulation.advance(by: .milliseconds(100))
        let request = try #require(server.applied("POST", "/post").first)
        #expect(request.header("Content-Type") == "application/json")
        #expect(request.header("Content-Length") == String(request.body.count))
        let order = try request.json(Order.self)
        #expect(order.customerId == "12345" && order.items == ["Cheese pizza", "Diet soda"])
        #expect(Array(printedLines.all.dropFirst(before)) == [#"got data: {"received":true}"#])
    }

    /// A 500 is "server error"; the request was not applied.
    @Test func aServerErrorIsPrintedAsSuch() async throws {
        let simulation = try TestSimulation.current
        simulation.addDevice("phone", at: cafe, gpsOn: false)
        let server = examplePost(simulation)
        server.failNext(1, with: .status(500))
        let before = printedLines.all.count
        try simulation.perform { placeOrder() }
        try await simulation.advance(by: .milliseconds(100))
        #expect(Array(printedLines.all.dropFirst(before)) == ["server error"])
        #expect(server.applied().isEmpty)
    }

    /// Offline, the upload fails at once with `NSURLErrorNotConnectedToInternet` (-1009).
    @Test func offlineTheUploadFailsAtOnce() async throws {
        let simulation = try TestSimulation.current
        let phone = simulation.addDevice("phone", at: cafe, gpsOn: false)
        let server = examplePost(simulation)
        phone.setOnline(false)
        let before = printedLines.all.count
        try simulation.perform { placeOrder() }
        try await simulation.runCurrent()
        let lines = Array(printedLines.all.dropFirst(before))
        #expect(lines.count == 1)
        #expect(lines.first?.hasPrefix("error: ") == true)
        #expect(lines.first?.contains("-1009") == true)
        #expect(server.requests.first?.arrivedAt == nil)
    }
}
