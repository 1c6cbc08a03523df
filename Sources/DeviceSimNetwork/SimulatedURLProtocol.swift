import DeviceSimHAL
import DeviceSimClock
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Carries the HTTP(S) requests that code running on a simulated device makes with `URLSession` to the
/// device's servers (``DeviceSimHAL/Device/http``: a test's `FakeHTTPServer`s), at virtual instants, as
/// stubbing libraries do with a registered `URLProtocol`. Requests made on no simulated device (no
/// `DeviceContext.current`, or a device without servers) go to the real network as before, except from
/// code running on a simulation's thread, where a request on no device fails at once (`URLError.unknown`,
/// saying how to bind the device) rather than reaching the real network unseen.
///
/// ``install()`` (DeviceSimTesting calls it for every `TestSimulation`) puts it in front of
/// `URLSession.shared`. A session with its own configuration uses it when the configuration lists it
/// (the usual way to stub a session in tests): Foundation on Linux consults a configuration's own
/// protocol classes before the registered ones, and `URLSessionConfiguration.default` lists its HTTP
/// protocol first.
///
/// Foundation starts a task's loading on its own queue, not on the simulation's thread: the request is
/// announced to the simulation when the app's call reaches the URL loading system (on the app's thread)
/// and the simulation's clock waits for it (``DeviceSimTime/SimulationExecutor/beginHandoff(_:)``); the
/// reply is delivered on the simulation's thread at its virtual instant, and the simulation waits until
/// the task has completed (its completion handler, or the `await`ing code resumed).
///
/// ```swift
/// let configuration = SimulatedURLProtocol.sessionConfiguration()   // or URLSession.shared
/// let session = URLSession(configuration: configuration)
/// let (data, response) = try await session.data(from: URL(string: "https://api.example.com/items")!)
/// ```
///
/// The scenario runner does not link this module: it finds this type by name (``DeviceSimHAL/URLSessionRouting``)
/// in a process that has `URLSession`, and installs it before any app starts.
public final class SimulatedURLProtocol: URLProtocol, URLSessionRouting {
    /// Registers the protocol and puts it first in `URLSession.shared`'s configuration (with no cache,
    /// so each request reaches the server). Safe to call many times.
    public static func install() {
        _ = installed
    }

    private static let installed: Bool = {
        _ = URLProtocol.registerClass(SimulatedURLProtocol.self)
        #if canImport(FoundationNetworking)
        // On Linux the shared session's configuration is the live one: its protocol classes are read
        // for every task.
        let configuration = URLSession.shared.configuration
        configuration.protocolClasses = [SimulatedURLProtocol.self] + (configuration.protocolClasses ?? []).filter { $0 != SimulatedURLProtocol.self }
        configuration.urlCache = nil
        #endif
        return true
    }()

    /// A copy of `base` whose sessions send their HTTP(S) requests through the simulation (this
    /// protocol first, no cache).
    ///
    /// ```swift
    /// let session = URLSession(configuration: SimulatedURLProtocol.sessionConfiguration())
    /// ```
    public static func sessionConfiguration(_ base: URLSessionConfiguration = .ephemeral) -> URLSessionConfiguration {
        install()
        let configuration = base.copy() as! URLSessionConfiguration
        configuration.protocolClasses = [SimulatedURLProtocol.self] + (configuration.protocolClasses ?? []).filter { $0 != SimulatedURLProtocol.self }
        configuration.urlCache = nil
        return configuration
    }

    // MARK: Which requests, and the handoff to the simulation

    /// A request announced to its simulation by `canInit` (on the app's thread), waiting for its
    /// protocol instance.
    private struct Announcement: @unchecked Sendable {
        let handoff: UInt64
        let device: Device
        let request: URLRequest
        let thread: UInt
    }

    private static let announcements = Mutex<[Announcement]>([])

    override public class func canInit(with request: URLRequest) -> Bool {
        guard let scheme = request.url?.scheme?.lowercased(), scheme == "http" || scheme == "https" else { return false }
        guard let device = DeviceContext.current else {
            // Code running in a simulation on no device (a callback that did not bind one): the request
            // fails at once, saying so, instead of reaching the real network unseen.
            return SimulationThread.isSimulationThread
        }
        guard device.http != nil else { return false }
        let handoff = device.scheduling.executor.beginHandoff("\(request.httpMethod ?? "GET") \(request.url?.absoluteString ?? "")")
        announcements.withLock { $0.append(Announcement(handoff: handoff, device: device, request: request, thread: currentThread)) }
        return true
    }

