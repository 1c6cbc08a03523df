import DeviceSimHAL
import DeviceSimTime

/// One row of a report's network panel: a request a device sent and what became of it, or a request
/// the scenario's server handled, worked out from the trace alone.
///
/// Where rows come from:
/// - `http.request` / `http.arrived` / `http.response` / `http.failed` (a device's `URLSession`
///   through a `FakeHTTPServer`): one row per request, sent, arrived at the server, answered (its
///   status) or failed (its error, and `lost: request|reply` when the network lost it). Requests with
///   the same device, method, host and path are matched first in, first out.
/// - `request.lost` and `request.timed-out` (a scenario app's connection to its server): the request
///   was sent `after` seconds before the loss; a `request.timed-out` of the same operation closes it.
/// - the scenario server's own events (events of no device other than `scenario.*` and `server.rows`,
///   such as `backend.ping-received` or `account.synced`): a request the server handled then. A
///   request that went through is traced only there: its send time is not in the trace.
///
/// ```swift
/// let rows = NetworkExchange.exchanges(in: section.events)
/// rows.filter { $0.lost != nil }     // what the network lost
/// ```
public struct NetworkExchange: Sendable, Hashable {
    /// Where the row comes from.
    public enum Source: String, Sendable {
        /// A `URLSession` request (`http.*` events).
        case http
        /// A scenario app's request to its server that was lost or timed out (`request.*` events).
        case connection
        /// The scenario server handled a request (its own event).
        case server
    }

    public var source: Source
    /// The device that sent it (nil: the server's event, which names no device).
    public var device: String?
    /// What it was: `GET api.example.com/tasks`, `sync`, `backend.ping-received account=anna`.
    public var label: String
    /// When it was sent (for a server row: when the server handled it).
    public var sent: VirtualInstant
    /// When it reached the server (nil: unknown, or never).
    public var arrived: VirtualInstant?
    /// When the device had its answer or its error (nil: unknown, or never within the trace).
    public var ended: VirtualInstant?
    /// What came of it: `200`, `timedOut`, `lost`, `handled`, `no answer`.
    public var outcome: String
    /// What the network lost: `request` or `reply` (nil: nothing known to be lost).
    public var lost: String?
    /// Its first event, as an index into the trace's events.
    public var event: Int

    /// The rows of the network panel for `events` (a trace in order), in the order they were sent.
    public static func exchanges(in events: [TraceEvent]) -> [NetworkExchange] {
        var rows: [NetworkExchange] = []
        var openHTTP: [String: [Int]] = [:]        // key → rows not yet answered, oldest first
        var openConnection: [String: [Int]] = [:]  // device + operation → lost rows not yet timed out
        for (index, event) in events.enumerated() {
            let name = event.name
            if name.hasPrefix("http.") {
                let method = event["method"]?.description ?? "", host = event["host"]?.description ?? "", path = event["path"]?.description ?? ""
                let key = "\(event.device ?? "")\u{0}\(method)\u{0}\(host)\u{0}\(path)"
                switch name {
                case "http.request":
                    openHTTP[key, default: []].append(rows.count)
                    rows.append(NetworkExchange(source: .http, device: event.device, label: "\(method) \(host)\(path)", sent: event.time, outcome: "no answer", event: index))
                case "http.arrived":
                    if let row = openHTTP[key]?.first(where: { rows[$0].arrived == nil }) { rows[row].arrived = event.time }
                case "http.response", "http.failed":
                    guard var open = openHTTP[key], !open.isEmpty else { continue }
                    let row = open.removeFirst()
                    openHTTP[key] = open
                    rows[row].ended = event.time
                    rows[row].outcome = event["status"]?.description ?? event["error"]?.description ?? name
                    rows[row].lost = event["lost"]?.description
                default:
                    continue
                }
            } else if name == "request.lost" || name == "request.timed-out" {
                let operation = event["operation"]?.description ?? "request"
                let key = "\(event.device ?? "")\u{0}\(operation)"
                if name == "request.lost" {
                    let after = event["after"]?.number ?? 0
                    let sent = VirtualInstant(offset: event.time.offset - .milliseconds(Int64((after * 1000).rounded())))
                    let interfaceDown = event["interface"]?.description == "down"
                    openConnection[key, default: []].append(rows.count)
                    rows.append(NetworkExchange(
                        source: .connection, device: event.device, label: operation, sent: sent, ended: interfaceDown ? event.time : nil,
                        outcome: interfaceDown ? "connection lost" : "lost", lost: event["lost"]?.description ?? "request", event: index
                    ))
                } else if var open = openConnection[key], !open.isEmpty {
                    let row = open.removeFirst()
                    openConnection[key] = open
                    rows[row].ended = event.time
                    rows[row].outcome = "timed out"
                } else {
                    let after = event["after"]?.number ?? 0
                    let sent = VirtualInstant(offset: event.time.offset - .milliseconds(Int64((after * 1000).rounded())))
                    rows.append(NetworkExchange(source: .connection, device: event.device, label: operation, sent: sent, ended: event.time, outcome: "timed out", event: index))
                }
            } else if event.device == nil, !name.hasPrefix("scenario."), name != "server.rows" {
                let details = event.fields.prefix(2).map { "\($0.key)=\($0.value.description)" }.joined(separator: " ")
                rows.append(NetworkExchange(
                    source: .server, device: nil, label: details.isEmpty ? name : "\(name) \(details)", sent: event.time, arrived: event.time,
                    outcome: "handled", event: index
                ))
            }
        }
        // In the order sent (a lost request is found only when the loss is traced).
        return rows.enumerated().sorted { ($0.element.sent, $0.offset) < ($1.element.sent, $1.offset) }.map(\.element)
    }
}
