import DeviceSimHAL
import DeviceSimTime
import Foundation

/// An HTTP server that simulated devices' `URLSession` requests reach over their network, in virtual
/// time: routes by method and path, every request recorded with when it was sent, when it arrived and
/// whether the server applied it, and failure points scripted per call and by virtual time (lost
/// before it arrives, applied and the reply lost, slow, answered with a status). Tests make one as
/// DeviceSimTesting's `FakeHTTPServer`; scenario files declare one under `http-servers:`. Both are
/// this type, so their traces are alike.
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
/// Events (the device's trace), always in this field order: `http.request` (`method`, `host`, `path`,
/// and `key` when the request carries an idempotency key), `http.arrived` (the same three, `applied`,
/// and `replayed: true` when it repeated a key already applied), `http.response` (the three, `status`),
/// `http.failed` (the three, `error`: `notConnectedToInternet`, `networkConnectionLost`, `timedOut` or
/// `cannotFindHost`, and `lost`: `request` or `reply` when the network lost one).
///
/// ```swift
/// let server = SimulatedHTTPServer(scheduler: scheduler, host: "api.example.com")
/// server.route("POST", "/check-ins") { request in .json(["id": "c1"], status: 201) }
/// server.failNext(1, with: .replyLost)            // applied, and the reply never comes back
/// // ... the app checks in, times out, retries with the same key ...
/// assert(server.applied("POST", "/check-ins").count == 1)
/// ```
public final class SimulatedHTTPServer: @unchecked Sendable {
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

    /// A point of a request's life where it fails, scripted with ``failNext(_:with:)``,
    /// ``fail(within:with:)`` or ``fail(_:)``.
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

    /// Which requests fail at a ``FailurePoint``: those sent within a window of virtual time, the next
    /// `count` of them, or the next `count` sent within the window.
    public struct FailureRule: Sendable, Hashable {
        /// Where they fail.
        public var point: FailurePoint
        /// Requests sent from this instant on (nil: from the start).
        public var from: VirtualInstant?
        /// Requests sent up to this instant, included (nil: to the end).
        public var until: VirtualInstant?
        /// How many requests fail (nil: every one sent in the window).
        public var count: Int?

        /// A rule: requests sent within `from...until` (either open) fail at `point`, at most `count`.
        public init(_ point: FailurePoint, from: VirtualInstant? = nil, until: VirtualInstant? = nil, count: Int? = nil) {
            self.point = point
            self.from = from
            self.until = until
            self.count = count
        }

        func covers(_ instant: VirtualInstant) -> Bool {
            (from.map { instant >= $0 } ?? true) && (until.map { instant <= $0 } ?? true)
        }
    }

    /// The host it answers for (`api.example.com`), lowercased.
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
    /// Rules with a count, in the order added (consulted first), then rules without.
    private var countedRules: [FailureRule] = []
    private var windowRules: [FailureRule] = []
    /// The first answer to each idempotency key applied.
    private var answersByKey: [String: Response] = [:]
    private let scheduler: EventScheduler

    /// A server for `host` whose requests and replies move on `scheduler`'s virtual time.
    public init(scheduler: EventScheduler, host: String, latency: Duration = .milliseconds(50)) {
        self.host = host.lowercased()
        self.latency = latency
        self.scheduler = scheduler
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
        fail(FailureRule(point, count: count))
    }

    /// Requests sent within `window` (offsets from virtual zero) fail at `point`.
    public func fail(within window: ClosedRange<Duration>, with point: FailurePoint) {
        fail(FailureRule(point, from: VirtualInstant(offset: window.lowerBound), until: VirtualInstant(offset: window.upperBound)))
    }

    /// Requests that `rule` covers fail at its point.
    ///
    /// ```swift
    /// server.fail(.init(.replyLost, from: VirtualInstant(offset: .seconds(600)), count: 1))   // the first one sent from 10 min
    /// ```
    public func fail(_ rule: FailureRule) {
        if rule.count != nil { countedRules.append(rule) } else { windowRules.append(rule) }
    }

    /// The requests the server applied (of `method` to `path`, when given), in order.
    public func applied(_ method: String? = nil, _ path: String? = nil) -> [Request] {
        requests.filter { $0.applied && matches($0, method, path) }
    }

    /// The requests that reached the server (of `method` to `path`, when given), in order.
    public func arrived(_ method: String? = nil, _ path: String? = nil) -> [Request] {
        requests.filter { $0.arrivedAt != nil && matches($0, method, path) }
    }

    private func matches(_ request: Request, _ method: String?, _ path: String?) -> Bool {
        (method == nil || request.method == method?.uppercased()) && (path == nil || request.path == path)
    }

    // MARK: A request's life

    /// Carries `exchange` from `device`: called on the simulation's thread when the app sends it.
    public func send(
        _ exchange: HTTPExchangeRequest, from device: Device, finish: @escaping (Result<HTTPExchangeResponse, HTTPExchangeFailure>) -> Void
    ) -> () -> Void {
        let index = requests.count
        requests.append(Request(
            method: exchange.method.uppercased(), path: exchange.path, query: exchange.query, headers: exchange.headers,
            body: Data(exchange.body), device: device.id, sentAt: scheduler.now
        ))
        let flight = Flight(server: self, index: index, device: device, finish: finish)
        let key = idempotencyKeyHeader.flatMap { requests[index].header($0) }
        flight.record("http.request", key.map { [("key", .string($0))] } ?? [])
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
        var fields: [(key: String, value: TraceValue)] = [("applied", .bool(requests[index].applied))]
        if requests[index].replayed { fields.append(("replayed", .bool(true))) }
        flight.record("http.arrived", fields)
        guard point != .replyLost else { return }
        flight.events.append(scheduler.schedule(after: extraDelay + latency) { flight.answer(response) })
    }

    private func scriptedFailure(at instant: VirtualInstant) -> FailurePoint? {
        if let index = countedRules.firstIndex(where: { $0.covers(instant) && ($0.count ?? 0) > 0 }) {
            countedRules[index].count! -= 1
            return countedRules[index].point
        }
        return windowRules.first { $0.covers(instant) }?.point
    }

    fileprivate func setOutcome(_ outcome: Outcome, of index: Int) {
        requests[index].outcome = outcome
    }

    /// One request on its way (touched on the simulation's thread only).
    private final class Flight {
        unowned let server: SimulatedHTTPServer
        let index: Int
        let device: Device
        let finish: (Result<HTTPExchangeResponse, HTTPExchangeFailure>) -> Void
        var events: [ScheduledEvent] = []
        var interface: ObservationToken?
        var arrived = false
        var done = false

        init(server: SimulatedHTTPServer, index: Int, device: Device, finish: @escaping (Result<HTTPExchangeResponse, HTTPExchangeFailure>) -> Void) {
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
            let name = failure.errorName
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

extension HTTPExchangeFailure {
    /// The name of the `URLError` code the device reports, as the trace writes it (`timedOut`, ...).
    public var errorName: String {
        switch self {
        case .notConnected: "notConnectedToInternet"
        case .connectionLost: "networkConnectionLost"
        case .timedOut: "timedOut"
        case .cannotFindHost: "cannotFindHost"
        }
    }
}
