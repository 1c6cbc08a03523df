import DeviceSimHAL
import DeviceSimSimulated
import Foundation

/// A node of a YAML document with its position, and readers that fail with `file:line:column` errors.
///
/// ```swift
/// let root = try YAMLNode.parse(text, file: "walk.yaml")
/// let map = try root.mapping(allowing: ["name", "seed"])
/// let name = try map.required("name").string()
/// ```
public struct YAMLNode: Sendable {
    /// The document the node is in, with its file and places.
    let source: YAMLSource
    /// The node's record in the document.
    let index: UInt32

    init(_ source: YAMLSource, _ index: UInt32) {
        self.source = source
        self.index = index
    }

    /// The file the node came from.
    public var file: String { source.file }
    /// The places of the scenario's world, whose names a position in this node may use
    /// (``coordinate()``): empty in a scenario without a world, nil outside a scenario (a world or game
    /// file's own positions). The node's children have the same.
    var places: [String: GeoCoordinate]? { source.places }

    private var record: YAMLDocument.Record { source.document.records[Int(index)] }

    /// The node whose record is the document's child `position`.
    private func child(_ position: Int) -> YAMLNode {
        YAMLNode(source, source.document.children[position])
    }

    /// A mapping's pairs, in file order; nil for a scalar or a list.
    var pairs: [(key: YAMLNode, value: YAMLNode)]? {
        guard record.kind == .mapping else { return nil }
        return stride(from: source.document.childRange(index).lowerBound, to: source.document.childRange(index).upperBound, by: 2).map { (child($0), child($0 + 1)) }
    }

    /// A list's items; nil for a scalar or a mapping.
    var items: [YAMLNode]? {
        guard record.kind == .sequence else { return nil }
        return source.document.childRange(index).map(child)
    }

    /// Every key and scalar value under this node, but the value of its own top-level key `key`
    /// (a scenario's texts outside its `expect:` list), in one pass.
    ///
    /// ```swift
    /// root.texts(leavingOut: "expect").contains("anna@gmail.com")
    /// ```
    func texts(leavingOut key: String) -> Set<String> {
        let document = source.document
        var texts: Set<String> = []
        // A node's subtree is the run of records from its own to its last descendant's.
        func collect(_ records: Range<Int>) {
            for position in records where document.records[position].kind == .scalar { texts.insert(document.text(UInt32(position))) }
        }
        if let pairs {
            for (name, value) in pairs where !(name.record.kind == .scalar && document.scalar(name.index, equals: key)) {
                collect(Int(name.index)..<name.subtreeEnd)
                collect(Int(value.index)..<value.subtreeEnd)
            }
        } else {
            collect(Int(index)..<subtreeEnd)
        }
        return texts
    }

    /// The record after the last of this node's subtree.
    private var subtreeEnd: Int {
        var node = index
        while true {
            let range = source.document.childRange(node)
            guard source.document.records[Int(node)].kind != .scalar, let last = range.last else { return Int(node) + 1 }
            node = source.document.children[last]
        }
    }

    /// The same node, whose positions may name `places` (a scenario's world's).
    func placing(_ places: [String: GeoCoordinate]) -> YAMLNode {
        YAMLNode(YAMLSource(source.document, file: file, places: places), index)
    }

    /// Parses `text` (one YAML document). Anchors and aliases are refused, so a file cannot expand
    /// itself into something huge.
    public static func parse(_ text: String, file: String) throws(ScenarioError) -> YAMLNode {
        try AnchorScan.rejectAnchorsAndAliases(in: text, file: file)
        let document: YAMLDocument?
        do {
            // libyaml's events straight into a flat document (``YAMLReader``): no tree of Yams nodes, and
            // no implicit tags (every value is read from its text by the node's own conversions: `int`,
            // `bool`, `duration`, ...).
            document = try YAMLReader.read(text)
        } catch {
            throw Self.translate(error, file: file, text: text)
        }
        guard let document else {
            throw ScenarioError("the file is empty; expected a YAML mapping", at: SourceLocation(file: file, line: 1, column: 1))
        }
        return YAMLNode(YAMLSource(document, file: file), document.root)
    }