    override public class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    /// The announcement of this instance's request: the one made on this thread (Foundation creates the
    /// protocol right after asking `canInit`, on the same thread, when the session has no cache), else
    /// the earliest equal one.
    private static func claim(_ request: URLRequest) -> Announcement? {
        announcements.withLock { list in
            let thread = currentThread
            guard let index = list.lastIndex(where: { $0.thread == thread && $0.request == request }) ?? list.firstIndex(where: { $0.request == request })
            else { return nil }
            return list.remove(at: index)
        }
    }

    private static var currentThread: UInt {
        #if canImport(Darwin)
        UInt(bitPattern: pthread_self())
        #else
        UInt(pthread_self())
        #endif
    }

    // MARK: One request

    private struct State {
        var handoffOpen: Bool
        var stopped = false
    }

    private let announcement: Announcement?
    private let state: Mutex<State>
    /// Cancels the request on its way (touched on the simulation's thread only).
    private var cancelExchange: (() -> Void)?

    public required init(request: URLRequest, cachedResponse: CachedURLResponse?, client: (any URLProtocolClient)?) {
        let announcement = Self.claim(request)
        self.announcement = announcement
        self.state = Mutex(State(handoffOpen: announcement != nil))
        super.init(request: request, cachedResponse: cachedResponse, client: client)
    }

    deinit {
        if let announcement, state.withLock({ $0.handoffOpen }) {
            announcement.device.scheduling.executor.endHandoff(announcement.handoff)
        }
    }

    override public func startLoading() {
        guard let announcement else {
            let error = URLError(.unknown, userInfo: [
                NSLocalizedDescriptionKey: "\(request.httpMethod ?? "GET") \(request.url?.absoluteString ?? "") was made by code running in a simulation "
                    + "but on no simulated device (DeviceContext.current is nil), so it has no network to go over: make the request from code "
                    + "the device runs (its app's launch or actions, a delegate call, a Task started there), or inside DeviceContext.withDevice(device) { ... }",
            ])
            client?.urlProtocol(self, didFailWithError: error)
            return
        }
        let executor = announcement.device.scheduling.executor
        let protocolInstance = UncheckedProtocol(self)
        executor.submit { protocolInstance.value.begin() }
    }

    override public func stopLoading() {
        guard let announcement else { return }
        let executor = announcement.device.scheduling.executor
        let protocolInstance = UncheckedProtocol(self)
        state.withLock { $0.stopped = true }
        executor.submit { protocolInstance.value.cancelOnTheSimulationThread() }
    }

    /// On the simulation's thread: the request leaves the device.
    private func begin() {
        guard let announcement else { return }
        let device = announcement.device
        let stopped = state.withLock { state in
            state.handoffOpen = false
            return state.stopped
        }
        device.scheduling.executor.endHandoff(announcement.handoff)
        guard !stopped, let transport = device.http else { return }
        let session = Self.session(of: task)
        let exchange = Self.exchangeRequest(request, uploadBody: Self.uploadBody(of: task), session: session?.configuration)
        if let session, session.configuration.waitsForConnectivity, let connectivity = device.connectivity, connectivity.state == .offline {
            return waitForConnectivity(connectivity, then: exchange, over: transport, from: device, session: session)
        }
        cancelExchange = transport.send(exchange, from: device) { [self] result in deliver(result) }
    }

    /// On the simulation's thread, for a session whose configuration `waitsForConnectivity` and a device
    /// offline: as Apple documents it, the task waits for the device to go online instead of failing
    /// with `.notConnectedToInternet`, and fails with `.timedOut` only after the configuration's
    /// `timeoutIntervalForResource`. The trace has `http.waiting`. (The delegate's
    /// `urlSession(_:taskIsWaitingForConnectivity:)` is not called: swift-corelibs-foundation's
    /// `URLSessionTaskDelegate` has no such method.)
    private func waitForConnectivity(
        _ connectivity: any ConnectivityMonitor, then exchange: HTTPExchangeRequest, over transport: any HTTPTransport, from device: Device, session: URLSession
    ) {
        device.record("http.waiting", [("method", .string(exchange.method)), ("host", .string(exchange.host)), ("path", .string(exchange.path))])
        var online: ObservationToken?
        var resourceTimeout: (any CancellableEvent)?
        online = connectivity.observe { [self] state in
            guard state == .online, online != nil else { return }
            online = nil
            resourceTimeout?.cancel()
            cancelExchange = transport.send(exchange, from: device) { [self] result in deliver(result) }
        }
        let resource = Duration.milliseconds(Int64((session.configuration.timeoutIntervalForResource * 1000).rounded()))
        resourceTimeout = device.scheduling.schedule(after: resource) { [self] in
            online = nil
            deliver(.failure(.timedOut))
        }
        cancelExchange = {
            online = nil
            resourceTimeout?.cancel()
        }
    }

