/// One HTTP request an app on a device sends, as values (the URL loading system's request, without
/// Foundation types).
///
/// ```swift
/// let request = HTTPExchangeRequest(method: "POST", url: "https://api.example.com/check-ins", host: "api.example.com",
///                                   path: "/check-ins", headers: ["Idempotency-Key": "k1"], body: Array("{}".utf8))
/// ```
public struct HTTPExchangeRequest: Sendable, Hashable {
    /// The method (`GET`, `POST`, ...).
    public var method: String
    /// The absolute URL.
    public var url: String
    /// The URL's host.
    public var host: String
    /// The URL's path (`/` when empty).
    public var path: String
    /// The URL's query, without the `?` (nil: none).
    public var query: String?
    /// The header fields, by the names the app gave them.
    public var headers: [String: String]
    /// The body (empty: none).
    public var body: [UInt8]
    /// How long the device waits for the reply, from the send (the request's `timeoutInterval`).
    public var timeout: Duration

    /// Creates a request.
    public init(
        method: String, url: String, host: String, path: String, query: String? = nil,
        headers: [String: String] = [:], body: [UInt8] = [], timeout: Duration = .seconds(60)
    ) {
        self.method = method
        self.url = url
        self.host = host
        self.path = path.isEmpty ? "/" : path
        self.query = query
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }

    /// The value of the header field `name`, compared case-insensitively as HTTP does.
    public func header(_ name: String) -> String? {
        let lowered = name.lowercased()
        return headers.first { $0.key.lowercased() == lowered }?.value
    }
}

/// A server's reply to an ``HTTPExchangeRequest``.
public struct HTTPExchangeResponse: Sendable, Hashable {
    /// The status code.
    public var status: Int
    /// The header fields.
    public var headers: [String: String]
    /// The body.
    public var body: [UInt8]

    /// Creates a reply.
    public init(status: Int, headers: [String: String] = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}

/// Why an HTTP request got no reply, as the URL loading system reports it.
public enum HTTPExchangeFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The device was offline when the request was sent (`URLError.notConnectedToInternet`).
    case notConnected
    /// The device's interface went down while the request was on its way (`URLError.networkConnectionLost`).
    case connectionLost
    /// No reply came within the request's timeout (`URLError.timedOut`).
    case timedOut
    /// No server answers for the host (`URLError.cannotFindHost`); `hint` says how to add one.
    case cannotFindHost(String, hint: String)

    public var description: String {
        switch self {
        case .notConnected: "the device is offline: the request was not sent"
        case .connectionLost: "the device's network interface went down while the request was on its way"
        case .timedOut: "no reply came within the request's timeout"
        case .cannotFindHost(let host, let hint): "no server answers for the host '\(host)': \(hint)"
        }
    }
}

/// How a device's HTTP requests reach servers in the simulation: the URL loading system of the
/// Apple-shaped API (`URLSession`) hands each request of the device's apps to it.
///
/// `send` is called on the simulation's thread at the virtual instant the app sent the request; it calls
/// `finish` once, on the simulation's thread, at the virtual instant the reply (or the failure) reaches
/// the device, unless the returned cancel closure was called first (the app cancelled the task).
///
/// ```swift
/// let cancel = device.http?.send(request, from: device) { result in deliver(result) }
/// ```
public protocol HTTPTransport: AnyObject {
    /// Sends `request` from `device`; `finish` gets the reply or the failure.
    func send(
        _ request: HTTPExchangeRequest, from device: Device, finish: @escaping (Result<HTTPExchangeResponse, HTTPExchangeFailure>) -> Void
    ) -> () -> Void
}
