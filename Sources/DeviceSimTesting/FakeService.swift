import DeviceSim

/// A stand-in for one of your app's services (an HTTP API, a search endpoint, a sync server) that
/// answers in virtual time: every call waits `latency` on the simulation's clock, then answers from
/// your handler, or fails as you scripted it. Every call is kept in ``calls`` and, when the service
/// has a ``name``, recorded in the simulation's trace (`<name>.request`, `<name>.response`,
/// `<name>.failed`), so tests can assert what the app sent and when.
///
/// Call it from code running in the simulation (spawned with ``TestSimulation/spawn(_:)``).
///
/// ```swift
/// let search = FakeService<String, [String]>(simulation, name: "search", latency: .milliseconds(300)) { query in
///     ["Café \(query)", "Bar \(query)"]
/// }
/// search.failNext(1)                               // the first request fails
/// search.failures(within: .seconds(60) ... .seconds(90), with: URLError(.notConnectedToInternet))
/// let results = try await search.call("mitte")     // 300 ms of virtual time later
/// #expect(search.calls.map(\.request) == ["mitte"])
/// ```
public final class FakeService<Request, Response> {
    /// One request the service received and how it ended.
    public struct Call {
        /// What the caller sent.
        public let request: Request
        /// When the request arrived.
        public let receivedAt: VirtualInstant
        /// When it was answered or failed (nil while it is still in flight).
        public internal(set) var finishedAt: VirtualInstant?
        /// The answer or the failure (nil while in flight, or when the caller was cancelled).
        public internal(set) var result: Result<Response, any Error>?
    }

    /// The name used for trace events (nil: record none).
    public let name: String?
    /// How long every request takes, in virtual time. Change it between calls to script slow periods.
    public var latency: Duration
    /// Every request so far, in arrival order.
    public private(set) var calls: [Call] = []

    private let scheduler: EventScheduler
    private let events: any EventSink
    private let respond: (Request) throws -> Response
    private var failuresLeft: [any Error] = []
    private var failureWindows: [(window: ClosedRange<VirtualInstant>, error: any Error)] = []

    /// A service in `simulation` answering with `respond` after `latency`.
    public convenience init(
        _ simulation: TestSimulation,
        name: String? = nil,
        latency: Duration = .milliseconds(200),
        respond: @escaping (Request) throws -> Response
    ) {
        self.init(scheduler: simulation.scheduler, events: simulation.trace, name: name, latency: latency, respond: respond)
    }

    /// A service on `scheduler`'s virtual time, recording into `events`.
    public init(
        scheduler: EventScheduler,
        events: any EventSink,
        name: String? = nil,
        latency: Duration = .milliseconds(200),
        respond: @escaping (Request) throws -> Response
    ) {
        self.scheduler = scheduler
        self.events = events
        self.name = name
        self.latency = latency
        self.respond = respond
    }

    /// The next `count` requests fail with `error` (after the latency, as a server error would).
    public func failNext(_ count: Int = 1, with error: any Error = FakeServiceError.injected) {
        failuresLeft.append(contentsOf: repeatElement(error, count: count))
    }

    /// Requests that arrive within `window` (offsets from virtual zero) fail with `error`.
    public func failures(within window: ClosedRange<Duration>, with error: any Error = FakeServiceError.injected) {
        let instants = VirtualInstant(offset: window.lowerBound)...VirtualInstant(offset: window.upperBound)
        failureWindows.append((instants, error))
    }

    /// Sends `request`: waits the latency on the virtual clock, then returns the handler's answer or
    /// throws the scripted failure (or the handler's error). Cancelling the caller cancels the wait
    /// and throws `CancellationError`.
    public func call(_ request: Request) async throws -> Response {
        let index = calls.count
        let arrival = scheduler.now
        calls.append(Call(request: request, receivedAt: arrival))
        record("request", ["index": .int(index)])
        let scripted = scriptedFailure(at: arrival)
        try await VirtualClock(scheduler).sleep(for: latency)
        let result: Result<Response, any Error>
        if let scripted {
            result = .failure(scripted)
        } else {
            result = Result { try respond(request) }
        }
        calls[index].finishedAt = scheduler.now
        calls[index].result = result
        switch result {
        case .success:
            record("response", ["index": .int(index)])
        case .failure(let error):
            record("failed", ["index": .int(index), "reason": .string(String(describing: error))])
        }
        return try result.get()
    }

    private func scriptedFailure(at instant: VirtualInstant) -> (any Error)? {
        if !failuresLeft.isEmpty { return failuresLeft.removeFirst() }
        return failureWindows.first { $0.window.contains(instant) }?.error
    }

    private func record(_ suffix: String, _ fields: KeyValuePairs<String, TraceValue>) {
        guard let name else { return }
        events.record(TraceEvent(time: scheduler.now, device: nil, name: "\(name).\(suffix)", fields: fields.map { ($0.key, $0.value) }))
    }
}

/// The failure a ``FakeService`` injects when no other error is given.
public enum FakeServiceError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A scripted failure.
    case injected

    public var description: String { "injected failure" }
}
