/// Refuses YAML anchors (`&name`) and aliases (`*name`) before the text is parsed.
///
/// Yams expands aliases into shared nodes, so a small file can stand for an exponentially large tree
/// ("billion laughs"). Scenario files never need them; a linear scan of the text finds them first.
/// Quoted strings, comments and block scalars (`|`, `>`) are skipped, and an `&` or `*` counts only where
/// a node can start (at a line's start, after `- `, `? `, `: `, a tag, or `[`, `{` and `,` in a flow
/// collection), so `*emphasis*` in a description and `name: Tom &Jerry` are fine. (``YAMLReader`` refuses
/// an anchor or alias libyaml reports too; this scan finds them first, with the column where they start.)
enum AnchorScan {
    static func rejectAnchorsAndAliases(in text: String, file: String) throws(ScenarioError) {
        var text = text
        if let found = text.withUTF8({ bytes in scan(bytes, file: file) }) { throw found }
    }

    private static let space = UInt8(ascii: " "), tab = UInt8(ascii: "\t"), cr = UInt8(ascii: "\r"), lf = UInt8(ascii: "\n")
    /// Stands for any scalar outside ASCII: none of the characters the scan looks for.
    private static let beyondASCII: UInt8 = 0x80

    /// The scan over the text's UTF-8 bytes, line by line (YAML's line breaks: LF, CR and CRLF); columns
    /// count Unicode scalars. Every character it looks for is ASCII, so a scalar beyond ASCII is only
    /// decoded when it may be the first of an anchor's or alias's name.
    private static func scan(_ bytes: UnsafeBufferPointer<UInt8>, file: String) -> ScenarioError? {
        // Most files have neither character: a plain search finds that faster than the scan line by line.
        guard bytes.contains(where: { $0 == UInt8(ascii: "&") || $0 == UInt8(ascii: "*") }) else { return nil }
        var blockIndent: Int?  // indentation of the line that opened a block scalar
        var flowDepth = 0      // how many `[` and `{` are open
        var lineNumber = 0
        var lineStart = 0
        while true {
            var lineEnd = lineStart
            while lineEnd < bytes.count, bytes[lineEnd] != lf, bytes[lineEnd] != cr { lineEnd += 1 }
            lineNumber += 1
            if let found = scan(line: lineStart..<lineEnd, of: bytes, number: lineNumber, blockIndent: &blockIndent, flowDepth: &flowDepth, file: file) {
                return found
            }
            guard lineEnd < bytes.count else { return nil }
            lineStart = lineEnd + (bytes[lineEnd] == cr && lineEnd + 1 < bytes.count && bytes[lineEnd + 1] == lf ? 2 : 1)
        }
    }

    private static func scan(
        line: Range<Int>, of bytes: UnsafeBufferPointer<UInt8>, number: Int, blockIndent: inout Int?, flowDepth: inout Int, file: String
    ) -> ScenarioError? {
        var indent = 0
        while line.lowerBound + indent < line.upperBound, bytes[line.lowerBound + indent] == space { indent += 1 }
        let isBlank = !line.contains { bytes[$0] != space && bytes[$0] != cr && bytes[$0] != tab }
        if let opened = blockIndent {
            if isBlank || indent > opened { return nil }
            blockIndent = nil
        }
        var quote: UInt8?
        var previous = space
        var lastSignificant: UInt8?
        // Whether a node may start here: an anchor or alias can only stand there. A plain scalar that has
        // begun runs on to `: ` (or, in a flow collection, to `,`, `]` or `}`).
        var atNodeStart = true
        var inTag = false
        var column = 0  // scalars before this one
        var position = line.lowerBound
        func isBlankOrEnd(_ offset: Int) -> Bool {
            offset >= line.upperBound || bytes[offset] == space || bytes[offset] == tab || bytes[offset] == cr
        }
        while position < line.upperBound {
            let byte = bytes[position]
            position += 1
            if byte & 0xC0 == 0x80 { continue }  // the rest of a scalar beyond ASCII
            let scalar = byte < 0x80 ? byte : beyondASCII
            let index = column
            column += 1
            if let open = quote {
                if scalar == open { quote = nil }
                previous = scalar
                continue
            }
            if scalar == UInt8(ascii: "#") && (previous == space || previous == tab || index == 0) { break }
            if scalar != space && scalar != tab && scalar != cr { lastSignificant = scalar }
            defer { previous = scalar }
            if scalar == space || scalar == tab || scalar == cr {
                inTag = false
                continue
            }
            if inTag { continue }
            let startsFlowEntry = flowDepth > 0 && (scalar == UInt8(ascii: ",") || scalar == UInt8(ascii: "[") || scalar == UInt8(ascii: "{"))
            if scalar == UInt8(ascii: ":") && (isBlankOrEnd(position) || flowDepth > 0) {
                atNodeStart = true  // a key ends: its value may start
            } else if startsFlowEntry || (atNodeStart && (scalar == UInt8(ascii: "[") || scalar == UInt8(ascii: "{"))) {
                if scalar != UInt8(ascii: ",") { flowDepth += 1 }
                atNodeStart = true
            } else if flowDepth > 0 && (scalar == UInt8(ascii: "]") || scalar == UInt8(ascii: "}")) {
                flowDepth -= 1
                atNodeStart = false
            } else if atNodeStart && (scalar == UInt8(ascii: "-") || scalar == UInt8(ascii: "?")) && isBlankOrEnd(position) {
                continue  // a sequence entry or a complex key: a node follows
            } else if atNodeStart && scalar == UInt8(ascii: "!") {
                inTag = true  // a tag: the node's content follows it
            } else if atNodeStart && (scalar == UInt8(ascii: "\"") || scalar == UInt8(ascii: "'")) {
                quote = scalar
                atNodeStart = false
            } else if atNodeStart, scalar == UInt8(ascii: "&") || scalar == UInt8(ascii: "*"), position < line.upperBound,
                      let next = String(decoding: UnsafeBufferPointer(rebasing: bytes[position..<min(position + 4, line.upperBound)]), as: UTF8.self).unicodeScalars.first,
                      isNameCharacter(next) {
                let kind = scalar == UInt8(ascii: "&") ? "anchors (&name)" : "aliases (*name)"
                return ScenarioError("YAML \(kind) are not supported in scenario files", at: SourceLocation(file: file, line: number, column: index + 1))
            } else {
                atNodeStart = false  // a plain scalar has begun
            }
        }
        if let last = lastSignificant, quote == nil, last == UInt8(ascii: "|") || last == UInt8(ascii: ">") || isChompingIndicator(line, of: bytes) {
            blockIndent = indent
        }
        return nil
    }

    private static func isNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "-")
    }

    /// A block scalar header with a chomping or indentation indicator: `|-`, `>+`, `|2`.
    private static func isChompingIndicator(_ line: Range<Int>, of bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var end = line.upperBound
        while end > line.lowerBound, bytes[end - 1] == space || bytes[end - 1] == tab || bytes[end - 1] == cr { end -= 1 }
        // Two scalars, both ASCII (a byte beyond ASCII is part of a scalar that is neither).
        guard end - line.lowerBound >= 2 else { return false }
        let indicator = bytes[end - 2], last = bytes[end - 1]
        return (indicator == UInt8(ascii: "|") || indicator == UInt8(ascii: ">"))
            && (last == UInt8(ascii: "-") || last == UInt8(ascii: "+") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(last))
    }
}
