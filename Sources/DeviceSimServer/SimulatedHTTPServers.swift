import DeviceSimHAL
import DeviceSimTime

/// The HTTP servers of one simulation, by host: the ``DeviceSimHAL/HTTPTransport`` every device's
/// `URLSession` requests go to (``DeviceSimHAL/Device/http``). A request to a host no server answers
/// for fails with `URLError.cannotFindHost` (traced as `http.request` then `http.failed`), and
/// `missingHost` is told, with the request, so the test or the run can say how to add one.
///
/// ```swift
/// let servers = SimulatedHTTPServers { request, device in "add a server for \(request.host)" }
/// servers.add(SimulatedHTTPServer(scheduler: scheduler, host: "api.example.com"))
/// device.http = servers
/// ```
public final class SimulatedHTTPServers: HTTPTransport {
    private var servers: [String: SimulatedHTTPServer] = [:]
    /// Says how to add a server for a request's host, and hears of the request (a test notes it).
    private let missingHost: (HTTPExchangeRequest, Device) -> String

    /// Servers by host; `missingHost` gets each request to an unknown host and returns the hint its
    /// `cannotFindHost` failure carries.
    public init(missingHost: @escaping (HTTPExchangeRequest, Device) -> String) {
        self.missingHost = missingHost
    }

    /// Adds `server` (replacing one for the same host).
    public func add(_ server: SimulatedHTTPServer) {
        servers[server.host] = server
    }

    /// The server for `host`, if any.
    public func server(for host: String) -> SimulatedHTTPServer? {
        servers[host.lowercased()]
    }

    public func send(
        _ request: HTTPExchangeRequest, from device: Device, finish: @escaping (Result<HTTPExchangeResponse, HTTPExchangeFailure>) -> Void
    ) -> () -> Void {
        if let server = servers[request.host.lowercased()] { return server.send(request, from: device, finish: finish) }
        let scheduler = device.scheduler
        let fields: [(key: String, value: TraceValue)] = [("method", .string(request.method)), ("host", .string(request.host)), ("path", .string(request.path))]
        device.record("http.request", fields)
        guard device.connectivity?.state != .offline else {
            let event = scheduler.schedule(after: .zero) {
                device.record("http.failed", fields + [("error", .string("notConnectedToInternet"))])
                finish(.failure(.notConnected))
            }
            return { event.cancel() }
        }
        let hint = missingHost(request, device)
        let event = scheduler.schedule(after: .zero) {
            device.record("http.failed", fields + [("error", .string("cannotFindHost"))])
            finish(.failure(.cannotFindHost(request.host, hint: hint)))
        }
        return { event.cancel() }
    }
}
