// libyaml's event parser, which Yams ships as its C module (CYaml): the scenario reader builds its own
// flat document from the events instead of Yams's tree of nodes (see YAMLDocument).
internal import CYaml
import Yams

/// Reads one YAML document into a ``YAMLDocument`` with libyaml's event parser, in one pass.
///
/// What Yams's `compose(yaml:_:)` with the basic resolver would refuse is refused here too, with the
/// same problem and mark: syntax errors (libyaml's own messages), a second document, and duplicate
/// keys in one mapping (a plain and a quoted key of the same text are the same key; an explicit tag,
/// `!!int 1`, makes another). Anchors and aliases are refused (``AnchorScan`` finds them first).
///
/// ```swift
/// let document = try YAMLReader.read("name: walk\n")   // nil for an empty file
/// ```
enum YAMLReader {
    /// Why a text is not one YAML document.
    enum Failure: Error {
        /// libyaml's scanner or parser refused it: its context (`while parsing a block mapping`), its
        /// problem, and the problem's place (1-based).
        case syntax(context: String?, problem: String, line: Int, column: Int)
        /// libyaml's reader refused it (a control character): the error as Yams describes it.
        case reader(YamlError)
        /// A mapping has keys more than once: their texts, sorted, and the place of the first.
        case duplicateKeys([String], line: Int, column: Int)
        /// An anchor (`&name`) or an alias (`*name`) at this place.
        case anchorOrAlias(isAlias: Bool, line: Int, column: Int)
    }

    /// The tag of a plain, unquoted or quoted scalar that has none written: text.
    private static let textTag = "tag:yaml.org,2002:str"

    /// The document in `text`; nil when it has none (empty, or only comments).
    static func read(_ text: String) throws(Failure) -> YAMLDocument? {
        var text = text
        let result: Result<YAMLDocument?, Failure> = text.withUTF8 { bytes in
            let parser = UnsafeMutablePointer<yaml_parser_t>.allocate(capacity: 1)
            let event = UnsafeMutablePointer<yaml_event_t>.allocate(capacity: 1)
            defer {
                parser.deallocate()
                event.deallocate()
            }
            guard yaml_parser_initialize(parser) == 1 else { return .failure(.reader(.memory)) }
            defer { yaml_parser_delete(parser) }
            yaml_parser_set_encoding(parser, YAML_UTF8_ENCODING)
            yaml_parser_set_input_string(parser, bytes.baseAddress, bytes.count)
            var reading = Reading(parser: parser, event: event, text: bytes)
            return Result { () throws(Failure) in try reading.document() }
        }
        return try result.get()
    }

    /// One pass over the events of one text.
    private struct Reading {
        let parser: UnsafeMutablePointer<yaml_parser_t>
        let event: UnsafeMutablePointer<yaml_event_t>
        let text: UnsafeBufferPointer<UInt8>
        var builder = YAMLDocumentBuilder()

        init(parser: UnsafeMutablePointer<yaml_parser_t>, event: UnsafeMutablePointer<yaml_event_t>, text: UnsafeBufferPointer<UInt8>) {
            self.parser = parser
            self.event = event
            self.text = text
            builder.reserve(forTextOf: text.count)
        }

        /// The next event's type (the event itself in `event`, to be freed with `yaml_event_delete`).
        private mutating func next() throws(Failure) -> yaml_event_type_t {
            guard yaml_parser_parse(parser, event) == 1 else { throw failure() }
            return event.pointee.type
        }