    private static func translate(_ error: YAMLReader.Failure, file: String, text: String) -> ScenarioError {
        func line(_ number: Int) -> String? {
            guard number >= 1 else { return nil }
            var lines = text.split(separator: "\n", maxSplits: number, omittingEmptySubsequences: false)
            guard lines.count >= number else { return nil }
            lines[number - 1].removeAll { $0 == "\r" }
            return String(lines[number - 1].prefix(200))
        }
        switch error {
        case .syntax(let context, let problem, let markLine, let markColumn):
            let source = line(markLine)
            let character = source.flatMap { $0.dropFirst(max(0, markColumn - 1)).first }
            var message = "invalid YAML: \(context.map { "\($0) " } ?? "")\(problem)"
            if character == "\t" || (source?.prefix(max(0, markColumn - 1)).contains("\t") ?? false) {
                message += "; this line has a tab: YAML indents with spaces only"
            } else if let source, let hint = colonInValueHint(line: source, column: markColumn) {
                message += "; \(hint)"
            } else if problem.contains("indicator") || problem.contains("mapping values are not allowed") || problem.contains("block end") {
                message += "; check this line's indentation against the lines above it (each level of a list or mapping lines up)"
            }
            return ScenarioError(message, at: SourceLocation(file: file, line: markLine, column: markColumn), sourceLine: source)
        case .duplicateKeys(let duplicates, let markLine, let markColumn):
            return ScenarioError(
                "duplicate key \(duplicates.joined(separator: ", ")) in one mapping",
                at: SourceLocation(file: file, line: markLine, column: markColumn), sourceLine: line(markLine))
        case .anchorOrAlias(let isAlias, let markLine, let markColumn):
            return ScenarioError("YAML \(isAlias ? "aliases (*name)" : "anchors (&name)") are not supported in scenario files", at: SourceLocation(file: file, line: markLine, column: markColumn))
        case .reader(let error):
            return ScenarioError("invalid YAML: \(error)", at: SourceLocation(file: file, line: 1, column: 1))
        }
    }

    /// When the YAML error at `column` (1-based) of `line` is a `: ` inside a plain value
    /// (`name: foo forgets database: task-list`, `{ text: a: b }`), which YAML reads as a second
    /// key: the hint to quote the value, with the key and the value quoted. Nil for any other error
    /// (a line indented too far has no key before the column).
    static func colonInValueHint(line: String, column: Int) -> String? {
        let characters = Array(line)
        let at = column - 1
        guard characters.indices.contains(at), characters[at] == ":" else { return nil }
        // The entry the column is in: from the last `{`, `[` or `,` of a flow collection, or the line's start.
        // A comma is a separator only inside a flow collection: in a block value (`name: Oslo, Norway: x`)
        // the entry starts at the line's key.
        let flowStart = Self.isInFlowCollection(characters[..<at]) ? characters[..<at].lastIndex { "{[,".contains($0) } : nil
        var start = flowStart.map { $0 + 1 } ?? 0
        while start < at, characters[start] == " " || (flowStart == nil && characters[start] == "-" && characters.indices.contains(start + 1) && characters[start + 1] == " ") {
            start += 1
        }
        let entry = characters[start..<at]
        guard let separator = entry.indices.first(where: { entry[$0] == ":" && $0 + 1 < at && characters[$0 + 1] == " " }) else { return nil }
        let key = String(entry[..<separator])
        let valueStart = separator + 2
        guard !key.isEmpty, !key.contains(where: { "\"'#{}[]".contains($0) }), valueStart < at, !"\"'".contains(characters[valueStart]) else { return nil }
        var end = characters.count
        if flowStart != nil {
            end = characters[at...].firstIndex { ",}]".contains($0) } ?? characters.count
        } else if let comment = characters[at...].indices.first(where: { characters[$0] == "#" && characters[$0 - 1] == " " }) {
            end = comment
        }
        let value = String(characters[valueStart..<end]).trimmingCharacters(in: .whitespaces)
        let quoted = value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return "a value containing ': ' must be quoted, or YAML reads a second key: \(MessageText.excerpt(key)): \"\(MessageText.excerpt(quoted))\""
    }

    /// Whether the end of `prefix` (a line up to a column) is inside a `{ }` or `[ ]` opened on the
    /// line (outside quotes).
    static func isInFlowCollection(_ prefix: ArraySlice<Character>) -> Bool {
        var depth = 0
        var quote: Character?
        for character in prefix {
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "\"" || character == "'" {
                quote = character
            } else if character == "{" || character == "[" {
                depth += 1
            } else if character == "}" || character == "]" {
                depth = max(0, depth - 1)
            }
        }
        return depth > 0
    }