    private func cancelOnTheSimulationThread() {
        let handoffWasOpen = state.withLock { state in
            defer { state.handoffOpen = false }
            return state.handoffOpen
        }
        cancelExchange?()
        cancelExchange = nil
        if handoffWasOpen, let announcement { announcement.device.scheduling.executor.endHandoff(announcement.handoff) }
    }

    /// On the simulation's thread, at the reply's virtual instant: hands the reply (or the failure) to
    /// the URL loading system, then waits until the task has completed.
    private func deliver(_ result: Result<HTTPExchangeResponse, HTTPExchangeFailure>) {
        cancelExchange = nil
        guard !state.withLock({ $0.stopped }), let client, let url = request.url else { return }
        switch result {
        case .success(let reply):
            let response = HTTPURLResponse(url: url, statusCode: reply.status, httpVersion: "HTTP/1.1", headerFields: reply.headers)!
            client.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
            if !reply.body.isEmpty { client.urlProtocol(self, didLoad: Data(reply.body)) }
            client.urlProtocolDidFinishLoading(self)
        case .failure(let failure):
            client.urlProtocol(self, didFailWithError: Self.urlError(failure, url: url))
        }
        waitUntilTheTaskCompleted()
    }

    /// A data task's completion handler runs on the session's delegate queue (another thread): the
    /// simulation does not go on before it has returned. (`data(for:)` and the other `async` forms
    /// resume their caller at once, on this thread.)
    /// If it has not returned within ``completionWaitLimit`` of real time, the simulation goes on and the
    /// executor is told (``SimulationExecuting/reportAbandonedHandoff(_:)``), so a test names the request.
    /// Time in which the thread pool had no thread free does not count: Foundation on Linux passes the
    /// completion through Dispatch's global queues, which other CPU-bound work can hold for longer than
    /// the limit (``RealTimeWaitBudget``).
    private func waitUntilTheTaskCompleted() {
        #if canImport(FoundationNetworking)
        guard let task else { return }
        var budget = RealTimeWaitBudget(limit: Self.completionWaitLimit)
        while task.state != .completed, !budget.isSpent() { usleep(20) }
        if task.state != .completed, let announcement {
            announcement.device.scheduling.executor.reportAbandonedHandoff(
                "the completion of \(request.httpMethod ?? "GET") \(request.url?.absoluteString ?? "") on its session's delegate queue "
                    + "(the queue was busy, or the completion handler had not returned after \(Self.completionWaitLimit))")
        }
        #endif
    }

    /// How long the simulation waits, in real time in which the thread pool could run it, for a task's
    /// completion handler to return.
    static let completionWaitLimit: Duration = .seconds(10)

    // MARK: Conversions

    /// `URLRequest.timeoutInterval` when the app did not set one ("The default timeout interval is 60
    /// seconds").
    static let defaultRequestTimeout: TimeInterval = 60