        mutating func document() throws(Failure) -> YAMLDocument? {
            _ = try next()   // the stream's start
            yaml_event_delete(event)
            let first = try next()
            yaml_event_delete(event)
            guard first != YAML_STREAM_END_EVENT else { return nil }
            // The document's nodes, until its top node ends.
            var depth = 0
            repeat {
                let type = try next()
                defer { yaml_event_delete(event) }
                let mark = event.pointee.start_mark
                let line = Int(mark.line) + 1, column = Int(mark.column) + 1
                switch type {
                case YAML_SCALAR_EVENT:
                    let scalar = event.pointee.data.scalar
                    if scalar.anchor != nil { throw .anchorOrAlias(isAlias: false, line: line, column: column) }
                    let tag = scalar.quoted_implicit == 1 ? nil : Self.explicitTag(scalar.tag)
                    let style = YAMLDocument.ScalarStyle(rawValue: UInt8(truncatingIfNeeded: scalar.style.rawValue)) ?? .any
                    builder.scalar(bytes: UnsafeBufferPointer(start: scalar.value, count: scalar.length), style: style, line: line, column: column, tag: tag)
                case YAML_SEQUENCE_START_EVENT:
                    let start = event.pointee.data.sequence_start
                    if start.anchor != nil { throw .anchorOrAlias(isAlias: false, line: line, column: column) }
                    builder.startContainer(.sequence, line: line, column: column, tag: start.implicit != 0 ? nil : Self.explicitTag(start.tag))
                    depth += 1
                case YAML_MAPPING_START_EVENT:
                    let start = event.pointee.data.mapping_start
                    if start.anchor != nil { throw .anchorOrAlias(isAlias: false, line: line, column: column) }
                    builder.startContainer(.mapping, line: line, column: column, tag: start.implicit != 0 ? nil : Self.explicitTag(start.tag))
                    depth += 1
                case YAML_SEQUENCE_END_EVENT:
                    builder.endContainer()
                    depth -= 1
                case YAML_MAPPING_END_EVENT:
                    let (_, children) = builder.endContainer()
                    try DuplicateKeys.check(children, in: builder.document)
                    depth -= 1
                case YAML_ALIAS_EVENT:
                    throw .anchorOrAlias(isAlias: true, line: line, column: column)
                default:
                    break
                }
            } while depth > 0
            _ = try next()   // the document's end
            yaml_event_delete(event)
            let after = try next()
            let mark = event.pointee.start_mark
            yaml_event_delete(event)
            guard after == YAML_STREAM_END_EVENT else {
                // As Yams's composer says it.
                throw .syntax(context: "expected a single document in the stream", problem: "but found another document", line: Int(mark.line) + 1, column: Int(mark.column) + 1)
            }
            return builder.finish()
        }

        /// A tag written on a node, but for the text tag (the tag every scalar has without one).
        private static func explicitTag(_ tag: UnsafeMutablePointer<yaml_char_t>?) -> String? {
            guard let tag else { return nil }
            let name = String(cString: tag)
            return name == textTag ? nil : name
        }

        /// The parser's error, as Yams reports it.
        private func failure() -> Failure {
            let parser = self.parser.pointee
            let problem = parser.problem.map { String(cString: $0) } ?? "unknown problem"
            switch parser.error {
            case YAML_SCANNER_ERROR, YAML_PARSER_ERROR, YAML_COMPOSER_ERROR:
                return .syntax(
                    context: parser.context.map { String(cString: $0) }, problem: problem,
                    line: Int(parser.problem_mark.line) + 1, column: Int(parser.problem_mark.column) + 1)
            case YAML_READER_ERROR:
                // The offset in characters, as Yams counts it for its message.
                let bytes = Array(text)
                let string = String(decoding: bytes, as: UTF8.self)
                let index = string.utf8.index(string.utf8.startIndex, offsetBy: Int(parser.problem_offset), limitedBy: string.utf8.endIndex)?.samePosition(in: string)
                let offset = index.map { string.distance(from: string.startIndex, to: $0) }
                return .reader(.reader(problem: problem, offset: offset, value: parser.problem_value, yaml: string))
            default:
                return .reader(.memory)
            }
        }
    }
}

