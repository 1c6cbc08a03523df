import DeviceSim
import Foundation

/// A fake HTTP server that the simulated devices' `URLSession` requests reach over their network, in
/// virtual time: routes by method and path, every request recorded with when it was sent, when it
/// arrived and whether the server applied it, and failure points scriptable per call
/// (``DeviceSimServer/SimulatedHTTPServer/failNext(_:with:)``) and by virtual time
/// (``DeviceSimServer/SimulatedHTTPServer/fail(within:with:)``): lost before it arrives, applied and the
/// reply lost, slow, answered with a status. It is the server a scenario file declares under
/// `http-servers:` (``DeviceSimServer/SimulatedHTTPServer``), so test traces and scenario traces agree.
///
/// ```swift
/// let server = FakeHTTPServer(simulation, host: "api.example.com") { server in
///     server.route("POST", "/check-ins") { request in .json(["id": "c1"], status: 201) }
/// }
/// server.failNext(1, with: .replyLost)            // applied, and the reply never comes back
/// // ... the app checks in, times out, retries with the same key ...
/// #expect(server.applied("POST", "/check-ins").count == 1)
/// ```
public typealias FakeHTTPServer = SimulatedHTTPServer

extension SimulatedHTTPServer {
    /// A server for `host` in `simulation` (requests to it from every device of the simulation reach
    /// it); `routes` adds its routes.
    ///
    /// ```swift
    /// let server = FakeHTTPServer(simulation, host: "api.example.com") { server in
    ///     server.route("GET", "/venues/cafe") { _ in .json(["name": "Café"]) }
    /// }
    /// ```
    public convenience init(_ simulation: TestSimulation, host: String, latency: Duration = .milliseconds(50), routes: (SimulatedHTTPServer) -> Void = { _ in }) {
        self.init(scheduler: simulation.scheduler, host: host, latency: latency)
        routes(self)
        simulation.httpServers.add(self)
    }
}

extension SimulatedHTTPServers {
    /// The fake HTTP servers of a test: a request to a host none answers for is noted, and the test
    /// fails at its next advance saying how to add one.
    static func forTest(actions: SimulationActions) -> SimulatedHTTPServers {
        SimulatedHTTPServers { request, _ in
            let hint = "add a server for it in the test: FakeHTTPServer(simulation, host: \"\(request.host)\") { server in "
                + "server.route(\"\(request.method)\", \"\(request.path)\") { request in .json(...) } }"
            actions.note(.noServerForHost(request.host, request: "\(request.method) \(request.url)", hint: hint))
            return hint
        }
    }
}