    /// An error for a document `text` whose root (this node) is not a mapping: quotes the file's
    /// first line (cut to 120 characters), never the value the YAML parser folded out of several
    /// lines (a file that is not ours, `passwd.yaml -> /etc/passwd`, is one long value).
    package func notAMappingError(in text: String, expected what: String) -> ScenarioError? {
        guard !isMapping else { return nil }
        let firstLine = text.prefix { $0 != "\n" && $0 != "\r" && $0 != "\r\n" }
        return ScenarioError("expected \(what), but this file starts with '\(MessageText.excerpt(String(firstLine)))'", at: location)
    }

    /// Where the node starts.
    public var location: SourceLocation {
        let record = record
        return SourceLocation(file: file, line: Int(record.line), column: Int(record.column))
    }

    /// An error at this node.
    public func error(_ message: String) -> ScenarioError {
        ScenarioError(message, at: location)
    }

    private var kindName: String {
        switch record.kind {
        case .scalar:
            let text = source.document.text(index)
            return text.isEmpty ? "an empty value" : "the value '\(MessageText.excerpt(text))'"
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        }
    }

    /// The node as a mapping whose keys must all be in `allowed` (an unknown key gets the nearest valid key suggested).
    public func mapping(allowing allowed: [String], what: String = "mapping") throws(ScenarioError) -> YAMLMapping {
        guard record.kind == .mapping else {
            throw error("expected a \(what) with keys \(allowed.joined(separator: ", ")), found \(kindName)")
        }
        let document = source.document
        let children = document.childRange(index)
        var entries: [YAMLMapping.Entry] = []
        entries.reserveCapacity(children.count / 2)
        // A world's places allow every name they have: a set keeps this linear. A few keys are found
        // faster by comparing them.
        let allowedNames = allowed.count > 16 ? Set(allowed) : nil
        for position in stride(from: children.lowerBound, to: children.upperBound, by: 2) {
            let keyNode = child(position)
            guard keyNode.record.kind == .scalar else { throw keyNode.error("mapping keys must be plain words") }
            let name = document.text(keyNode.index)
            guard allowedNames?.contains(name) ?? allowed.contains(name) else {
                var message = "unknown key '\(MessageText.excerpt(name))' in \(what)"
                if let suggestion = NearestWord.suggest(for: name, among: allowed) {
                    message += "; did you mean '\(suggestion)'?"
                } else {
                    message += "; expected one of: \(allowed.joined(separator: ", "))"
                }
                throw keyNode.error(message)
            }
            entries.append(YAMLMapping.Entry(key: name, keyNode: keyNode, value: child(position + 1)))
        }
        return YAMLMapping(node: self, entries: entries, what: what)
    }

    /// Whether the node is a mapping with the key `key`, found without making a String of any key
    /// (an expectation's kind is told by its keys: `http`, `any-of`, `stored`, ...).
    func hasKey(_ key: String) -> Bool {
        guard record.kind == .mapping else { return false }
        let document = source.document
        let children = document.childRange(index)
        for position in stride(from: children.lowerBound, to: children.upperBound, by: 2) where document.scalar(document.children[position], equals: key) {
            return true
        }
        return false
    }

    /// The node as a list.
    public func sequence(what: String = "list") throws(ScenarioError) -> [YAMLNode] {
        guard let items else { throw error("expected a \(what), found \(kindName)") }
        return items
    }

    /// Whether the node is a list.
    public var isSequence: Bool { record.kind == .sequence }

    /// Whether the node is a mapping.
    public var isMapping: Bool { record.kind == .mapping }

    /// Whether the node is a scalar written without quotes (`1`, not `'1'` or `"1"`).
    public var isPlainScalar: Bool {
        let record = record
        return record.kind == .scalar && record.style == YAMLDocument.ScalarStyle.plain.rawValue
    }

    /// Whether the node is YAML's null written out: `null`, `Null`, `NULL` or `~`, unquoted (an empty
    /// value reads as empty text).
    public var isNull: Bool {
        guard isPlainScalar else { return false }
        return ["null", "Null", "NULL", "~"].contains { source.document.scalar(index, equals: $0) }
    }

    /// The node's text, if it is a scalar.
    public var scalarText: String? {
        record.kind == .scalar ? source.document.text(index) : nil
    }

    /// The node as text.
    public func string(what: String = "text") throws(ScenarioError) -> String {
        guard let text = scalarText else { throw error("expected \(what), found \(kindName)") }
        return text
    }

    /// The node as a finite number.
    public func double(what: String = "a number") throws(ScenarioError) -> Double {
        guard let text = scalarText, let value = Double(DurationText.trimmingSpaces(text)), value.isFinite else {
            throw error("expected \(what), found \(kindName)")
        }
        return value
    }

