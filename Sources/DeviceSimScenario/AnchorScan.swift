/// Refuses YAML anchors (`&name`) and aliases (`*name`) before the text is parsed.
///
/// Yams expands aliases into shared nodes, so a small file can stand for an exponentially large tree
/// ("billion laughs"). Scenario files never need them; a linear scan of the text finds them first.
/// Quoted strings, comments and block scalars (`|`, `>`) are skipped, so `*emphasis*` in a description
/// is fine.
enum AnchorScan {
    static func rejectAnchorsAndAliases(in text: String, file: String) throws(ScenarioError) {
        var blockIndent: Int?  // indentation of the line that opened a block scalar
        var lineNumber = 0
        // YAML's line breaks: LF, CR and CRLF (one Character in a Swift String, not a "\n").
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            lineNumber += 1
            let characters = Array(line.unicodeScalars)
            let indent = characters.prefix { $0 == " " }.count
            let isBlank = characters.allSatisfy { $0 == " " || $0 == "\r" || $0 == "\t" }
            if let opened = blockIndent {
                if isBlank || indent > opened { continue }
                blockIndent = nil
            }
            var quote: Unicode.Scalar?
            var previous: Unicode.Scalar = " "
            var lastSignificant: Unicode.Scalar?
            for (index, scalar) in characters.enumerated() {
                if let open = quote {
                    if scalar == open { quote = nil }
                    previous = scalar
                    continue
                }
                if scalar == "#" && (previous == " " || previous == "\t" || index == 0) { break }
                let startsToken = previous == " " || previous == "\t" || previous == "[" || previous == "{" || previous == "," || index == 0
                if startsToken, scalar == "\"" || scalar == "'" {
                    quote = scalar
                } else if startsToken, scalar == "&" || scalar == "*", index + 1 < characters.count, isNameCharacter(characters[index + 1]) {
                    let kind = scalar == "&" ? "anchors (&name)" : "aliases (*name)"
                    throw ScenarioError("YAML \(kind) are not supported in scenario files", at: SourceLocation(file: file, line: lineNumber, column: index + 1))
                }
                if scalar != " " && scalar != "\t" && scalar != "\r" { lastSignificant = scalar }
                previous = scalar
            }
            if let last = lastSignificant, quote == nil, last == "|" || last == ">" || isChompingIndicator(characters) {
                blockIndent = indent
            }
        }
    }

    private static func isNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "-")
    }

    /// A block scalar header with a chomping or indentation indicator: `|-`, `>+`, `|2`.
    private static func isChompingIndicator(_ characters: [Unicode.Scalar]) -> Bool {
        var end = characters.count
        while end > 0, characters[end - 1] == " " || characters[end - 1] == "\t" || characters[end - 1] == "\r" { end -= 1 }
        guard end >= 2 else { return false }
        let indicator = characters[end - 2], last = characters[end - 1]
        return (indicator == "|" || indicator == ">") && (last == "-" || last == "+" || ("0"..."9").contains(last))
    }
}
