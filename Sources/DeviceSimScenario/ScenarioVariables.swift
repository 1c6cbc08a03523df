import DeviceSimHAL
import DeviceSimSimulated
import DeviceSimTime
import Foundation

/// Values produced during a run and used by later steps: an event expectation keeps fields of its
/// first matching event (`capture: { password: temp }`), and a step's values name them (`${temp}`).
///
/// ```yaml
/// timeline:
///   - { at: 20s, do: enter-credential, email: carla@example.org, password: "${temp}" }
/// expect:
///   - event: account.temporary-password-sent
///     where: { email: carla@example.org }
///     capture: { password: temp }
/// ```
public enum ScenarioVariables {
    /// Reads `capture:`: a mapping of event field to variable name.
    static func parseCaptures(_ node: YAMLNode) throws(ScenarioError) -> [Capture] {
        guard node.isMapping else { throw node.error("expected a mapping of field: variable, such as 'capture: { password: temp }'") }
        let fields = (try? node.fieldNames()) ?? []
        let map = try node.mapping(allowing: fields, what: "capture")
        var captures: [Capture] = []
        for field in fields {
            let valueNode = try map.required(field)
            let variable = try valueNode.string(what: "a variable name")
            guard isName(variable) else {
                throw valueNode.error("a variable name is a letter, then letters, digits, '-' or '_' (used as ${\(MessageText.excerpt(variable))}); found '\(MessageText.excerpt(variable))'")
            }
            captures.append(Capture(field: field, variable: variable))
        }
        guard !captures.isEmpty else { throw node.error("capture: names no field; write 'capture: { field: variable }'") }
        return captures
    }

    /// The variables that the `capture:` of the expectations under `expect:` name, read leniently
    /// (the expectations themselves are checked when they are parsed).
    static func declaredNames(in expect: YAMLNode?) -> [String] {
        guard let items = try? expect?.sequence() else { return [] }
        return items.flatMap { item -> [String] in
            // Most expectations capture nothing: told without making a String of their keys.
            guard item.hasKey("capture"), let map = try? item.mapping(allowing: (try? item.fieldNames()) ?? []),
                let capture = map.optional("capture"), capture.isMapping,
                let fields = try? capture.mapping(allowing: (try? capture.fieldNames()) ?? [])
            else { return [] }
            return fields.keys.compactMap { fields.optional($0)?.scalarText }
        }
    }

    /// The variables `${name}` in the scalars of `node` (keys included), each with the location of the
    /// scalar it is in.
    static func references(in node: YAMLNode) -> [(name: String, location: SourceLocation)] {
        node.scalars.flatMap { scalar in
            references(in: scalar.scalarText ?? "").map { reference in (reference.name, scalar.location) }
        }
    }

    static func isName(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, CharacterSet.letters.contains(first) else { return false }
        return text.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == "_" }
    }

    /// The variables `${name}` in `text`, in order, with the offset of each `$` (for the column).
    static func references(in text: String) -> [(name: String, offset: Int)] {
        var found: [(String, Int)] = []
        let scalars = Array(text.unicodeScalars)
        var index = 0
        while index + 1 < scalars.count {
            guard scalars[index] == "$", scalars[index + 1] == "{", let close = scalars[(index + 2)...].firstIndex(of: "}") else {
                index += 1
                continue
            }
            found.append((String(String.UnicodeScalarView(scalars[(index + 2)..<close])), index))
            index = close + 1
        }
        return found
    }

    /// `text` with every `${name}` replaced by `values[name]`; nil when one has no value.
    static func substitute(_ text: String, _ values: [String: String]) -> String? {
        var out = ""
        var rest = Substring(text)
        while let start = rest.range(of: "${"), let end = rest[start.upperBound...].firstIndex(of: "}") {
            guard let value = values[String(rest[start.upperBound..<end])] else { return nil }
            out += rest[..<start.lowerBound]
            out += value
            rest = rest[rest.index(after: end)...]
        }
        return out + rest
    }
}

/// A timeline step that uses variables, kept as written so it is read again, with the variables'
/// values, when its time comes (its app action is parsed then).
public struct StepTemplate: Sendable {
    /// The step's YAML, in a document of its own.
    let step: YAMLNode
    /// The variables it uses, in order of first use.
    public let variables: [String]

    /// The step's node with `values` substituted for its variables (nil when one has no value), whose
    /// positions may name `places` (the scenario's world's). Its scalars are neither plain nor quoted
    /// (as a program makes them), whatever the file said.
    func node(file: String, values: [String: String], places: [String: GeoCoordinate]?) -> YAMLNode? {
        try? step.copy(file: file, places: places) { (node) throws(ScenarioError) -> YAMLNode.Replacement in
            guard let text = node.scalarText.flatMap({ ScenarioVariables.substitute($0, values) }) else { return .missing }
            return .text(text, style: .any)
        }
    }
}

/// Keeps the captured fields of a run (``Capture``) as events go by: the fields of the first event
/// matching each capturing expectation.
public final class CapturedValues: EventSink {
    private struct Pending {
        let expectation: EventExpectation
        let window: ClosedRange<VirtualInstant>?
    }

    private var pending: [Pending]
    /// The values captured so far, by variable name.
    public private(set) var values: [String: String] = [:]
    /// Where each variable is captured, for the reason a step that needs it is skipped.
    private let sources: [String: SourceLocation]

    /// Watches the capturing expectations among `expectations`.
    public init(_ expectations: [Expectation]) {
        var pending: [Pending] = []
        var sources: [String: SourceLocation] = [:]
        for case .event(let expected) in expectations where !expected.captures.isEmpty {
            pending.append(Pending(
                expectation: expected,
                window: expected.window.map { VirtualInstant(offset: $0.lowerBound)...VirtualInstant(offset: $0.upperBound) }))
            for capture in expected.captures { sources[capture.variable] = expected.location }
        }
        self.pending = pending
        self.sources = sources
    }

    /// Whether any expectation captures a value.
    public var isEmpty: Bool { sources.isEmpty }

    public func record(_ event: TraceEvent) {
        guard !pending.isEmpty else { return }
        pending.removeAll { entry in
            let expected = entry.expectation
            guard event.name == expected.name, expected.device == nil || event.device == expected.device,
                entry.window?.contains(event.time) ?? true, expected.fields.allSatisfy({ $0.matches(event[$0.key], variables: values) })
            else { return false }
            for capture in expected.captures {
                if let value = event[capture.field], value != .null { values[capture.variable] = value.description }
            }
            return true
        }
    }

    /// Why the variables among `names` that have no value yet have none, for a step at `now`.
    func missing(_ names: [String], at now: VirtualInstant) -> String? {
        let absent = names.filter { values[$0] == nil }
        guard let first = absent.first else { return nil }
        let source = sources[first].map { " (captured by the expectation at \($0))" } ?? ""
        return "${\(first)} has no value at \(DurationText.format(now.offset))\(source): no matching event before this step, or the event has no such field"
    }
}