    /// The node as a whole number.
    public func int(what: String = "a whole number") throws(ScenarioError) -> Int {
        guard let text = scalarText, let value = Int(DurationText.trimmingSpaces(text)) else {
            throw error("expected \(what), found \(kindName)")
        }
        return value
    }

    /// The node as true/false (also yes/no, on/off).
    public func bool() throws(ScenarioError) -> Bool {
        switch scalarText?.lowercased() {
        case "true", "yes", "on": return true
        case "false", "no", "off": return false
        default: throw error("expected true or false, found \(kindName)")
        }
    }

    /// The node as a duration: `90s`, `5m`, `1h30m`, `250ms`, `2d`, or a plain number of seconds.
    public func duration(what: String = "a duration") throws(ScenarioError) -> Duration {
        guard let text = scalarText, let duration = DurationText.parse(text) else {
            if let text = scalarText, DurationText.isTooLong(text) {
                throw error("\(MessageText.excerpt(text)) is longer than any duration can be (about 31 years; a scenario runs at most 30 days)")
            }
            var message = "expected \(what) such as 90s, 5m, 1h30m or 250ms, found \(kindName)"
            if let text = scalarText, DurationText.looksLikeClockTime(text) {
                message += ", which looks like a clock time: scenario times count from the start of the run (virtual 0s, at `start-time`), so write the time since then, e.g. 10m or 1h30m"
            }
            throw error(message)
        }
        return duration
    }

    /// The node as a position: `[lat, lon]` or `{lat: …, lon: …}`, range-checked, or in a scenario
    /// the name of one of its world's places.
    public func coordinate() throws(ScenarioError) -> GeoCoordinate {
        try coordinate(places: places)
    }

    /// `[lat, lon]` or `{lat: …, lon: …}`, range-checked (the node is a list or a mapping).
    func latitudeAndLongitude() throws(ScenarioError) -> GeoCoordinate {
        let latitude: Double, longitude: Double
        if isSequence {
            let items = try sequence(what: "[latitude, longitude] pair")
            guard items.count == 2 else { throw error("expected [latitude, longitude], found a list of \(items.count)") }
            latitude = try items[0].double(what: "a latitude in degrees")
            longitude = try items[1].double(what: "a longitude in degrees")
        } else {
            let map = try mapping(allowing: ["lat", "lon"], what: "coordinate")
            latitude = try map.required("lat").double(what: "a latitude in degrees")
            longitude = try map.required("lon").double(what: "a longitude in degrees")
        }
        guard abs(latitude) <= 90 else { throw error("latitude \(latitude) is outside -90...90") }
        guard abs(longitude) <= 180 else { throw error("longitude \(longitude) is outside -180...180") }
        return GeoCoordinate(latitude: latitude, longitude: longitude)
    }

    /// The node as one of `choices`.
    public func choice(_ choices: [String], what: String) throws(ScenarioError) -> String {
        let text = try string(what: what)
        guard choices.contains(text) else {
            var message = "unknown \(what) '\(MessageText.excerpt(text))'"
            if let suggestion = NearestWord.suggest(for: text, among: choices) { message += "; did you mean '\(suggestion)'?" } else {
                message += "; expected one of: \(choices.joined(separator: ", "))"
            }
            throw error(message)
        }
        return text
    }
}


/// The document a ``YAMLNode`` is in, shared by all its nodes (one reference to count per node), with
/// the file it came from and the places its positions may name.
final class YAMLSource: Sendable {
    let document: YAMLDocument
    let file: String
    let places: [String: GeoCoordinate]?

    init(_ document: YAMLDocument, file: String, places: [String: GeoCoordinate]? = nil) {
        self.document = document
        self.file = file
        self.places = places
    }
}

/// A YAML mapping whose keys were checked against a list of valid keys.
public struct YAMLMapping {
    struct Entry {
        let key: String
        let keyNode: YAMLNode
        let value: YAMLNode
    }

    /// The mapping node itself.
    public let node: YAMLNode
    let entries: [Entry]
    let what: String

    /// The keys present, in file order.
    public var keys: [String] { entries.map(\.key) }

    /// The value of `key`, if present.
    public func optional(_ key: String) -> YAMLNode? {
        entries.first { $0.key == key }?.value
    }

    /// The value of `key`, or an error saying it is missing.
    public func required(_ key: String) throws(ScenarioError) -> YAMLNode {
        guard let value = optional(key) else { throw node.error("missing key '\(key)' in \(what)") }
        return value
    }

