import DeviceSimHAL
import DeviceSimStorage

/// One value of a row that a `stored:` or `server:` expectation reads or expects, with its type:
/// SQLite's value (NULL, a whole number, a real, text). Rows are compared value by value, as typed
/// values (``SQLiteValue/isSame(as:)``), never as joined text.
///
/// How a value written in `rows:` (or `contains:`) is read:
/// - an unquoted number (`1`, `-2`, `1.5`, `1e3`) is a number: it matches the integer and the real of
///   that value (`1` matches integer 1 and real 1.0);
/// - an unquoted `null` (or `~`) is NULL, and matches only NULL;
/// - anything quoted (`'1'`, `"null"`), and any other unquoted word, is text: it matches only text,
///   byte for byte.
///
/// A `server:` table's values are typed the same way: the app's server gives each value its type
/// (`InspectableServer`: counts and revisions are numbers, a missing value NULL, a yes/no the text
/// `true`/`false`).
///
/// ```swift
/// StoredValue.integer(1).isSame(as: .real(1.0))    // true
/// StoredValue.text("1").isSame(as: .integer(1))    // false
/// StoredProbe.text(of: [[.text("Milk, eggs"), .integer(0), .null]])   // [["Milk, eggs",0,null]]
/// ```
public typealias StoredValue = SQLiteValue

extension SQLiteValue {
    /// The value a scenario wrote: an unquoted number is a number, an unquoted `null`/`~` NULL,
    /// everything else text (see ``StoredValue``).
    static func written(_ node: YAMLNode) throws(ScenarioError) -> SQLiteValue {
        let text = try node.string(what: "a value")
        guard node.isPlainScalar else { return .text(text) }
        if node.isNull { return .null }
        guard isNumberText(text) else { return .text(text) }
        if let whole = Int64(text) { return .integer(whole) }
        if let number = Double(text), number.isFinite { return .real(number) }
        return .text(text)
    }

    /// Whether `text` is written like a number: an optional sign, digits with an optional point, an
    /// optional exponent (not `inf`, `nan`, `0x10`, which Swift would read as numbers too).
    static func isNumberText(_ text: String) -> Bool {
        var bytes = Substring(text).utf8[...]
        if bytes.first == UInt8(ascii: "-") || bytes.first == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
        func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
        let whole = bytes.prefix(while: isDigit)
        bytes = bytes.dropFirst(whole.count)
        var fraction = 0
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            fraction = bytes.prefix(while: isDigit).count
            bytes = bytes.dropFirst(fraction)
        }
        guard whole.count + fraction > 0 else { return false }
        if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if bytes.first == UInt8(ascii: "-") || bytes.first == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
            let exponent = bytes.prefix(while: isDigit).count
            guard exponent > 0 else { return false }
            bytes = bytes.dropFirst(exponent)
        }
        return bytes.isEmpty
    }

    /// Whether both are the same value: NULL only NULL, numbers by value (integer 1 is real 1.0),
    /// text only text, byte for byte.
    ///
    /// ```swift
    /// StoredValue.integer(1).isSame(as: .real(1.0))    // true
    /// ```
    public func isSame(as other: SQLiteValue) -> Bool {
        switch (self, other) {
        case (.null, .null): true
        case (.integer(let a), .integer(let b)): a == b
        case (.real(let a), .real(let b)): a == b
        case (.integer(let a), .real(let b)), (.real(let b), .integer(let a)): Self.integer(a, equals: b)
        case (.text(let a), .text(let b)): a == b
        default: false
        }
    }

    /// Whether the whole number `a` is exactly the real `b` (no rounding: 2^53 + 1 is not 2^53).
    private static func integer(_ a: Int64, equals b: Double) -> Bool {
        guard b.isFinite, b.rounded() == b, b >= -9.223372036854775808e18, b < 9.223372036854775808e18 else { return false }
        return Int64(b) == a
    }

    /// The value as JSON: text in quotes, numbers bare, NULL as `null`.
    var json: String {
        var bytes: [UInt8] = []
        appendJSON(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the value as JSON to `bytes`: text in quotes (the trace's writer), numbers bare, NULL as
    /// `null` (an infinite real, which JSON cannot write, as ±1e999, which JSON readers read back as
    /// infinite).
    func appendJSON(to bytes: inout [UInt8]) {
        switch self {
        case .null: bytes.append(contentsOf: "null".utf8)
        case .integer(let n): TraceJSONWriting.appendInteger(n, to: &bytes)
        case .real(let n): bytes.append(contentsOf: (n.isFinite ? String(n) : (n < 0 ? "-1e999" : "1e999")).utf8)
        case .text(let s): TraceJSONWriting.appendQuoted(s, to: &bytes)
        }
    }
}
