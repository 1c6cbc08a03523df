import DeviceSim

/// A weak reference (a service does not keep its simulation alive).
struct Weak<Object: AnyObject> {
    weak var value: Object?
    init(_ value: Object) { self.value = value }
}

/// A stand-in for one of your app's services (an HTTP API, a search endpoint, a sync server) that
/// answers in virtual time: every call waits `latency` on the simulation's clock, then answers from
/// your handler, or fails as you scripted it. Every call is kept in ``calls`` and, when the service
/// has a ``name``, recorded in the simulation's trace (`<name>.request`, `<name>.response`,
/// `<name>.failed`), so tests can assert what the app sent and when.
///
/// A service reached over a device's network (``FakeNetwork/service(_:latency:respond:)``, or
/// `FakeService(simulation, device: phone, ...)`) honours that device's connectivity: a request fails
/// at once with ``FakeNetworkError/notConnected(device:)`` while it is offline, and with
/// ``FakeNetworkError/connectionLost(device:)`` if it goes offline while the request is in flight. One
/// made for a simulation with a single device honours that device's.
///
/// Call it from code running in the simulation (your app's tasks, ``TestSimulation/spawn(_:fileID:line:)``,
/// ``TestSimulation/run(isolation:fileID:line:_:)``): it is touched on the simulation's thread only.
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
public final class FakeService<Request, Response>: @unchecked Sendable {
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
    private let network: NetworkSource
    private var failuresLeft: [any Error] = []
    private var failureWindows: [(window: ClosedRange<VirtualInstant>, error: any Error)] = []

    /// A service in `simulation` answering with `respond` after `latency`.
    public convenience init(
        _ simulation: TestSimulation,
        name: String? = nil,
        latency: Duration = .milliseconds(200),
        respond: @escaping (Request) throws -> Response
    ) {
        self.init(scheduler: simulation.scheduler, events: simulation.trace, name: name, latency: latency, network: .ofTheOnlyDevice(simulation), respond: respond)
    }

    /// A service in `simulation` that `device` reaches over its network (``TestDevice/network``),
    /// answering with `respond` after `latency` (plus the network's).
    public convenience init(
        _ simulation: TestSimulation,
        device: TestDevice,
        name: String? = nil,
        latency: Duration = .milliseconds(200),
        respond: @escaping (Request) throws -> Response
    ) {
        self.init(scheduler: simulation.scheduler, events: simulation.trace, name: name, latency: latency, network: device.network, respond: respond)
    }

    /// A service reached over `network`.
    convenience init(
        scheduler: EventScheduler, events: any EventSink, name: String?, latency: Duration, network: FakeNetwork,
        respond: @escaping (Request) throws -> Response
    ) {
        self.init(scheduler: scheduler, events: events, name: name, latency: latency, network: .device(network), respond: respond)
    }

    /// A service on `scheduler`'s virtual time, recording into `events`, reached over no device's network.
    public convenience init(
        scheduler: EventScheduler,
        events: any EventSink,
        name: String? = nil,
        latency: Duration = .milliseconds(200),
        respond: @escaping (Request) throws -> Response
    ) {
        self.init(scheduler: scheduler, events: events, name: name, latency: latency, network: NetworkSource.none, respond: respond)
    }

    private init(
        scheduler: EventScheduler,
        events: any EventSink,
        name: String?,
        latency: Duration,
        network: NetworkSource,
        respond: @escaping (Request) throws -> Response
    ) {
        self.scheduler = scheduler
        self.events = events
        self.name = name
        self.latency = latency
        self.network = network
        self.respond = respond
    }

    /// Whose network a service is reached over.
    private enum NetworkSource {
        /// None: it answers whatever the connectivity.
        case none
        /// One device's.
        case device(FakeNetwork)
        /// The simulation's only device's (none while it has none; ambiguous with several).
        case ofTheOnlyDevice(Weak<TestSimulation>)

        static func ofTheOnlyDevice(_ simulation: TestSimulation) -> NetworkSource { .ofTheOnlyDevice(Weak(simulation)) }
    }

    /// The network this call goes over; throws when several devices could be calling and one is offline.
    private func resolveNetwork() throws -> FakeNetwork? {
        switch network {
        case .none: return nil
        case .device(let network): return network
        case .ofTheOnlyDevice(let simulation):
            let devices = simulation.value?.testDevices ?? []
            if devices.count == 1 { return devices[0].network }
            if let offline = devices.first(where: { !$0.network.isOnline }) {
                throw FakeNetworkError.ambiguousDevice(service: name ?? "\(Request.self) -> \(Response.self)", offline: offline.device.id, devices: devices.count)
            }
            return nil
        }
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
        let result: Result<Response, any Error>
        do {
            let network = try resolveNetwork()
            try network?.check(name ?? "request")
            let scripted = scriptedFailure(at: arrival)
            if let network {
                try await network.carry(name ?? "request", startedAt: arrival, extraLatency: latency)
            } else {
                try await VirtualClock(scheduler).sleep(for: latency)
            }
            if let scripted {
                result = .failure(scripted)
            } else {
                result = Result { try respond(request) }
            }
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            result = .failure(error)
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