    /// The request as values; its body is the request's own (`httpBody`, `httpBodyStream`), else
    /// `uploadBody` (the body given to `upload(for:from:)`). Its timeout is the request's own, unless the
    /// request has the default one: then the `session`'s `timeoutIntervalForRequest`, as Foundation's
    /// own HTTP loading does (a request that sets exactly 60 s on a session with another timeout gets
    /// the session's).
    ///
    /// Its headers are the session's `httpAdditionalHeaders` and the request's own (which win, as Apple
    /// documents), and `Content-Length` when there is a body ("the session figures out the
    /// Content-Length automatically", Uploading data to a website).
    static func exchangeRequest(_ request: URLRequest, uploadBody: Data? = nil, session: URLSessionConfiguration? = nil) -> HTTPExchangeRequest {
        let url = request.url
        let components = url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false) }
        let body = request.httpBody ?? request.httpBodyStream.map(bodyFromStream) ?? uploadBody ?? Data()
        var headers: [String: String] = [:]
        for (name, value) in session?.httpAdditionalHeaders ?? [:] {
            if let name = name as? String { headers[name] = "\(value)" }
        }
        for (name, value) in request.allHTTPHeaderFields ?? [:] {
            headers = headers.filter { $0.key.lowercased() != name.lowercased() }
            headers[name] = value
        }
        if !body.isEmpty, !headers.keys.contains(where: { $0.lowercased() == "content-length" }) {
            headers["Content-Length"] = String(body.count)
        }
        return HTTPExchangeRequest(
            method: request.httpMethod ?? "GET",
            url: url?.absoluteString ?? "",
            host: url?.host ?? "",
            path: components?.percentEncodedPath ?? "/",
            query: components?.percentEncodedQuery,
            headers: headers,
            body: Array(body),
            timeout: .milliseconds(Int64((timeout(of: request, session: session) * 1000).rounded()))
        )
    }

    static func timeout(of request: URLRequest, session: URLSessionConfiguration?) -> TimeInterval {
        guard request.timeoutInterval == defaultRequestTimeout, let session, session.timeoutIntervalForRequest > 0 else { return request.timeoutInterval }
        return session.timeoutIntervalForRequest
    }

    /// The session that made `task`: swift-corelibs-foundation keeps it in the task's internal `session`,
    /// read with `Mirror` (as ``uploadBody(of:)`` reads the body). Nil when the task has none, or
    /// Foundation keeps it some other way (then the request's own timeout applies and the task does not
    /// wait for connectivity).
    static func session(of task: URLSessionTask?) -> URLSession? {
        guard let task else { return nil }
        var mirror: Mirror? = Mirror(reflecting: task)
        while let current = mirror {
            if let session = current.children.first(where: { $0.label == "session" }) {
                return session.value as? URLSession
            }
            mirror = current.superclassMirror
        }
        return nil
    }

    /// The body given to `upload(for:from:)` or `upload(for:fromFile:)`, which Foundation keeps in the
    /// task, not in the request a `URLProtocol` gets: swift-corelibs-foundation's internal
    /// `URLSessionTask.knownBody` (`.data(DispatchData)` or `.file(URL)`), read with `Mirror`, the
    /// standard library's reflection (no symbol lookup). Nil when the task has no such body, or when
    /// Foundation keeps it some other way (the server then sees an empty body).
    static func uploadBody(of task: URLSessionTask?) -> Data? {
        guard let task else { return nil }
        var mirror: Mirror? = Mirror(reflecting: task)
        while let current = mirror {
            if let known = current.children.first(where: { $0.label == "knownBody" }) {
                // Optional<_Body>.some -> _Body.data(DispatchData) / .file(URL)
                for body in Mirror(reflecting: known.value).children {
                    for payload in Mirror(reflecting: body.value).children {
                        if let data = payload.value as? DispatchData { return Data(data) }
                        if let file = payload.value as? URL, file.isFileURL { return try? Data(contentsOf: file) }
                    }
                }
                return nil
            }
            mirror = current.superclassMirror
        }
        return nil
    }

    private static func bodyFromStream(_ stream: InputStream) -> Data {
        stream.open()
        defer { stream.close() }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while stream.hasBytesAvailable {
            let count = stream.read(&buffer, maxLength: buffer.count)
            guard count > 0 else { break }
            data.append(buffer, count: count)
        }
        return data
    }

    static func urlError(_ failure: HTTPExchangeFailure, url: URL) -> URLError {
        let code: URLError.Code = switch failure {
        case .notConnected: .notConnectedToInternet
        case .connectionLost: .networkConnectionLost
        case .timedOut: .timedOut
        case .cannotFindHost: .cannotFindHost
        }
        return URLError(code, userInfo: [
            NSLocalizedDescriptionKey: failure.description,
            NSURLErrorFailingURLErrorKey: url,
        ])
    }
}

/// The protocol instance carried to the simulation's thread (Foundation's `URLProtocol` is not
/// `Sendable`; the instance's mutable state is behind its lock).
private struct UncheckedProtocol: @unchecked Sendable {
    let value: SimulatedURLProtocol
    init(_ value: SimulatedURLProtocol) { self.value = value }
}
