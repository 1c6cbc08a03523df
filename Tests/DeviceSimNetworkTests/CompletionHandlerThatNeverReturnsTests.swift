import DeviceSim
import DeviceSimNetwork
import DeviceSimTestSupport
import DeviceSimTesting
import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// A data task's completion handler runs on its session's delegate queue; the simulation waits, in real
/// time, for it to return before virtual time goes on. When it does not return within the limit, the test
/// is told which request it was, instead of failing later for no visible reason. (Slow: the wait is ten
/// seconds of real time.)
@Suite(.simulation, .enabled(if: SlowTests.run, "slow: DEVICESIM_SLOW_TESTS=1 swift test runs it"))
struct CompletionHandlerThatNeverReturnsTests {
    @Test func aCompletionHandlerStillRunningAfterTheLimitIsReportedWithItsRequest() async throws {
        let simulation = try TestSimulation.current
        simulation.addDevice("phone", at: GeoCoordinate(latitude: 52.5145, longitude: 13.3501))
        _ = FakeHTTPServer(simulation, host: "api.example.com") { server in
            server.route("GET", "/items") { _ in .json(["items": ["tea"]]) }
        }
        // A queue of this test's own: blocking it holds up no other test's session.
        let delegateQueue = OperationQueue()
        delegateQueue.maxConcurrentOperationCount = 1
        let session = URLSession(configuration: SimulatedURLProtocol.sessionConfiguration(), delegate: nil, delegateQueue: delegateQueue)
        let release = DispatchSemaphore(value: 0)
        try simulation.perform {
            session.dataTask(with: URL(string: "https://api.example.com/items")!) { _, _, _ in
                _ = release.wait(timeout: .now() + .seconds(30))
            }.resume()
        }
        defer { release.signal() }
        do {
            try await simulation.advance(by: .seconds(1))
            Issue.record("the advance went on as if the completion handler had returned")
        } catch TestSimulationError.handoffNeverArrived(let work) {
            #expect(work.count == 1)
            #expect(work.first?.contains("the completion of GET https://api.example.com/items") == true, "\(work)")
        }
    }
}
