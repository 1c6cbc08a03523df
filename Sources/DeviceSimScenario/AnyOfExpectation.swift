/// An either-or outcome: `any-of:` lists expectations of which at least one must hold, such as
/// "confirmed or already achieved" after the app is killed while it saves. Each alternative is any
/// expectation (an event, an order, a position, a `stored:` or `server:` check) and is judged as it
/// would be alone; the `any-of` passes when one of them passes.
///
/// ```yaml
/// expect:
///   - any-of:
///       - { event: objective.achieved, where: { objective: library }, count: 1 }
///       - { event: objective.already-achieved, where: { objective: library }, count: 1 }
/// ```
public struct AnyOfExpectation: Sendable {
    /// The expectations of which one must hold, in file order.
    public var alternatives: [Expectation]
    /// Where the `any-of` is written.
    public var location: SourceLocation

    /// The `any-of` of `node`, its alternatives read by `parse` (which notes the reads of `stored:` and
    /// `server:` alternatives in `probes`); nil for a node that is not an `any-of`. Refused at their
    /// line and column: other keys beside `any-of`, fewer than two alternatives, a nested `any-of`, and
    /// an alternative that captures a variable (whether it is set would depend on which one held).
    static func parse(
        _ node: YAMLNode, probes: inout [StoredProbe],
        parse: (YAMLNode, inout [StoredProbe]) throws(ScenarioError) -> Expectation
    ) throws(ScenarioError) -> AnyOfExpectation? {
        guard node.hasKey("any-of") else { return nil }
        let map = try node.mapping(allowing: ScenarioParser.anyOfExpectationKeys, what: "any-of expectation (its alternatives carry device:, within:, ... each)")
        let listNode = try map.required("any-of")
        let items = try listNode.sequence(what: "list of expectations of which one must hold: [{ event: a }, { event: b }]")
        guard items.count >= 2 else {
            throw listNode.error("any-of needs two expectations or more, of which one must hold; found \(items.count) (write a single expectation without any-of)")
        }
        var alternatives: [Expectation] = []
        for item in items {
            if item.isMapping, let inner = try? item.fieldNames() {
                if inner.contains("any-of") { throw item.error("an any-of inside an any-of: list its expectations in the outer one") }
                if inner.contains("capture"), let capture = try item.mapping(allowing: inner).keyNode("capture") {
                    throw capture.error("an alternative of any-of cannot capture: whether the variable is set would depend on which alternative held; capture in an expectation of its own")
                }
            }
            alternatives.append(try parse(item, &probes))
        }
        return AnyOfExpectation(alternatives: alternatives, location: node.location)
    }

    /// The outcome from the outcomes of the alternatives: passed when one passed; the text lists each
    /// alternative and what was observed of it.
    func outcome(of alternatives: [ExpectationOutcome]) -> ExpectationOutcome {
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        func label(_ index: Int) -> String { index < letters.count ? "(\(letters[index]))" : "(\(index + 1))" }
        let expected = "any of: " + alternatives.enumerated().map { "\(label($0.offset)) \($0.element.expected)" }.joined(separator: "; ")
        let held = alternatives.firstIndex { $0.passed }
        let observed: String
        if let held {
            observed = "\(label(held)) holds: \(alternatives[held].observed)"
        } else {
            observed = "none holds: " + alternatives.enumerated().map { "\(label($0.offset)) \($0.element.observed)" }.joined(separator: "; ")
        }
        // Settled when a passed alternative can no longer fail, or when every one has failed for good.
        let settled = alternatives.contains { $0.passed && $0.settled } || alternatives.allSatisfy { !$0.passed && $0.settled }
        return ExpectationOutcome(passed: held != nil, expected: expected, observed: observed, location: location, settled: settled)
    }
}
