import DeviceSim
import Foundation

/// A fake HTTP server that the simulated devices' `URLSession` requests reach over their network, in
/// virtual time: routes by method and path, every request recorded with when it was sent, when it
/// arrived and whether the server applied it, and failure points scriptable per call
/// (``failNext(_:with:)``) and by virtual time (``fail(within:with:)``): lost before it arrives,
/// applied and the reply lost, slow, answered with a status.
///
/// The network between the device and the server follows the device's connectivity, as iOS does:
/// offline when sent, `URLError(.notConnectedToInternet)` at once; the interface going down while the
/// request is on its way, `.networkConnectionLost` at that instant (the request had arrived, and was
/// applied, if it was sent more than ``latency`` before); a request or reply lost while the interface
/// stays up, `.timedOut` after the request's `timeoutInterval`. A request carries ``latency`` each way,
/// plus the route's delay.
///
/// A request with an `Idempotency-Key` header (``idempotencyKeyHeader``) whose key the server already
/// applied is answered with the first answer again and not applied twice, as payment APIs do: so
/// ``applied(_:_:)`` tells a client that retries with the same key (applied once) from one that makes a
/// new key per retry (applied twice).
///
/// Events (the device's trace): `http.request` (`method`, `host`, `path`), `http.arrived` (with
/// `applied`), `http.response` (with `status`), `http.failed` (with `error`: `notConnectedToInternet`,
/// `networkConnectionLost`, `timedOut` or `cannotFindHost`, and `lost`: `request` or `reply` when the
/// network lost one).
///
/// ```swift
/// let server = FakeHTTPServer(simulation, host: "api.example.com") { server in
///     server.route("POST", "/check-ins") { request in .json(["id": "c1"], status: 201) }
/// }
/// server.failNext(1, with: .replyLost)            // applied, and the reply never comes back
/// // ... the app checks in, times out, retries with the same key ...
/// #expect(server.applied("POST", "/check-ins").count == 1)
/// ```
public final class FakeHTTPServer: @unchecked Sendable {
    /// A request as the server saw it (or would have: one lost on its way never arrived).
    public struct Request: Sendable {
        /// The method (`GET`, `POST`, ...).
        public let method: String
        /// The path (`/check-ins`).
        public let path: String
        /// The query, without the `?` (nil: none).
        public let query: String?
        /// The header fields.
        public let headers: [String: String]
        /// The body.
        public let body: Data
        /// The device that sent it.
        public let device: String
        /// When the device sent it.
        public let sentAt: VirtualInstant
        /// When it reached the server (nil: it has not, or never did).
        public internal(set) var arrivedAt: VirtualInstant?
        /// Whether the server applied it: its route's handler ran (not a repeat of an idempotency key
        /// already applied, not answered by a scripted status).
        public internal(set) var applied = false
        /// Whether it repeated an idempotency key already applied (answered with the first answer).
        public internal(set) var replayed = false
        /// The status the server answered (nil: it did not answer).
        public internal(set) var status: Int?
        /// How it ended for the device (nil: still on its way).
        public internal(set) var outcome: Outcome?

        /// The value of the header field `name`, compared case-insensitively.
        public func header(_ name: String) -> String? {
            let lowered = name.lowercased()
            return headers.first { $0.key.lowercased() == lowered }?.value
        }

        /// The body decoded from JSON.
        public func json<Value: Decodable>(_ type: Value.Type) throws -> Value {
            try JSONDecoder().decode(type, from: body)
        }
    }

    /// How a request ended for the device.
    public enum Outcome: Sendable, Hashable {
        /// The reply reached the device with this status.
        case answered(status: Int)
        /// The device failed it (the `URLError` code's name: `timedOut`, `networkConnectionLost`, ...);
        /// `lost` says what the network lost (nil: nothing was sent, or nothing was lost).
        case failed(error: String, lost: LostInFlight?)
        /// The app cancelled it.
        case cancelled
    }

    /// What the server answers.
    public struct Response: Sendable {
        /// The status code.
        public var status: Int
        /// The header fields.
        public var headers: [String: String]
        /// The body.
        public var body: Data

        /// A reply with `status`, `headers` and `body`.
        public init(status: Int = 200, headers: [String: String] = [:], body: Data = Data()) {
            self.status = status
            self.headers = headers
            self.body = body
        }

        /// A reply with `status` and no body.
        public static func status(_ status: Int) -> Response { Response(status: status) }

        /// A JSON reply: `value` encoded (keys sorted), `Content-Type: application/json`.
        public static func json(_ value: some Encodable, status: Int = 200) -> Response {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let body = (try? encoder.encode(value)) ?? Data()
            return Response(status: status, headers: ["Content-Type": "application/json"], body: body)
        }

        /// A JSON reply from JSON text.
        public static func json(text: String, status: Int = 200) -> Response {
            Response(status: status, headers: ["Content-Type": "application/json"], body: Data(text.utf8))
        }
    }

