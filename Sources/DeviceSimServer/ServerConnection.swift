import DeviceSimHAL
import DeviceSimTime

/// One device's connection to a simulated server: a request takes the server's latency to arrive,
/// is handled there, and its reply comes back at once. The device's connectivity decides what
/// happens on the way:
///
/// - offline when the request is sent: it fails at once with ``BackendError/unreachable``;
/// - the device's interface goes down while the request is on its way (the device goes offline, even
///   for an instant, or a `drop-connection` step): the request fails at once with
///   ``BackendError/connectionLost(operation:)``, as a phone's networking stack fails its open
///   connections when the interface goes (the app may retry). The request or its reply was lost
///   (which one is scripted with ``ConnectionDrops`` for every request a drop catches, or decided by
///   the seed): a lost reply means the request had reached the server, which acted on it at the
///   drop, so a retry must not be applied twice (servers key requests by a request id);
/// - the request or its reply is lost in the network while the interface stays up
///   (``ConnectionDrops/lostInTheNetwork(_:)``, `drop-connection` with `interface: up`): the device
///   hears nothing and gives up after ``timeout`` from the send with
///   ``BackendError/timedOut(operation:)`` (a lost reply: the server acted when the request arrived);
/// - the app is stopped (its task cancelled) while it waits: ``BackendError/cancelled(operation:)``,
///   which is no failure of the server and which a stopped app does not show.
///
/// Events (device's trace): `request.lost` (`operation`, `lost`: `request` or `reply`, `after`
/// seconds from the send, `interface`: `down` or `up`), `request.timed-out` (`operation`, `after` seconds).
///
/// ```swift
/// let connection = ServerConnection(device: phone, latency: .milliseconds(200), random: random.split("network"))
/// let list = try await connection.send("download") { () throws(BackendError) in server.serveDownload(account: "anna") }
/// ```
public final class ServerConnection {
    /// How long a device waits for a reply by default (mobile HTTP clients use 10 to 60 s).
    public static let defaultTimeout: Duration = .seconds(15)

    /// The device whose connectivity the requests cross.
    public let device: Device
    /// How long a request takes to reach the server.
    public var latency: Duration
    /// How long the device waits for a reply, from the send.
    public let timeout: Duration
    /// The scripted drops of the device.
    public let drops: ConnectionDrops
    private var random: SeededRandomGenerator

    /// A connection of `device` with `latency`; drops not scripted in `drops` lose the request or the
    /// reply as `random` decides.
    public init(device: Device, latency: Duration, timeout: Duration = defaultTimeout, random: SeededRandomGenerator, drops: ConnectionDrops = ConnectionDrops()) {
        self.device = device
        self.latency = latency
        self.timeout = max(timeout, latency)
        self.random = random
        self.drops = drops
    }

    /// Sends the request `operation`, which the server handles with `serve` when it arrives.
    public func send<Reply>(_ operation: String, _ serve: () throws(BackendError) -> Reply) async throws(BackendError) -> Reply {
        guard device.connectivity?.state != .offline else { throw .unreachable }
        let scheduler = device.scheduler
        let sentAt = scheduler.now
        let latency = latency
        let drops = drops
        let connectivity = device.connectivity
        let flight: InFlight = await waitForCallback(on: scheduler.executor, cancelled: .cancelled) { finish in
            let arrival = scheduler.schedule(after: latency) { finish(.arrived) }
            // The first drop that catches the request decides.
            let interface = connectivity?.observe { state in
                guard state == .offline else { return }
                finish(.lost(drops.current, interfaceDown: true))
            }
            let network = drops.watch { part in finish(.lost(part, interfaceDown: false)) }
            return {
                arrival.cancel()
                interface?.cancel()
                drops.unwatch(network)
            }
        }
        let part: LostInFlight?, interfaceDown: Bool
        switch flight {
        case .arrived: return try serve()
        case .cancelled: throw .cancelled(operation: operation)   // the app was stopped while waiting
        case .lost(let scripted, let down): (part, interfaceDown) = (scripted, down)
        }
        let lost = part ?? (random.next() & 1 == 0 ? .request : .reply)
        let clock = VirtualClock(scheduler)
        func recordLoss() {
            device.record("request.lost", [
                ("operation", .string(operation)), ("lost", .string(lost.rawValue)),
                ("after", .double(sentAt.duration(to: scheduler.now).inSeconds)), ("interface", .string(interfaceDown ? "down" : "up")),
            ])
        }
        if interfaceDown {
            // The request had reached the server (its reply was on its way back) or had not.
            recordLoss()
            if lost == .reply { _ = try? serve() }
            throw .connectionLost(operation: operation)
        }
        do {
            // Lost in the network: known (and, a lost reply, handled by the server) when it would have arrived.
            try await clock.sleep(until: sentAt.advanced(by: latency))
            recordLoss()
            if lost == .reply { _ = try? serve() }
            try await clock.sleep(until: sentAt.advanced(by: timeout))
        } catch {
            throw .cancelled(operation: operation)
        }
        device.record("request.timed-out", [("operation", .string(operation)), ("after", .double(timeout.inSeconds))])
        throw .timedOut(operation: operation)
    }
}

/// How a request's flight ended.
private enum InFlight: Sendable {
    case arrived
    /// Caught by a drop (its scripted part, nil: the seed decides): of the interface, or in the network.
    case lost(LostInFlight?, interfaceDown: Bool)
    /// The app was stopped.
    case cancelled
}