    /// The text of `key`, which must be present, not empty and not only spaces (`what` says what it
    /// is, for the error). YAML's null (`null`, `~` unquoted) is refused too, with the hint to quote it
    /// when the text "null" is meant.
    public func requiredText(_ key: String, what: String) throws(ScenarioError) -> String {
        let node = try required(key)
        if node.isNull {
            let text = node.scalarText ?? ""
            throw node.error("\(key) is \(text), YAML's empty value, so it has no text; to mean the text '\(text)', quote it: \(key): \"\(text)\"")
        }
        let value = try node.string(what: what)
        guard !value.isEmpty else { throw node.error("\(key) must not be empty") }
        guard value.contains(where: { !$0.isWhitespace }) else { throw node.error("\(key) must not be only spaces") }
        return value
    }

    /// The node of key `key` itself (for errors about the key).
    public func keyNode(_ key: String) -> YAMLNode? {
        entries.first { $0.key == key }?.keyNode
    }
}

/// Parses durations written as `90s`, `5m`, `1h30m`, `250ms`, `2d` or a number of seconds. Units may
/// also be spelt out (`10 sec`, `5 min`, `2 minutes`, `1 hour 30 minutes`, `3 days`), with spaces
/// between the parts.
public enum DurationText {
    /// Every spelling of a unit, in nanoseconds.
    static let unitScales: [Substring: Double] = {
        var scales: [Substring: Double] = [:]
        for (names, scale) in [
            (["ms", "msec", "millisecond", "milliseconds"], 1e6), (["s", "sec", "secs", "second", "seconds"], 1e9),
            (["m", "min", "mins", "minute", "minutes"], 60e9), (["h", "hr", "hrs", "hour", "hours"], 3600e9),
            (["d", "day", "days"], 86_400e9),
        ] {
            for name in names { scales[Substring(name)] = scale }
        }
        return scales
    }()