    /// A point of a request's life where it fails, scripted with ``failNext(_:with:)`` or
    /// ``fail(within:with:)``.
    public enum FailurePoint: Sendable, Hashable {
        /// The request is lost in the network before it arrives: never applied; the device times out.
        case lostBeforeArrival
        /// The server applies the request and its reply is lost: the device times out.
        case replyLost
        /// The server takes this much longer to answer (the device times out if the answer comes after
        /// the request's timeout, the request applied all the same).
        case slow(Duration)
        /// The server answers with this status (a 503, say) without applying the request.
        case status(Int)
    }

    /// The host it answers for (`api.example.com`).
    public let host: String
    /// How long a request takes to reach the server, and its reply to come back (each way).
    public var latency: Duration
    /// The header whose value keys requests for idempotency (nil: none).
    public var idempotencyKeyHeader: String? = "Idempotency-Key"
    /// Every request sent to it so far, in the order they were sent.
    public private(set) var requests: [Request] = []

    private struct Route {
        let method: String
        let path: String
        let delay: Duration
        let handler: (Request) throws -> Response
    }

    private var routes: [Route] = []
    private var failuresLeft: [FailurePoint] = []
    private var failureWindows: [(window: ClosedRange<VirtualInstant>, point: FailurePoint)] = []
    /// The first answer to each idempotency key applied.
    private var answersByKey: [String: Response] = [:]
    private let scheduler: EventScheduler

    /// A server for `host` in `simulation` (requests to it from every device of the simulation reach
    /// it); `routes` adds its routes.
    public init(_ simulation: TestSimulation, host: String, latency: Duration = .milliseconds(50), routes: (FakeHTTPServer) -> Void = { _ in }) {
        self.host = host.lowercased()
        self.latency = latency
        self.scheduler = simulation.scheduler
        routes(self)
        simulation.httpServers.add(self)
    }

    /// Answers `method` requests to `path` with `handler`, `delay` after they arrive.
    ///
    /// ```swift
    /// server.route("GET", "/venues/cafe") { _ in .json(["name": "Café"]) }
    /// ```
    public func route(_ method: String, _ path: String, delay: Duration = .zero, _ handler: @escaping (Request) throws -> Response) {
        routes.append(Route(method: method.uppercased(), path: path, delay: delay, handler: handler))
    }

    /// The next `count` requests fail at `point`.
    public func failNext(_ count: Int = 1, with point: FailurePoint) {
        failuresLeft.append(contentsOf: repeatElement(point, count: count))
    }

    /// Requests sent within `window` (offsets from virtual zero) fail at `point`.
    public func fail(within window: ClosedRange<Duration>, with point: FailurePoint) {
        failureWindows.append((VirtualInstant(offset: window.lowerBound)...VirtualInstant(offset: window.upperBound), point))
    }

    /// The requests the server applied (of `method` to `path`, when given), in order.
    public func applied(_ method: String? = nil, _ path: String? = nil) -> [Request] {
        requests.filter { $0.applied && (method == nil || $0.method == method?.uppercased()) && (path == nil || $0.path == path) }
    }

    /// The requests that reached the server (of `method` to `path`, when given), in order.
    public func arrived(_ method: String? = nil, _ path: String? = nil) -> [Request] {
        requests.filter { $0.arrivedAt != nil && (method == nil || $0.method == method?.uppercased()) && (path == nil || $0.path == path) }
    }

    // MARK: A request's life

    /// Carries `exchange` from `device`: called on the simulation's thread when the app sends it.
    func send(
        _ exchange: HTTPExchangeRequest, from device: Device, finish: @escaping (Result<HTTPExchangeResponse, HTTPExchangeFailure>) -> Void
    ) -> () -> Void {
        let index = requests.count
        requests.append(Request(
            method: exchange.method.uppercased(), path: exchange.path, query: exchange.query, headers: exchange.headers,
            body: Data(exchange.body), device: device.id, sentAt: scheduler.now
        ))
        let flight = Flight(server: self, index: index, device: device, finish: finish)
        flight.record("http.request", [])
        guard device.connectivity?.state != .offline else {
            flight.events.append(scheduler.schedule(after: .zero) { flight.fail(.notConnected, lost: nil) })
            return { flight.cancel() }
        }
        let point = scriptedFailure(at: scheduler.now)
        flight.events.append(scheduler.schedule(after: exchange.timeout) {
            flight.fail(.timedOut, lost: flight.arrived ? .reply : .request)
        })
        flight.interface = device.connectivity?.observe { state in
            guard state == .offline else { return }
            flight.fail(.connectionLost, lost: flight.arrived ? .reply : .request)
        }
        if point != .lostBeforeArrival {
            flight.events.append(scheduler.schedule(after: latency) { [self] in arrive(flight, point: point) })
        }
        return { flight.cancel() }
    }

