/// A strict reader of the XML that GPX files are written in: the XML declaration, elements with
/// attributes, text with the five predefined entities and character references, CDATA sections,
/// comments and processing instructions. It reads no document type declaration (GPX has none) and
/// refuses what is not well-formed at the first problem, with its line and column. It needs no XML
/// library: an executable that can read GPX files does not load libxml2 and ICU at every start
/// (docs/benchmarks.md, the cold-start row).
///
/// Its input is UTF-8 (``GPXDocument`` converts the other encodings a GPX file may declare first).
/// Element and attribute names are passed on as written, prefixes included (no namespace
/// processing). The text of CDATA sections is not passed on.
///
/// ```swift
/// var reader = GPXXMLReader(Array("<gpx><wpt lat=\"1\" lon=\"2\"/></gpx>".utf8))
/// while let event = try reader.next() { print(event) }
/// ```
struct GPXXMLReader {
    /// What the reader found next.
    enum Event: Equatable {
        /// A start tag (an empty-element tag gives a start and an end).
        case start(name: String, attributes: [String: String])
        /// An end tag.
        case end(name: String)
        /// Character data between tags (entities and character references replaced).
        case text(String)
    }

    /// Where a problem is, and what it is (1-based line; column in bytes of UTF-8 from 1).
    struct Problem: Error, Equatable {
        var line: Int
        var column: Int
        var message: String
    }

    private let bytes: [UInt8]
    private var index = 0
    /// The line of `index`, and where that line starts.
    private var line = 1
    private var lineStart = 0
    private var openElements: [String] = []
    private var sawRoot = false
    private var rootName = ""
    private var pendingEnd: String?
    /// The line and column where the last event began.
    private var eventLine = 1
    private var eventColumn = 1

    /// The line and column just after the last event (where libxml2, which read GPX files before,
    /// placed the problems a GPX file's values have).
    /// An empty-element tag's is before its `/>`.
    var positionAfterEvent: (line: Int, column: Int) { (line, index - lineStart + 1 - (pendingEnd != nil || emptyElementEnded ? 2 : 0)) }
    /// Whether the last event was the end of an empty-element tag.
    private var emptyElementEnded = false

