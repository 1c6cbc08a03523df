import DeviceSimHAL
import DeviceSimServer
import DeviceSimTime
import Foundation

/// An HTTP server a scenario file declares under `http-servers:`: what it answers and where its
/// requests fail. The run makes one ``DeviceSimServer/SimulatedHTTPServer`` of it (the server tests
/// make as `FakeHTTPServer`), which the devices' `URLSession` requests reach.
///
/// ```yaml
/// http-servers:
///   - host: api.cafe.example
///     routes:
///       - { method: POST, path: /check-ins, status: 201, json: { id: c1 } }
///     failures:
///       - { fail: reply-lost, count: 1 }
/// ```
public struct HTTPServerSpec: Sendable {
    /// One route: what the server answers to `method` requests for `path`.
    public struct Route: Sendable {
        /// `GET`, `POST`, ... (upper case).
        public var method: String
        /// The path it answers (`/check-ins`), without a query.
        public var path: String
        /// The status of its answer.
        public var status: Int
        /// The header fields of its answer (`Content-Type: application/json` with `json:`).
        public var headers: [String: String]
        /// The body of its answer.
        public var body: Data
        /// How long the server takes before it answers.
        public var delay: Duration
    }

    /// The host it answers for, lowercased.
    public var host: String
    /// Each way, device to server and back.
    public var latency: Duration
    /// The header that keys requests for idempotency (nil: none).
    public var idempotencyKeyHeader: String?
    /// What it answers, by method and path (anything else: a 404).
    public var routes: [Route]
    /// Where its requests fail, in file order.
    public var failures: [SimulatedHTTPServer.FailureRule]
    /// Where the declaration is written.
    public var location: SourceLocation

    /// The server, on `scheduler`.
    func makeServer(scheduler: EventScheduler) -> SimulatedHTTPServer {
        let server = SimulatedHTTPServer(scheduler: scheduler, host: host, latency: latency)
        server.idempotencyKeyHeader = idempotencyKeyHeader
        for route in routes {
            let response = SimulatedHTTPServer.Response(status: route.status, headers: route.headers, body: route.body)
            server.route(route.method, route.path, delay: route.delay) { _ in response }
        }
        for rule in failures { server.fail(rule) }
        return server
    }

    /// The transport of a run's devices: the servers `specs` declare, and for any other host a
    /// `URLError.cannotFindHost` with an `api.diagnostic` saying how to declare it.
    static func transport(_ specs: [HTTPServerSpec], scheduler: EventScheduler) -> SimulatedHTTPServers {
        let servers = SimulatedHTTPServers { request, device in
            let hint = "declare it in the scenario: http-servers: [{ host: \(request.host), routes: [{ method: \(request.method), path: \(request.path), status: 200 }] }]"
            device.reportAPIDiagnostic(api: "URLSession", message: "\(request.method) \(request.url) went to the host '\(request.host)', which no server of the scenario answers for (URLError.cannotFindHost): \(hint)")
            return hint
        }
        for spec in specs { servers.add(spec.makeServer(scheduler: scheduler)) }
        return servers
    }
}
