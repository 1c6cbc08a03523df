import DeviceSimHAL
import DeviceSimServer
import DeviceSimSimulated
import DeviceSimTime
import Foundation

/// `http-servers:` (what the servers that the apps' `URLSession` requests reach answer, and where
/// their requests fail) and `http:` expectations (what a server was sent, received, applied, answered).
extension ScenarioParser {
    static let httpServerKeys = ["host", "latency", "idempotency-key", "routes", "failures"]
    static let httpRouteKeys = ["method", "path", "status", "json", "body", "headers", "delay"]
    static let httpFailureKeys = ["fail", "status", "by", "count", "within", "from"]
    static let httpFailurePoints = ["lost-before-arrival", "reply-lost", "slow", "status"]
    static let httpMethods = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]
    /// What an `http:` expectation counts, and the event (and `applied` value) each reads.
    static let httpCounts: [(key: String, event: String, applied: Bool?)] = [
        ("sent", "http.request", nil), ("arrived", "http.arrived", nil), ("applied", "http.arrived", true),
        ("answered", "http.response", nil), ("failed", "http.failed", nil),
    ]
    static var httpExpectationKeys: [String] { ["http", "host", "device", "within"] + httpCounts.map(\.key) }

    /// The servers of `http-servers:` (none when absent).
    static func parseHTTPServers(_ node: YAMLNode?) throws(ScenarioError) -> [HTTPServerSpec] {
        guard let node else { return [] }
        var servers: [HTTPServerSpec] = []
        for serverNode in try node.sequence(what: "list of HTTP servers, each { host: api.example.com, routes: [...] }") {
            let server = try parseHTTPServer(serverNode)
            if servers.contains(where: { $0.host == server.host }) {
                throw try serverNode.mapping(allowing: httpServerKeys, what: "HTTP server").required("host")
                    .error("a second server for the host '\(server.host)'; declare each host once, with all its routes")
            }
            servers.append(server)
        }
        return servers
    }

    private static func parseHTTPServer(_ node: YAMLNode) throws(ScenarioError) -> HTTPServerSpec {
        let map = try node.mapping(allowing: httpServerKeys, what: "HTTP server")
        let hostNode = try map.required("host")
        let host = try map.requiredText("host", what: "a host name such as api.example.com").lowercased()
        guard !host.contains("/"), !host.contains(":"), !host.contains(where: \.isWhitespace) else {
            throw hostNode.error("expected a host name such as api.example.com (no scheme, port or path), found '\(MessageText.excerpt(host))'")
        }
        var latency: Duration = .milliseconds(50)
        if let n = map.optional("latency") { latency = try n.duration(what: "a latency (each way)") }
        var keyHeader: String? = "Idempotency-Key"
        if let n = map.optional("idempotency-key") {
            let text = try n.string(what: "the name of the header that keys requests for idempotency, or none")
            keyHeader = text == "none" ? nil : text
            guard keyHeader?.isEmpty != true else { throw n.error("expected a header name (Idempotency-Key) or none") }
        }
        var routes: [HTTPServerSpec.Route] = []
        for routeNode in try map.optional("routes")?.sequence(what: "list of routes, each { method: POST, path: /items, status: 201 }") ?? [] {
            let route = try parseHTTPRoute(routeNode)
            if routes.contains(where: { $0.method == route.method && $0.path == route.path }) {
                throw routeNode.error("a second route for \(route.method) \(route.path) on \(host); each method and path is answered once")
            }
            routes.append(route)
        }
        var failures: [SimulatedHTTPServer.FailureRule] = []
        for failureNode in try map.optional("failures")?.sequence(what: "list of failures, each { fail: reply-lost, count: 1 }") ?? [] {
            failures.append(try parseHTTPFailure(failureNode))
        }
        return HTTPServerSpec(host: host, latency: latency, idempotencyKeyHeader: keyHeader, routes: routes, failures: failures, location: node.location)
    }

    private static func parseHTTPRoute(_ node: YAMLNode) throws(ScenarioError) -> HTTPServerSpec.Route {
        let map = try node.mapping(allowing: httpRouteKeys, what: "route")
        let method = try parseHTTPMethod(map.required("method"))
        let pathNode = try map.required("path")
        let path = try parseHTTPPath(pathNode)
        let status = try map.optional("status").map { (n) throws(ScenarioError) in try parseHTTPStatus(n) } ?? 200
        var headers: [String: String] = [:]
        var body = Data()
        if let jsonNode = map.optional("json") {
            if let bodyNode = map.optional("body") { throw bodyNode.error("a route answers either json: or body:, not both") }
            body = Data(try jsonText(jsonNode).utf8)
            headers["Content-Type"] = "application/json"
        } else if let bodyNode = map.optional("body") {
            body = Data(try bodyNode.string(what: "the body's text").utf8)
        }
        if let headersNode = map.optional("headers") {
            let headersMap = try headersNode.mapping(allowing: (try? headersNode.fieldNames()) ?? [], what: "headers")
            for name in headersMap.keys { headers[name] = try headersMap.required(name).string(what: "the value of the header \(name)") }
        }
        var delay: Duration = .zero
        if let n = map.optional("delay") { delay = try n.duration(what: "how long the server takes to answer") }
        return HTTPServerSpec.Route(method: method, path: path, status: status, headers: headers, body: body, delay: delay)
    }

    private static func parseHTTPFailure(_ node: YAMLNode) throws(ScenarioError) -> SimulatedHTTPServer.FailureRule {
        let map = try node.mapping(allowing: httpFailureKeys, what: "failure")
        let failNode = try map.required("fail")
        let kind = try failNode.choice(httpFailurePoints, what: "failure point")
        let point: SimulatedHTTPServer.FailurePoint
        switch kind {
        case "lost-before-arrival": point = .lostBeforeArrival
        case "reply-lost": point = .replyLost
        case "slow":
            guard let by = map.optional("by") else { throw node.error("fail: slow needs by: how much longer the server takes (by: 30s)") }
            point = .slow(try by.duration(what: "how much longer the server takes"))
        default:
            guard let status = map.optional("status") else { throw node.error("fail: status needs status: the code the server answers instead (status: 503)") }
            point = .status(try parseHTTPStatus(status))
        }
        if kind != "slow", let by = map.keyNode("by") { throw by.error("by: is how much longer a slow server takes; it goes with fail: slow, not fail: \(kind)") }
        if kind != "status", let status = map.keyNode("status") {
            throw status.error("status: is the code a failing server answers; it goes with fail: status, not fail: \(kind) (a route's status goes in the route)")
        }
        var count: Int?
        if let n = map.optional("count") {
            count = try nonNegative(n)
            guard count! >= 1 else { throw n.error("count is how many requests fail, at least 1") }
        }
        var from: VirtualInstant?, until: VirtualInstant?
        if let n = map.optional("within") {
            if let fromKey = map.keyNode("from") { throw fromKey.error("a failure takes within: [from, to] or from:, not both") }
            let window = try parseWindow(n)
            (from, until) = (VirtualInstant(offset: window.lowerBound), VirtualInstant(offset: window.upperBound))
        } else if let n = map.optional("from") {
            from = VirtualInstant(offset: try n.duration(what: "the time from which requests fail"))
        }
        guard count != nil || from != nil else {
            throw node.error("say which requests fail: count: N (the next N), within: [from, to] or from: T (those sent then), or count with a window")
        }
        return SimulatedHTTPServer.FailureRule(point, from: from, until: until, count: count)
    }

    private static func parseHTTPMethod(_ node: YAMLNode) throws(ScenarioError) -> String {
        let text = try node.string(what: "an HTTP method").uppercased()
        guard httpMethods.contains(text) else {
            throw node.error("unknown HTTP method '\(MessageText.excerpt(text))'; expected one of: \(httpMethods.joined(separator: ", "))")
        }
        return text
    }

    private static func parseHTTPPath(_ node: YAMLNode) throws(ScenarioError) -> String {
        let path = try node.string(what: "a path such as /check-ins")
        guard path.hasPrefix("/") else { throw node.error("a path starts with '/' (/check-ins), found '\(MessageText.excerpt(path))'; the host goes in host:") }
        guard !path.contains("?"), !path.contains("#") else { throw node.error("a route matches the path only; leave out the query ('?...') of '\(MessageText.excerpt(path))'") }
        return path
    }

    private static func parseHTTPStatus(_ node: YAMLNode) throws(ScenarioError) -> Int {
        let status = try node.int(what: "an HTTP status code")
        guard (100...599).contains(status) else { throw node.error("an HTTP status code is 100 to 599, found \(status)") }
        return status
    }

    /// The JSON text of a YAML value: mappings as objects (keys sorted), lists as arrays, plain
    /// numbers, `true`/`false` and `null` as themselves, anything else (or quoted) as a string.
    static func jsonText(_ node: YAMLNode) throws(ScenarioError) -> String {
        if let pairs = node.pairs {
            var members: [(String, String)] = []
            for (key, value) in pairs {
                guard let name = key.scalarText else { throw key.error("JSON keys are plain words") }
                members.append((JSONString.quote(name), try jsonText(value)))
            }
            return "{" + members.sorted { $0.0 < $1.0 }.map { "\($0.0):\($0.1)" }.joined(separator: ",") + "}"
        }
        if let items = node.items {
            var texts: [String] = []
            for item in items { texts.append(try jsonText(item)) }
            return "[" + texts.joined(separator: ",") + "]"
        }
        let text = node.scalarText ?? ""
        guard node.isPlainScalar else { return JSONString.quote(text) }
        if text == "true" || text == "false" { return text }
        if text == "null" || text == "~" || text.isEmpty { return "null" }
        if let int = Int(text) { return String(int) }
        if let double = Double(text), double.isFinite, text.first.map({ $0.isNumber || $0 == "-" }) == true { return "\(double)" }
        return JSONString.quote(text)
    }

    /// An `http:` expectation (`http: POST /check-ins`, with `applied: 1` and the other counts) as the
    /// event expectations it stands for; nil when `node` is another kind.
    static func parseHTTPExpectation(_ node: YAMLNode, servers: [HTTPServerSpec], devices: ScenarioDeviceIndex) throws(ScenarioError) -> [Expectation]? {
        guard node.hasKey("http") else { return nil }
        let map = try node.mapping(allowing: httpExpectationKeys, what: "http expectation")
        let requestNode = try map.required("http")
        let words = try requestNode.string(what: "a method and a path: POST /check-ins").split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard words.count == 2 else { throw requestNode.error("expected a method and a path: POST /check-ins") }
        let method = words[0].uppercased()
        guard httpMethods.contains(method) else {
            throw requestNode.error("unknown HTTP method '\(MessageText.excerpt(words[0]))'; expected one of: \(httpMethods.joined(separator: ", "))")
        }
        let path = words[1]
        guard !servers.isEmpty else {
            throw requestNode.error("no HTTP server is declared: add http-servers: [{ host: api.example.com, routes: [{ method: \(method), path: \(path), status: 200 }] }]")
        }
        var candidates = servers
        if let hostNode = map.optional("host") {
            let host = try hostNode.choice(servers.map(\.host), what: "host")
            candidates = servers.filter { $0.host == host }
        }
        let routes = candidates.flatMap { server in server.routes.map { "\($0.method) \($0.path)" } }
        guard routes.contains("\(method) \(path)") else {
            var message = "no server declares the route \(method) \(path)"
            if let nearest = NearestWord.suggest(for: "\(method) \(path)", among: routes) { message += "; did you mean '\(nearest)'?" }
            else if !routes.isEmpty { message += "; routes: \(routes.joined(separator: ", "))" }
            throw requestNode.error(message)
        }
        let device = try map.optional("device").map { (n) throws(ScenarioError) in try devices.deviceID(named: n) }
        let window = try map.optional("within").map { (n) throws(ScenarioError) in try parseWindow(n) }
        var expectations: [Expectation] = []
        for count in httpCounts {
            guard let countNode = map.optional(count.key) else { continue }
            let (minimum, maximum) = try parseHTTPCount(countNode)
            var fields = [FieldCondition("method", equals: method), FieldCondition("path", equals: path)]
            if let host = map.optional("host")?.scalarText { fields.append(FieldCondition("host", equals: host.lowercased())) }
            if let applied = count.applied { fields.append(FieldCondition("applied", equals: applied ? "true" : "false")) }
            expectations.append(.event(EventExpectation(
                name: count.event, device: device, window: window, fields: fields, minimum: minimum, maximum: maximum, location: countNode.location)))
        }
        guard !expectations.isEmpty else {
            throw node.error("say what to count: \(httpCounts.map { "\($0.key): N" }.joined(separator: ", ")) (or { at-least: N } / { at-most: N })")
        }
        return expectations
    }

    /// `N` (exactly), `{ at-least: N }`, `{ at-most: N }` or both.
    private static func parseHTTPCount(_ node: YAMLNode) throws(ScenarioError) -> (Int, Int?) {
        guard node.isMapping else {
            let count = try nonNegative(node)
            return (count, count)
        }
        let map = try node.mapping(allowing: ["at-least", "at-most"], what: "count")
        var minimum = 0, maximum: Int?
        if let n = map.optional("at-least") { minimum = try nonNegative(n) }
        if let n = map.optional("at-most") { maximum = try nonNegative(n) }
        guard map.optional("at-least") != nil || maximum != nil else { throw node.error("expected a count: N, { at-least: N } or { at-most: N }") }
        if let maximum, maximum < minimum { throw node.error("at-most \(maximum) is less than at-least \(minimum)") }
        return (minimum, maximum)
    }
}