    /// Whether `text` is written like a time of day (`10:00`, `08:00:10`), which a duration is not.
    public static func looksLikeClockTime(_ text: String) -> Bool {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: ":", omittingEmptySubsequences: false)
        return (2...3).contains(parts.count) && parts.allSatisfy { !$0.isEmpty && $0.count <= 2 && $0.allSatisfy(\.isNumber) }
    }

    /// The duration `text` denotes, or nil (also past about 31 years: 1e18 nanoseconds, where 64-bit
    /// nanoseconds end; ``isTooLong(_:)`` tells that case apart).
    public static func parse(_ text: String) -> Duration? {
        guard let (nanoseconds, exact) = read(text), exact < 1e18 else { return nil }
        return .nanoseconds(nanoseconds)
    }

    /// Whether `text` is written as a duration but is longer than one can be (about 31 years).
    public static func isTooLong(_ text: String) -> Bool {
        read(text).map { $0.exact >= 1e18 } ?? false
    }

    /// The nanoseconds `text` denotes (each part rounded, once the total is known to fit) and their
    /// exact sum, unbounded; nil when `text` is not written as a duration.
    private static func read(_ text: String) -> (nanoseconds: Int64, exact: Double)? {
        let trimmed = trimmingSpaces(text)
        if let seconds = Double(trimmed) {
            guard seconds.isFinite, seconds >= 0 else { return nil }
            let exact = seconds * 1e9
            return (exact < 1e18 ? Int64(exact.rounded()) : 0, exact)
        }
        guard let parts = trimmed.utf8.allSatisfy({ $0 < 0x80 }) ? asciiParts(trimmed) : parts(trimmed) else { return nil }
        // The parts together are bounded like each one: `11000d11000d…` must not overflow.
        let exact = parts.reduce(0, +)
        guard exact < 1e18 else { return (0, exact) }
        return (parts.reduce(Int64(0)) { $0 + Int64($1.rounded()) }, exact)
    }

    /// The parts of `text` (`1h30m`: an hour and 30 minutes), each in nanoseconds; nil when it is not
    /// written as parts of a number and a unit.
    private static func parts(_ text: String) -> [Double]? {
        var parts: [Double] = []
        var rest = Substring(text)
        guard !rest.isEmpty else { return nil }
        while !rest.isEmpty {
            let number = rest.prefix { $0.isNumber || $0 == "." }
            guard !number.isEmpty, let value = Double(number), value.isFinite else { return nil }
            rest = rest.dropFirst(number.count).drop { $0 == " " }
            let unit = rest.prefix { $0.isLetter }
            rest = rest.dropFirst(unit.count).drop { $0 == " " }
            guard let scale = unitScales[unit] else { return nil }
            parts.append(value * scale)
        }
        return parts
    }

    /// ``parts(_:)`` of an ASCII `text`, read byte by byte (in ASCII the numbers are 0-9 and the
    /// letters a-z and A-Z, as `Character` says): the same parts, without asking each character's
    /// Unicode properties (which cost more than the rest of reading a 30 MB scenario's `at: 30s`).
    private static func asciiParts(_ text: String) -> [Double]? {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty else { return nil }
        func isDigitOrDot(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: ".") }
        func isLetter(_ byte: UInt8) -> Bool { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) }
        func skipSpaces(_ position: inout Int) { while position < bytes.count, bytes[position] == UInt8(ascii: " ") { position += 1 } }
        var parts: [Double] = []
        var position = 0
        while position < bytes.count {
            let numberStart = position
            while position < bytes.count, isDigitOrDot(bytes[position]) { position += 1 }
            guard position > numberStart, let value = Double(String(decoding: bytes[numberStart..<position], as: UTF8.self)), value.isFinite else { return nil }
            skipSpaces(&position)
            let unitStart = position
            while position < bytes.count, isLetter(bytes[position]) { position += 1 }
            guard let scale = unitScales[Substring(String(decoding: bytes[unitStart..<position], as: UTF8.self))] else { return nil }
            skipSpaces(&position)
            parts.append(value * scale)
        }
        return parts
    }

    /// `text` without the spaces (`CharacterSet.whitespaces`: spaces and tabs, Unicode's too) it starts
    /// or ends with. A text that starts and ends with ASCII other than a space or a tab (nearly every
    /// value) is returned as it is, without Foundation's trimming, which costs more than reading it.
    static func trimmingSpaces(_ text: String) -> String {
        func isKept(_ byte: UInt8?) -> Bool {
            guard let byte else { return false }
            return byte < 0x80 && byte != UInt8(ascii: " ") && byte != UInt8(ascii: "\t")
        }
        return isKept(text.utf8.first) && isKept(text.utf8.last) ? text : text.trimmingCharacters(in: .whitespaces)
    }

    /// `duration` written the way ``parse(_:)`` reads it, e.g. `1h30m`, `90s`, `250ms`.
    public static func format(_ duration: Duration) -> String {
        let seconds = duration.components.seconds
        if seconds >= 9_000_000_000 {
            // Past what whole nanoseconds hold in 64 bits (a sum of many runs' virtual times): to the second.
            var rest = seconds, out = ""
            for (unit, size) in [("d", Int64(86_400)), ("h", 3_600), ("m", 60), ("s", 1)] where rest >= size {
                out += "\(rest / size)\(unit)"
                rest %= size
            }
            return out
        }
        var nanos = duration.wholeNanoseconds
        if nanos == 0 { return "0s" }
        var out = ""
        for (unit, size) in [("d", Int64(86_400_000_000_000)), ("h", 3_600_000_000_000), ("m", 60_000_000_000), ("s", 1_000_000_000), ("ms", 1_000_000)] {
            if nanos >= size {
                out += "\(nanos / size)\(unit)"
                nanos %= size
            }
        }
        return out.isEmpty ? "\(nanos)ns" : out
    }
}

/// Suggests the closest valid word for a typo (Levenshtein distance), for an app's own error messages.
///
/// ```swift
/// NearestWord.suggest(for: "clsoe", among: ["friends", "close"])   // "close"
/// ```
public enum NearestWord {
    /// The end of an error message: `; did you mean 'close'?` for the candidate nearest `word`, or
    /// nothing when none is near enough.
    public static func didYouMean(_ word: String, among candidates: [String]) -> String {
        suggest(for: word, among: candidates).map { "; did you mean '\($0)'?" } ?? ""
    }

    /// The candidate nearest `word`, when it is near enough to be what was meant.
    public static func suggest(for word: String, among candidates: [String]) -> String? {
        // A word far longer than every candidate is no typo of one (and a 3 MB value would take seconds).
        guard word.utf8.count <= 2 * (candidates.map(\.utf8.count).max() ?? 0) + 8 else { return nil }
        let scored = candidates.map { ($0, distance(word.lowercased(), $0.lowercased())) }
        guard let best = scored.min(by: { $0.1 < $1.1 }) else { return nil }
        return best.1 <= max(2, word.count / 3) ? best.0 : nil
    }

    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
