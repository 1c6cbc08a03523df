import DeviceSim

/// The network as one test device sees it, in virtual time: requests fail at once while the device is
/// offline, take ``latency`` (plus the service's own latency) while it is online, fail when the device
/// goes offline while they are in flight, and fail as scripted (``failNext(_:with:)``,
/// ``failures(within:with:)``).
///
/// Every test device has one (``TestDevice/network``). Give your app's service protocol a fake that
/// calls ``send(_:respond:)``, or make a ``FakeService`` for the device (``service(_:latency:respond:)``),
/// and switch connectivity with ``TestDevice/setOnline(_:fileID:line:)``.
///
/// ```swift
/// let uploads = phone.network.service("uploads", latency: .milliseconds(300)) { (photo: String) in "receipt-\(photo)" }
/// phone.setOnline(false)
/// // uploads.call("p1") now throws FakeNetworkError.notConnected at once
/// ```
///
/// Use it from code running in the simulation (your app's tasks, `simulation.spawn`, `simulation.run`):
/// it is touched on the simulation's thread only.
public final class FakeNetwork: @unchecked Sendable {
    /// The round trip every request takes on this device's network, on top of the service's latency
    /// (zero unless set). Change it between requests to script a slow network.
    public var latency: Duration = .zero
    /// The device whose connectivity it honours.
    public let deviceID: String

    private let connectivity: SimulatedConnectivity
    private let scheduler: EventScheduler
    private let events: any EventSink
    /// How many times the device went offline so far: a request in flight sees it change.
    private var disconnections = 0
    private var subscription: ObservationToken?
    private var failuresLeft: [any Error] = []
    private var failureWindows: [(window: ClosedRange<VirtualInstant>, error: any Error)] = []

    init(device: Device, connectivity: SimulatedConnectivity) {
        self.deviceID = device.id
        self.connectivity = connectivity
        self.scheduler = device.scheduler
        self.events = device.events
        subscription = connectivity.observe { [weak self] state in
            if state == .offline { self?.disconnections += 1 }
        }
    }

    /// Whether the device can reach the network now.
    public var isOnline: Bool { connectivity.state == .online }

    /// The next `count` requests on this network fail with `error` (after the latency, as a dropped
    /// response would).
    public func failNext(_ count: Int = 1, with error: any Error = FakeNetworkError.injected) {
        failuresLeft.append(contentsOf: repeatElement(error, count: count))
    }

    /// Requests that start within `window` (offsets from virtual zero) fail with `error` after the latency.
    public func failures(within window: ClosedRange<Duration>, with error: any Error = FakeNetworkError.injected) {
        failureWindows.append((VirtualInstant(offset: window.lowerBound)...VirtualInstant(offset: window.upperBound), error))
    }

    /// A ``FakeService`` reached over this network: it fails while the device is offline and adds this
    /// network's latency to its own.
    public func service<Request, Response>(
        _ name: String? = nil,
        latency: Duration = .milliseconds(200),
        respond: @escaping (Request) throws -> Response
    ) -> FakeService<Request, Response> {
        FakeService(scheduler: scheduler, events: events, name: name, latency: latency, network: self, respond: respond)
    }

    /// Sends one request called `name`: throws ``FakeNetworkError/notConnected(device:)`` at once while
    /// the device is offline; otherwise waits ``latency`` plus `extraLatency` of virtual time, then
    /// throws ``FakeNetworkError/connectionLost(device:)`` if the device went offline meanwhile, or the
    /// scripted failure, or returns what `respond` returns (or throws what it throws).
    ///
    /// ```swift
    /// struct FakeStampAPI: StampAPI {
    ///     let network: FakeNetwork
    ///     func collect(_ stamp: String) async throws -> Int { try await network.send("stamps.collect") { 3 } }
    /// }
    /// ```
    public func send<Response>(_ name: String, extraLatency: Duration = .zero, respond: () throws -> Response) async throws -> Response {
        try check(name)
        try await carry(name, startedAt: scheduler.now, extraLatency: extraLatency)
        return try respond()
    }

    /// Throws at once when the device is offline (recording it); used at the start of every request.
    func check(_ name: String) throws {
        guard isOnline else {
            record(name, "not-connected")
            throw FakeNetworkError.notConnected(device: deviceID)
        }
    }

    /// Waits `extraLatency` plus this network's latency; throws when the connection was lost meanwhile
    /// or a network failure was scripted for a request starting `at`.
    func carry(_ name: String, startedAt start: VirtualInstant, extraLatency: Duration) async throws {
        let scripted = scriptedFailure(at: start)
        let disconnectionsAtStart = disconnections
        try await VirtualClock(scheduler).sleep(for: latency + extraLatency)
        if disconnections != disconnectionsAtStart || !isOnline {
            record(name, "lost")
            throw FakeNetworkError.connectionLost(device: deviceID)
        }
        if let scripted { throw scripted }
    }

    private func scriptedFailure(at instant: VirtualInstant) -> (any Error)? {
        if !failuresLeft.isEmpty { return failuresLeft.removeFirst() }
        return failureWindows.first { $0.window.contains(instant) }?.error
    }

    private func record(_ name: String, _ what: String) {
        events.record(TraceEvent(time: scheduler.now, device: deviceID, name: "network.\(what)", fields: [("request", .string(name))]))
    }
}

/// Why a request on a ``FakeNetwork`` failed.
public enum FakeNetworkError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The device was offline when the request started (URLSession's `notConnectedToInternet`).
    case notConnected(device: String)
    /// The device went offline while the request was in flight (URLSession's `networkConnectionLost`).
    case connectionLost(device: String)
    /// A scripted failure.
    case injected
    /// A ``FakeService`` made without a device was called while one of the simulation's several devices
    /// was offline: it cannot tell whose connectivity applies.
    case ambiguousDevice(service: String, offline: String, devices: Int)

    public var description: String {
        switch self {
        case .notConnected(let device): "device '\(device)' is offline: the request did not start"
        case .connectionLost(let device): "device '\(device)' went offline while the request was in flight"
        case .injected: "injected network failure"
        case .ambiguousDevice(let service, let offline, let devices):
            "the service '\(service)' was made without a device, and device '\(offline)' (of \(devices)) is offline: make it "
                + "for the calling device, `phone.network.service(...)` or `FakeService(simulation, device: phone, ...)`"
        }
    }
}
