/// Text from input files and results, made safe to show in a message: control characters (which
/// would move the cursor, retitle or clear a terminal) written as visible escapes, and quoted values
/// cut to one line of at most 120 characters, so that an error about a 3 MB value, or about a file
/// that is not ours at all (`/etc/passwd`), never echoes more than that.
///
/// ```swift
/// MessageText.escapingControls("evil \u{1B}]0;title\u{07}")   // "evil \\u{1B}]0;title\\u{7}"
/// MessageText.excerpt(String(repeating: "x", count: 3_000_000)) // 120 x's, then "… (2999880 more characters)"
/// ```
package enum MessageText {
    /// The most characters of a value quoted in a message.
    package static let excerptLength = 120

    /// `text` with every control character (C0 but tab, DEL, C1, and the line and paragraph
    /// separators) written as `\u{XX}`, and the noncharacters U+FFFE and U+FFFF as well.
    package static func escapingControls(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if needsEscape(scalar) {
                out.append(contentsOf: "\\u{\(String(scalar.value, radix: 16, uppercase: true))}".unicodeScalars)
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// `text` with control characters escaped as ``escapingControls(_:)`` does, but its line breaks
    /// (`\n`) kept: for a message of several lines of our own (a YAML error, the line and a caret
    /// under it), whose lines may quote an input file.
    package static func escapingControlsKeepingLines(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { escapingControls(String($0)) }.joined(separator: "\n")
    }

    /// Whether `scalar` is shown escaped.
    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return (value < 0x20 && value != 0x09) || (0x7F...0x9F).contains(value) || value == 0x2028 || value == 0x2029 || value == 0xFFFE || value == 0xFFFF
    }

    /// `text`'s first line, at most ``excerptLength`` characters, with control characters escaped;
    /// what was left out is said (`… (N more characters)`).
    package static func excerpt(_ text: String) -> String {
        var kept = Substring(text)
        var cut = false
        if let newline = kept.firstIndex(where: { $0.isNewline }) {
            kept = kept[..<newline]
            cut = true
        }
        if kept.count > excerptLength {
            kept = kept.prefix(excerptLength)
            cut = true
        }
        guard cut else { return escapingControls(text) }
        let rest = text.count - kept.count
        return escapingControls(String(kept)) + "… (\(rest) more character\(rest == 1 ? "" : "s"))"
    }
}
