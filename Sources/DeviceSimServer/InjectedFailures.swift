import DeviceSimTime

/// Failures injected into a simulated server: requests of an operation fail from an instant until
/// another (or for good), or only the next N of them.
///
/// ```swift
/// var failures = InjectedFailures<SimulatedGameServer.Operation>()
/// failures.add(.achieve, from: .zero, count: 1)
/// failures.consume(.achieve, at: now)   // true once, then false
/// ```
public struct InjectedFailures<Operation: Hashable & Sendable>: Sendable {
    /// One rule.
    public struct Rule: Sendable, Hashable {
        public var operation: Operation
        public var from: VirtualInstant
        public var until: VirtualInstant?
        public var count: Int?
    }

    /// The rules, in the order they were added.
    public private(set) var rules: [Rule] = []

    /// No failures.
    public init() {}

    /// Adds a rule.
    public mutating func add(_ operation: Operation, from: VirtualInstant, until: VirtualInstant? = nil, count: Int? = nil) {
        rules.append(Rule(operation: operation, from: from, until: until, count: count))
    }

    /// Whether a request of `operation` at `now` fails; a counted rule that applies is used up by one.
    public mutating func consume(_ operation: Operation, at now: VirtualInstant) -> Bool {
        guard let index = rules.firstIndex(where: { rule in
            rule.operation == operation && rule.from <= now && (rule.until.map { now < $0 } ?? true) && (rule.count ?? 1) > 0
        }) else { return false }
        if let count = rules[index].count { rules[index].count = count - 1 }
        return true
    }
}