    /// Where the text starts (after a UTF-8 byte order mark).
    private let textStart: Int

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        textStart = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        index = textStart
        lineStart = textStart
    }

    /// The next event, or nil at the end of a well-formed document.
    mutating func next() throws(Problem) -> Event? {
        emptyElementEnded = false
        if let name = pendingEnd {
            pendingEnd = nil
            emptyElementEnded = true
            openElements.removeLast()
            return .end(name: name)
        }
        if !openElements.isEmpty {
            return try nextInContent()
        }
        // Outside the root element: the XML declaration (first only), comments, processing
        // instructions and white space; one root element.
        while true {
            skipSpace()
            guard index < bytes.count else {
                guard sawRoot else { throw problem("no XML element: a GPX file starts with <?xml ...?> or <gpx>") }
                return nil
            }
            markEvent()
            guard bytes[index] == UInt8(ascii: "<") else {
                throw problem(sawRoot ? "there is more content after the end of the <\(rootName)> element" : "text before the first element: a GPX file starts with <?xml ...?> or <gpx>")
            }
            if starts(with: "<?") {
                try readProcessingInstruction(isDeclaration: index == textStart)
            } else if starts(with: "<!--") {
                try readComment()
            } else if starts(with: "<!DOCTYPE") {
                throw problem("a document type declaration (<!DOCTYPE ...>) is not read in a GPX file: remove it")
            } else if sawRoot {
                throw problem("there is more content after the end of the <\(rootName)> element")
            } else {
                sawRoot = true
                return try readTag()
            }
        }
    }

    private mutating func nextInContent() throws(Problem) -> Event? {
        while true {
            guard index < bytes.count else {
                throw Problem(line: line, column: index - lineStart + 1, message: "the file ends inside <\(openElements.last!)>: it is cut off or not well-formed")
            }
            markEvent()
            if bytes[index] != UInt8(ascii: "<") { return .text(try readText()) }
            if starts(with: "<!--") {
                try readComment()
            } else if starts(with: "<![CDATA[") {
                try readCDATA()
            } else if starts(with: "<?") {
                try readProcessingInstruction(isDeclaration: false)
            } else if starts(with: "<!") {
                throw problem("'<!' starts neither a comment <!-- --> nor a CDATA section <![CDATA[ ]]>")
            } else {
                return try readTag()
            }
        }
    }

    // MARK: - Pieces

    private mutating func readTag() throws(Problem) -> Event {
        index += 1  // <
        if index < bytes.count, bytes[index] == UInt8(ascii: "/") {
            index += 1
            let name = try readName(what: "a name is expected after '</'")
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ">") else { throw problemHere("the closing tag </\(name)> is not finished: a '>' is missing") }
            index += 1
            guard let open = openElements.last else { throw problem("</\(name)> closes an element that was never opened") }
            guard open == name else { throw problem("a closing tag does not match the element it closes (<\(open)> closed by </\(name)>)") }
            openElements.removeLast()
            return .end(name: name)
        }
        let name = try readName(what: "a name is expected after '<'")
        var attributes: [String: String] = [:]
        while true {
            let spaced = skipSpace()
            guard index < bytes.count else { throw problemHere("the file ends inside the tag <\(name)>: a '>' is missing") }
            if bytes[index] == UInt8(ascii: ">") {
                index += 1
                openElements.append(name)
                if openElements.count == 1 { rootName = name }
                return .start(name: name, attributes: attributes)
            }
            if starts(with: "/>") {
                index += 2
                openElements.append(name)
                if openElements.count == 1 { rootName = name }
                pendingEnd = name
                return .start(name: name, attributes: attributes)
            }
            guard spaced else { throw problemHere("a space is missing between attributes in <\(name)> (or a '>' to end the tag)") }
            let attribute = try readName(what: "an attribute name or the tag's end '>' is expected in <\(name)>")
            skipSpace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else { throw problemHere("'=' is missing after the attribute name \(attribute) (write \(attribute)=\"...\")") }
            index += 1
            skipSpace()
            let value = try readAttributeValue(attribute)
            guard attributes.updateValue(value, forKey: attribute) == nil else { throw problem("an element has the same attribute twice (<\(name)> has \(attribute) twice)") }
        }
    }

    private mutating func readAttributeValue(_ attribute: String) throws(Problem) -> String {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'") else {
            throw problemHere("the value of the attribute \(attribute) is not in quotes (write \(attribute)=\"52.5\")")
        }
        let quote = bytes[index]
        index += 1
        var value: [UInt8] = []
        while true {
            guard index < bytes.count else { throw problemHere("the value of the attribute \(attribute) is not closed: a quote is missing") }
            let byte = bytes[index]
            switch byte {
            case quote:
                index += 1
                return String(decoding: value, as: UTF8.self)
            case UInt8(ascii: "<"):
                throw problemHere("the value of the attribute \(attribute) contains '<' (write &lt;)")
            case UInt8(ascii: "&"):
                value += try readReference()
            case 0x09, 0x0A, 0x0D:
                // Attribute-value normalisation: each white-space character becomes a space (a CR LF one).
                if byte == 0x0D, index + 1 < bytes.count, bytes[index + 1] == 0x0A { index += 1 }
                if byte == 0x0A || byte == 0x0D { newLine(at: index) }
                value.append(0x20)
                index += 1
            default:
                try checkCharacter()
                value.append(byte)
                index += 1
            }
        }
    }

    private mutating func readText() throws(Problem) -> String {
        var text: [UInt8] = []
        while index < bytes.count, bytes[index] != UInt8(ascii: "<") {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "&"):
                text += try readReference()
            case UInt8(ascii: ">") where index >= 2 && bytes[index - 1] == UInt8(ascii: "]") && bytes[index - 2] == UInt8(ascii: "]"):
                throw problemHere("']]>' is not allowed in text (write ]]&gt;)")
            case 0x0D:
                // Line ends are read as LF, CR LF and a lone CR alike.
                if index + 1 < bytes.count, bytes[index + 1] == 0x0A { index += 1 }
                newLine(at: index)
                text.append(0x0A)
                index += 1
            case 0x0A:
                newLine(at: index)
                text.append(0x0A)
                index += 1
            default:
                try checkCharacter()
                text.append(byte)
                index += 1
            }
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// `&name;` or `&#n;` / `&#xh;` at `index`, as UTF-8.
    private mutating func readReference() throws(Problem) -> [UInt8] {
        let start = index
        index += 1
        var end = index
        while end < bytes.count, end - index <= 12, bytes[end] != UInt8(ascii: ";") {
            let byte = bytes[end]
            guard Self.isNameByte(byte) || byte == UInt8(ascii: "#") else { break }
            end += 1
        }
        guard end < bytes.count, bytes[end] == UInt8(ascii: ";"), end > index else {
            index = start
            throw problemHere("'&' does not start an entity reference ending in ';' (write &amp; for '&')")
        }
        let name = String(decoding: bytes[index..<end], as: UTF8.self)
        let scalar: Unicode.Scalar?
        switch name {
        case "amp": scalar = "&"
        case "lt": scalar = "<"
        case "gt": scalar = ">"
        case "quot": scalar = "\""
        case "apos": scalar = "'"
        default:
            if name.hasPrefix("#x") {
                scalar = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
            } else if name.hasPrefix("#") {
                scalar = UInt32(name.dropFirst(), radix: 10).flatMap(Unicode.Scalar.init)
            } else {
                index = start
                throw problemHere("an unknown entity &\(name); (a GPX file may use &amp; &lt; &gt; &quot; &apos; and character references such as &#233;)")
            }
        }
        guard let scalar, Self.isXMLCharacter(scalar) else {
            index = start
            throw problemHere("&\(name); is not a character allowed in XML")
        }
        index = end + 1
        return Array(String(Character(scalar)).utf8)
    }

    private mutating func readComment() throws(Problem) {
        index += 4
        while true {
            guard index < bytes.count else { throw problem("a comment <!-- is not closed with -->") }
            if starts(with: "--") {
                guard index + 2 < bytes.count, bytes[index + 2] == UInt8(ascii: ">") else { throw problemHere("'--' is not allowed inside a comment") }
                index += 3
                return
            }
            try skipCharacter()
        }
    }

    private mutating func readCDATA() throws(Problem) {
        index += 9
        while true {
            guard index < bytes.count else { throw problem("a CDATA section <![CDATA[ is not closed with ]]>") }
            if starts(with: "]]>") {
                index += 3
                return
            }
            try skipCharacter()
        }
    }

    /// `<?target data?>`; the XML declaration when `isDeclaration` and the target is `xml`.
    private mutating func readProcessingInstruction(isDeclaration: Bool) throws(Problem) {
        index += 2
        let target = try readName(what: "a name is expected after '<?'")
        let dataStart = index
        guard starts(with: "?>") || skipSpace() else { throw problemHere("a space is missing after the name of the processing instruction <?\(target)") }
        while true {
            guard index < bytes.count else { throw problem("a processing instruction <?\(target) is not closed with ?>") }
            if starts(with: "?>") { break }
            try skipCharacter()
        }
        let data = String(decoding: bytes[dataStart..<index], as: UTF8.self)
        index += 2
        if isDeclaration, target == "xml" {
            guard Self.isXMLDeclaration(Array(data.utf8)) else {
                throw problem("the XML declaration is not well-formed (write <?xml version=\"1.0\" encoding=\"UTF-8\"?>)")
            }
        } else if target.lowercased() == "xml" {
            throw problem("an XML declaration <?xml ...?> is allowed only at the very start of the file")
        }
    }

    /// Whether `data` (what follows `<?xml`) is an XML declaration's: ` version="..."`, then optionally
    /// ` encoding="..."` and ` standalone="yes|no"`, in this order, each value in single or double quotes.
    static func isXMLDeclaration(_ data: [UInt8]) -> Bool {
        var index = 0
        func skipSpace() -> Bool {
            let start = index
            while index < data.count, [0x20, 0x09, 0x0A, 0x0D].contains(data[index]) { index += 1 }
            return index > start
        }
        func pseudoAttribute(_ name: String, value isValid: ([UInt8]) -> Bool) -> Bool? {
            let save = index
            // (libxml2, which read GPX files before, takes a pseudo-attribute right after a quote too.)
            _ = skipSpace()
            guard data[index...].starts(with: name.utf8) else {
                index = save
                return nil
            }
            index += name.utf8.count
            _ = skipSpace()
            guard index < data.count, data[index] == UInt8(ascii: "=") else { return false }
            index += 1
            _ = skipSpace()
            guard index < data.count, data[index] == UInt8(ascii: "\"") || data[index] == UInt8(ascii: "'") else { return false }
            let quote = data[index]
            guard let end = data[(index + 1)...].firstIndex(of: quote) else { return false }
            let value = Array(data[(index + 1)..<end])
            index = end + 1
            return isValid(value)
        }
        func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") }
        func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        // Digits, a point and maybe more digits (XML's own versions are 1.0 and 1.1; others are read as 1.0).
        let version = pseudoAttribute("version") { value in
            let parts = value.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
            return parts.count == 2 && !parts[0].isEmpty && parts.allSatisfy { $0.allSatisfy(isDigit) }
        }
        guard version == true else { return false }
        let encoding = pseudoAttribute("encoding") { value in
            value.first.map(isLetter) == true && value.allSatisfy { isLetter($0) || isDigit($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: "-") }
        }
        guard encoding != false else { return false }
        let standalone = pseudoAttribute("standalone") { $0 == Array("yes".utf8) || $0 == Array("no".utf8) }
        guard standalone != false else { return false }
        _ = skipSpace()
        return index == data.count
    }

    private mutating func readName(what: String) throws(Problem) -> String {
        let start = index
        guard index < bytes.count, Self.isNameStartByte(bytes[index]) else { throw problemHere(what) }
        while index < bytes.count, Self.isNameByte(bytes[index]) { index += 1 }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    // MARK: - Characters and positions

    /// Whether `scalar` may appear in an XML 1.0 document.
    static func isXMLCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }

    /// ASCII letters, '_' and ':', and any byte of a multi-byte UTF-8 character (letters of other
    /// scripts; the input is UTF-8 text).
    private static func isNameStartByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":") || byte >= 0x80
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        isNameStartByte(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }

    /// Refuses a control character (and U+FFFE, U+FFFF) at `index`.
    private func checkCharacter() throws(Problem) {
        let byte = bytes[index]
        if byte < 0x20, byte != 0x09, byte != 0x0A, byte != 0x0D {
            throw problemHere("a character that is not allowed in XML (the control character \(byte))")
        }
        // U+FFFE and U+FFFF: EF BF BE, EF BF BF.
        if byte == 0xEF, index + 2 < bytes.count, bytes[index + 1] == 0xBF, bytes[index + 2] >= 0xBE {
            throw problemHere("a character that is not allowed in XML (U+FFF\(bytes[index + 2] == 0xBE ? "E" : "F"))")
        }
    }

    /// Moves past one byte of a comment, CDATA section or processing instruction, counting lines.
    private mutating func skipCharacter() throws(Problem) {
        try checkCharacter()
        if bytes[index] == 0x0A || (bytes[index] == 0x0D && !(index + 1 < bytes.count && bytes[index + 1] == 0x0A)) { newLine(at: index) }
        index += 1
    }

    /// Skips white space; whether there was any.
    @discardableResult
    private mutating func skipSpace() -> Bool {
        let start = index
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09: index += 1
            case 0x0A:
                newLine(at: index)
                index += 1
            case 0x0D:
                if !(index + 1 < bytes.count && bytes[index + 1] == 0x0A) { newLine(at: index) }
                index += 1
            default: return index > start
            }
        }
        return index > start
    }

    /// The line break at `position` ends a line.
    private mutating func newLine(at position: Int) {
        line += 1
        lineStart = position + 1
    }

    private func starts(with text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        for offset in 0..<count where bytes[index + offset] != text.utf8Start[offset] { return false }
        return true
    }

    private mutating func markEvent() {
        eventLine = line
        eventColumn = index - lineStart + 1
    }

    /// A problem where the current event began.
    private func problem(_ message: String) -> Problem { Problem(line: eventLine, column: eventColumn, message: message) }

    /// A problem where the reader is.
    private func problemHere(_ message: String) -> Problem { Problem(line: line, column: index - lineStart + 1, message: message) }
}
