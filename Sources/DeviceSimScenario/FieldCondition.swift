import DeviceSimHAL
import Foundation

/// How an event expectation compares one field of an event (one entry of `where:`): the field's text
/// equals a value, its number is within a tolerance of a value, or its list includes items.
///
/// ```yaml
/// where:
///   places: ateneum > senate-square               # equals
///   length: { approx: 1588.5, tolerance: 1% }     # within 1 % (or `tolerance: 15`, metres)
///   names: { includes: [Museums, Harbour] }        # the list holds each item
/// ```
public struct FieldCondition: Sendable, CustomStringConvertible {
    /// The field's name.
    public var key: String
    /// The comparison.
    public var test: Test

    /// What a field's value is compared with.
    public enum Test: Sendable {
        /// The field's text is exactly this.
        case equals(String)
        /// The field is a number within `tolerance` of this one.
        case approximately(Double, tolerance: Tolerance)
        /// The field is a list (`a|b`, `a, b` or `a > b`) holding every one of these items.
        case includes([String])
        /// The field's text is this text with the captured variables' values in place of `${name}`.
        case equalsCaptured(String)
    }

    /// How far a number may be from the expected one.
    public enum Tolerance: Sendable, CustomStringConvertible {
        /// At most this much either way, in the field's unit.
        case absolute(Double)
        /// At most this fraction of the expected value either way (0.01: 1 %).
        case relative(Double)

        public var description: String {
            switch self {
            case .absolute(let amount): TraceValue.format(amount)
            case .relative(let fraction): "\(TraceValue.format(fraction * 100))%"
            }
        }
    }

    /// A field that must read exactly `value`.
    public init(_ key: String, equals value: String) {
        self.init(key: key, test: .equals(value))
    }

    /// A field compared by `test`.
    public init(key: String, test: Test) {
        self.key = key
        self.test = test
    }

    /// Whether `value` (nil: the event has no such field) passes, with `variables` the values captured
    /// so far (a variable without a value matches nothing).
    public func matches(_ value: TraceValue?, variables: [String: String] = [:]) -> Bool {
        guard let value else { return false }
        switch test {
        case .equals(let expected):
            return value.description == expected
        case .equalsCaptured(let template):
            return ScenarioVariables.substitute(template, variables).map { value.description == $0 } ?? false
        case .approximately(let expected, let tolerance):
            guard let number = value.number ?? Double(value.description), number.isFinite else { return false }
            let allowed = switch tolerance {
            case .absolute(let amount): amount
            case .relative(let fraction): abs(expected) * fraction
            }
            // A hair of slack for the trace's 7 decimals, so `approx: 0.3, tolerance: 0.1` takes 0.4.
            return abs(number - expected) <= allowed + 1e-9 * max(1, abs(expected))
        case .includes(let items):
            let elements = Self.elements(of: value.description)
            return items.allSatisfy(elements.contains)
        }
    }

    /// The expected value in words (`314.5`, `≈ 314.5 ± 1%`, `including a, b`).
    public var expectedText: String {
        switch test {
        case .equals(let value): value
        case .approximately(let value, let tolerance): "≈ \(TraceValue.format(value)) ± \(tolerance)"
        case .includes(let items): "including \(items.joined(separator: ", "))"
        case .equalsCaptured(let template): template
        }
    }

    /// The condition in words: `places=ateneum`, `length ≈ 314.5 ± 1%`, `names including Museums`.
    public var description: String {
        switch test {
        case .equals, .equalsCaptured: return "\(key)=\(expectedText)"
        case .approximately, .includes: break
        }
        return "\(key) \(expectedText)"
    }

    /// The items of a list field as the trace writes lists: `a|b` (choices, scoreboard rows, names),
    /// `a > b > c` (a route's places), `a, b` or `a,b` (recipients, friends); one item otherwise.
    package static func elements(of text: String) -> [String] {
        for separator in ["|", " > ", ","] where text.contains(separator) {
            return text.components(separatedBy: separator).map { $0.trimmingCharacters(in: .whitespaces) }
        }
        return [text]
    }
}