    /// The request reaches the server: it answers (and applies it) unless `point` says otherwise, and
    /// the reply leaves after the route's delay (and a slow point's), reaching the device ``latency`` later.
    private func arrive(_ flight: Flight, point: FailurePoint?) {
        flight.arrived = true
        let index = flight.index
        requests[index].arrivedAt = scheduler.now
        var extraDelay = Duration.zero
        let response: Response
        if case .status(let status) = point {
            response = .status(status)
        } else {
            let request = requests[index]
            let key = idempotencyKeyHeader.flatMap { request.header($0) }
            if let key, let first = answersByKey[key] {
                response = first
                requests[index].replayed = true
            } else if let route = routes.first(where: { $0.method == request.method && $0.path == request.path }) {
                extraDelay = route.delay
                do { response = try route.handler(request) } catch { response = .json(["error": "\(error)"], status: 500) }
                requests[index].applied = true
                if let key, (200..<300).contains(response.status) { answersByKey[key] = response }
            } else {
                response = .json(["error": "no route for \(request.method) \(request.path) on \(host)"], status: 404)
            }
        }
        if case .slow(let duration) = point { extraDelay += duration }
        requests[index].status = response.status
        flight.record("http.arrived", [("applied", .bool(requests[index].applied))])
        guard point != .replyLost else { return }
        flight.events.append(scheduler.schedule(after: extraDelay + latency) { flight.answer(response) })
    }

    private func scriptedFailure(at instant: VirtualInstant) -> FailurePoint? {
        if !failuresLeft.isEmpty { return failuresLeft.removeFirst() }
        return failureWindows.first { $0.window.contains(instant) }?.point
    }

    fileprivate func setOutcome(_ outcome: Outcome, of index: Int) {
        requests[index].outcome = outcome
    }

    /// One request on its way (touched on the simulation's thread only).
    private final class Flight {
        unowned let server: FakeHTTPServer
        let index: Int
        let device: Device
        let finish: (Result<HTTPExchangeResponse, HTTPExchangeFailure>) -> Void
        var events: [ScheduledEvent] = []
        var interface: ObservationToken?
        var arrived = false
        var done = false

        init(server: FakeHTTPServer, index: Int, device: Device, finish: @escaping (Result<HTTPExchangeResponse, HTTPExchangeFailure>) -> Void) {
            self.server = server
            self.index = index
            self.device = device
            self.finish = finish
        }

        func answer(_ response: Response) {
            guard end(.answered(status: response.status)) else { return }
            record("http.response", [("status", .int(response.status))])
            finish(.success(HTTPExchangeResponse(status: response.status, headers: response.headers, body: Array(response.body))))
        }

        func fail(_ failure: HTTPExchangeFailure, lost: LostInFlight?) {
            let name = switch failure {
            case .notConnected: "notConnectedToInternet"
            case .connectionLost: "networkConnectionLost"
            case .timedOut: "timedOut"
            case .cannotFindHost: "cannotFindHost"
            }
            guard end(.failed(error: name, lost: lost)) else { return }
            record("http.failed", [("error", .string(name))] + (lost.map { [("lost", .string($0.rawValue))] } ?? []))
            finish(.failure(failure))
        }

        /// The app cancelled the task. Not traced: Foundation tells the protocol on its own queue, so the
        /// instant it reaches the simulation depends on thread timing.
        func cancel() {
            _ = end(.cancelled)
        }

        /// Ends the flight with `outcome`; false when it had ended.
        private func end(_ outcome: Outcome) -> Bool {
            guard !done else { return false }
            done = true
            for event in events { event.cancel() }
            events = []
            interface = nil
            server.setOutcome(outcome, of: index)
            return true
        }

        func record(_ name: String, _ fields: [(key: String, value: TraceValue)]) {
            let request = server.requests[index]
            device.record(name, [("method", .string(request.method)), ("host", .string(server.host)), ("path", .string(request.path))] + fields)
        }
    }
}

/// The fake HTTP servers of a simulation, by host: every device's `URLSession` requests go here.
final class FakeHTTPServers: HTTPTransport {
    private var servers: [String: FakeHTTPServer] = [:]
    private let actions: SimulationActions

    init(actions: SimulationActions) {
        self.actions = actions
    }

    func add(_ server: FakeHTTPServer) {
        servers[server.host] = server
    }

    func send(
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
        let hint = "add a server for it in the test: FakeHTTPServer(simulation, host: \"\(request.host)\") { server in "
            + "server.route(\"\(request.method)\", \"\(request.path)\") { request in .json(...) } }"
        actions.note(.noServerForHost(request.host, request: "\(request.method) \(request.url)", hint: hint))
        let event = scheduler.schedule(after: .zero) {
            device.record("http.failed", fields + [("error", .string("cannotFindHost"))])
            finish(.failure(.cannotFindHost(request.host, hint: hint)))
        }
        return { event.cancel() }
    }
}
