/// Where gpsd listens: a host and a TCP port (gpsd's default is localhost:2947).
///
/// ```swift
/// let endpoint = try GPSDEndpoint(parsing: "localhost:2947")
/// ```
public struct GPSDEndpoint: Sendable, Hashable, CustomStringConvertible {
    /// Host name or address.
    public var host: String
    /// TCP port.
    public var port: Int

    /// gpsd's usual address.
    public static let `default` = GPSDEndpoint(host: "localhost", port: 2947)

    /// Creates an endpoint.
    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Reads `HOST`, `HOST:PORT`, `:PORT` or `[IPv6]:PORT`.
    public init(parsing text: String) throws(GPSDError) {
        var host = text, port = 2947
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { throw GPSDError.invalidEndpoint(text) }
            host = String(text[text.index(after: text.startIndex)..<close])
            let rest = text[text.index(after: close)...]
            if rest.hasPrefix(":") {
                guard let value = Int(rest.dropFirst()) else { throw GPSDError.invalidEndpoint(text) }
                port = value
            } else if !rest.isEmpty {
                throw GPSDError.invalidEndpoint(text)
            }
        } else if let colon = text.lastIndex(of: ":"), text.filter({ $0 == ":" }).count == 1 {
            host = String(text[..<colon])
            guard let value = Int(text[text.index(after: colon)...]) else { throw GPSDError.invalidEndpoint(text) }
            port = value
        }
        if host.isEmpty { host = "localhost" }
        guard (1...65_535).contains(port) else { throw GPSDError.invalidEndpoint(text) }
        self.init(host: host, port: port)
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

/// What can go wrong talking to gpsd, in words a user can act on.
public enum GPSDError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The address is not HOST, HOST:PORT or [IPv6]:PORT.
    case invalidEndpoint(String)
    /// No gpsd answered at the address.
    case cannotConnect(GPSDEndpoint, reason: String)
    /// gpsd refused the watch request.
    case watchFailed(GPSDEndpoint, reason: String)
    /// The connection broke.
    case connectionLost(GPSDEndpoint, reason: String)
    /// The client dropped the connection for what gpsd sent (a line too long, a line left unfinished).
    case unusableInput(GPSDEndpoint, GPSDUnusableInput)
    /// Writing a recording failed.
    case recordingFailed(path: String, reason: String)
    /// libgps, which decodes gpsd's reports, could not be loaded (it is loaded at the first connection).
    case libgpsUnavailable(reason: String)

    public var description: String {
        switch self {
        case .invalidEndpoint(let text):
            "'\(text)' is not a gpsd address; write HOST, HOST:PORT or [IPv6]:PORT, e.g. localhost:2947"
        case .cannotConnect(let endpoint, let reason):
            "cannot connect to gpsd at \(endpoint) (\(reason)). Is gpsd running? Start it with 'gpsd -N -n /dev/ttyACM0' (or ttyUSB0), or check with 'gpspipe -w \(endpoint)'"
        case .watchFailed(let endpoint, let reason):
            "gpsd at \(endpoint) refused to stream reports: \(reason)"
        case .connectionLost(let endpoint, let reason):
            "lost the connection to gpsd at \(endpoint): \(reason)"
        case .unusableInput(let endpoint, let input):
            "dropped the connection to gpsd at \(endpoint): it sent \(input)"
        case .recordingFailed(let path, let reason):
            "cannot write the recording \(path): \(reason)"
        case .libgpsUnavailable(let reason):
            "cannot load libgps, which decodes gpsd's reports (\(reason)); install it (Debian, Ubuntu: apt-get install libgps28, or the libgps of your gpsd version)"
        }
    }
}