/// Finds keys written twice in one mapping, as Yams's composer does: keys are equal when they are
/// the same kind of node with the same tag and the same text (or the same children).
enum DuplicateKeys {
    /// Throws when the mapping whose children (key, value, ...) are `children` of `document` has a key twice.
    static func check(_ children: Range<Int>, in document: YAMLDocument) throws(YAMLReader.Failure) {
        guard children.count > 2 else { return }
        let duplicated = duplicatedKeys(children, in: document)
        guard !duplicated.isEmpty else { return }
        // As Yams says it: each duplicated key once, sorted by text; the place of the first written of
        // the first in that order.
        let sorted = duplicated.map { (key: $0, text: document.records[Int($0)].kind == .scalar ? document.text($0) : "<uncovertable>") }
            .sorted { $0.text < $1.text }
        let first = document.records[Int(sorted[0].key)]
        throw .duplicateKeys(sorted.map(\.text), line: Int(first.line), column: Int(first.column))
    }

    /// The first of each key written more than once in the mapping whose children (key, value, ...)
    /// are `children`: by comparing them all for a few keys, by sorting their hashes for many (linear
    /// but for the sort; equal keys have equal hashes).
    static func duplicatedKeys(_ children: Range<Int>, in document: YAMLDocument) -> [UInt32] {
        let positions = stride(from: children.lowerBound, to: children.upperBound, by: 2)
        if children.count <= 32 {
            // Nearly every mapping: a few keys, none twice (found without allocating anything).
            let hasDuplicate = positions.dropFirst().contains { i in
                stride(from: children.lowerBound, to: i, by: 2).contains { equal(document.children[i], document.children[$0], in: document) }
            }
            return hasDuplicate ? firstOfEachDuplicated(positions.map { document.children[$0] }, in: document) : []
        }
        let keys = positions.map { document.children[$0] }
        let hashed = keys.map { (hash: hash($0, in: document), key: $0) }.sorted { ($0.hash, $0.key) < ($1.hash, $1.key) }
        var duplicated: [UInt32] = []
        var runStart = 0
        for end in 1...hashed.count where end == hashed.count || hashed[end].hash != hashed[runStart].hash {
            if end - runStart > 1 { duplicated += firstOfEachDuplicated(hashed[runStart..<end].map(\.key), in: document) }
            runStart = end
        }
        return duplicated
    }

    /// The first of each key of `keys` (in file order) that is there more than once, comparing every two.
    private static func firstOfEachDuplicated(_ keys: [UInt32], in document: YAMLDocument) -> [UInt32] {
        var classes: [(first: UInt32, count: Int)] = []
        for key in keys {
            if let known = classes.firstIndex(where: { equal($0.first, key, in: document) }) {
                classes[known].count += 1
            } else {
                classes.append((key, 1))
            }
        }
        return classes.filter { $0.count > 1 }.map(\.first)
    }

    /// A hash of a key that equal keys share (a mapping or a list hashes as its kind only).
    private static func hash(_ node: UInt32, in document: YAMLDocument) -> Int {
        let record = document.records[Int(node)]
        var hasher = Hasher()
        hasher.combine(record.kind.rawValue)
        if record.kind == .scalar {
            document.bytes.withUnsafeBytes { hasher.combine(bytes: UnsafeRawBufferPointer(rebasing: $0[Int(record.start)..<Int(record.start + record.count)])) }
            hasher.combine(document.tags[node])
        }
        return hasher.finalize()
    }

    /// Whether two nodes are equal as keys: kind, tag and text, or kind, tag and children.
    static func equal(_ a: UInt32, _ b: UInt32, in document: YAMLDocument) -> Bool {
        let left = document.records[Int(a)], right = document.records[Int(b)]
        guard left.kind == right.kind, left.count == right.count else { return false }
        if !document.tags.isEmpty, document.tags[a] != document.tags[b] { return false }
        if left.kind == .scalar {
            return document.bytes.withUnsafeBufferPointer { bytes in
                UnsafeBufferPointer(rebasing: bytes[Int(left.start)..<Int(left.start + left.count)])
                    .elementsEqual(UnsafeBufferPointer(rebasing: bytes[Int(right.start)..<Int(right.start + right.count)]))
            }
        }
        return zip(document.childRange(a), document.childRange(b)).allSatisfy { equal(document.children[$0], document.children[$1], in: document) }
    }
}
