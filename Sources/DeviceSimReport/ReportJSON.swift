import DeviceSimScenario
import DeviceSimHAL

/// A JSON text written piece by piece: the data a report embeds (numbers as integers where they can
/// be, so a report of millions of points stays small and quick to write).
struct ReportJSON {
    private(set) var text = ""

    init(reservingCapacity capacity: Int = 0) {
        text.reserveCapacity(capacity)
    }

    mutating func raw(_ piece: String) { text += piece }
    /// A string value, with `<` written `\u003c` where it could end the page's script (`</`, `<!--`).
    mutating func string(_ value: String) {
        let quoted = JSONString.quote(value)
        guard quoted.utf8.contains(UInt8(ascii: "<")) else { text += quoted; return }
        text += quoted.replacingOccurrences(of: "</", with: "\\u003c/").replacingOccurrences(of: "<!--", with: "\\u003c!--")
    }
    mutating func int(_ value: Int) { text += String(value) }
    mutating func optionalString(_ value: String?) { if let value { string(value) } else { text += "null" } }
    mutating func optionalInt(_ value: Int?) { if let value { int(value) } else { text += "null" } }
    mutating func bool(_ value: Bool) { text += value ? "true" : "false" }

    /// `"key":` (after a comma unless `first`).
    mutating func key(_ name: String, first: Bool = false) {
        if !first { text += "," }
        text += "\"\(name)\":"
    }

    /// `[a,b,…]` of `values`, each written by `write`.
    mutating func array<S: Sequence>(_ values: S, _ write: (inout ReportJSON, S.Element) -> Void) {
        text += "["
        var first = true
        for value in values {
            if !first { text += "," }
            first = false
            write(&self, value)
        }
        text += "]"
    }

    /// `[1,2,…]`.
    mutating func ints(_ values: [Int]) {
        text += "["
        for (index, value) in values.enumerated() {
            if index > 0 { text += "," }
            text += String(value)
        }
        text += "]"
    }
}
