import DeviceSimTime

/// One `server-failures` item of an app's settings, in the same words for every app's server:
/// requests of `operation` fail within `[from, until)` (from the start, for good, without
/// `within:`), or only the next `count` of them.
///
/// ```yaml
/// server-failures:
///   - { operation: upload, within: [1m, 5m] }    # every upload in the window fails
///   - { operation: download, count: 1 }           # the next download fails
/// ```
public struct ServerFailure<Operation: RawRepresentable & CaseIterable & Hashable & Sendable>: Sendable, Equatable where Operation.RawValue == String {
    public var operation: Operation
    public var from: Duration
    public var until: Duration?
    public var count: Int?

    /// The list of `node`; `server` names the server in errors ("task list server").
    public static func parseList(_ node: YAMLNode, server: String) throws(ScenarioError) -> [ServerFailure] {
        var failures: [ServerFailure] = []
        for item in try node.sequence(what: "list of failures: [{ operation: ..., within: [from, until], count: N }]") {
            let map = try item.mapping(allowing: ["operation", "within", "count"], what: "failure")
            let names = Operation.allCases.map(\.rawValue)
            let operation = Operation(rawValue: try map.required("operation").choice(names, what: "\(server) operation"))!
            var failure = ServerFailure(operation: operation, from: .zero, until: nil, count: nil)
            if let within = map.optional("within") {
                let window = try ScenarioParser.parseFailureWindow(within)
                failure.from = window.lowerBound
                failure.until = window.upperBound
            }
            failure.count = try map.optional("count").map { (n) throws(ScenarioError) in try ScenarioParser.parseFailureCount(n) }
            failures.append(failure)
        }
        return failures
    }

    /// The first instant requests fail.
    public var fromInstant: VirtualInstant { VirtualInstant(offset: from) }
    /// The instant they stop failing (nil: never).
    public var untilInstant: VirtualInstant? { until.map { VirtualInstant(offset: $0) } }
}
