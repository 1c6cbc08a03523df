import DeviceSimHAL
import DeviceSimTime

/// One device's connection to a simulated server: a request takes the server's latency to arrive,
/// is handled there, and its reply comes back at once. The device's connectivity decides what
/// happens on the way:
///
/// - offline when the request is sent: it fails at once with ``BackendError/unreachable``;
/// - the connection drops while the request is on its way (the device goes offline, even for an
///   instant, or a `drop-connection` step): the request or its reply is lost (which one is scripted
///   with ``ConnectionDrops`` for every request a drop catches, or decided by the seed); the device hears nothing and gives up after
///   ``timeout`` from the send with ``BackendError/timedOut(operation:)``. A lost reply means the
///   server acted: a retry must not be applied twice (servers key requests by a request id);
/// - the app is stopped (its task cancelled) while it waits: ``BackendError/cancelled(operation:)``,
///   which is no failure of the server and which a stopped app does not show.
///
/// Events (device's trace): `request.lost` (`operation`, `lost`: `request` or `reply`),
/// `request.timed-out` (`operation`, `after` seconds).
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
        let clock = VirtualClock(device.scheduler)
        let sentAt = device.scheduler.now
        let dropped = DropFlag()
        let drops = drops
        let observation = device.connectivity?.observe { state in
            guard state == .offline, !dropped.value else { return }
            dropped.value = true
            dropped.scriptedPart = drops.current   // the first drop that catches the request decides
        }
        defer { observation?.cancel() }
        do {
            try await clock.sleep(for: latency)
        } catch {
            throw .cancelled(operation: operation)   // the app was stopped while waiting
        }
        guard dropped.value else { return try serve() }
        let lost = dropped.scriptedPart ?? (random.next() & 1 == 0 ? .request : .reply)
        device.record("request.lost", [("operation", .string(operation)), ("lost", .string(lost.rawValue))])
        if lost == .reply { _ = try? serve() }
        do {
            try await clock.sleep(until: sentAt.advanced(by: timeout))
        } catch {
            throw .cancelled(operation: operation)
        }
        device.record("request.timed-out", [("operation", .string(operation)), ("after", .double(timeout.inSeconds))])
        throw .timedOut(operation: operation)
    }
}

/// Whether the connection dropped while a request was on its way (set by a connectivity observer on
/// the simulation's executor, read there after the flight).
private final class DropFlag {
    var value = false
    /// What the drop lost, when a `drop-connection` step said (`lose:`).
    var scriptedPart: LostInFlight?
}
