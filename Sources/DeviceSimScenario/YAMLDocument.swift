/// The nodes of one YAML document in flat arrays: a record per node (in document order), the
/// children of every mapping and list as indices, and the bytes of every scalar in one buffer.
///
/// A 32 MiB scenario holds millions of nodes: a tree of classes costs a retain and a release at every
/// step of reading it, and an allocation per node. Here a node is an index into ``records``, and a
/// ``YAMLNode`` is that index with the shared document.
///
/// ```swift
/// var builder = YAMLDocumentBuilder()
/// builder.startContainer(.mapping, line: 1, column: 1)
/// builder.scalar("name", style: .plain, line: 1, column: 1)
/// builder.scalar("walk", style: .plain, line: 1, column: 7)
/// builder.endContainer()
/// let document = builder.finish()   // document.root is the mapping
/// ```
struct YAMLDocument: Sendable {
    /// What a node is.
    enum Kind: UInt8, Sendable {
        case scalar, mapping, sequence
    }

    /// How a scalar was written: libyaml's `yaml_scalar_style_t`, whose raw values Yams's
    /// `Node.Scalar.Style` shares (`any` for a scalar made by a program, not read from text).
    enum ScalarStyle: UInt8, Sendable {
        case any = 0, plain, singleQuoted, doubleQuoted, literal, folded
    }

    /// One node: 20 bytes.
    struct Record: Sendable {
        var kind: Kind
        /// A scalar's ``ScalarStyle`` (raw value); 0 for a mapping or a list.
        var style: UInt8
        /// Where the node starts, 1-based (columns count Unicode scalars, as libyaml's marks do).
        var line: UInt32
        var column: UInt32
        /// A scalar's first byte in ``bytes``; a mapping's or list's first child in ``children``.
        var start: UInt32
        /// A scalar's byte count; a mapping's pairs (twice as many children: key, value, ...); a list's items.
        var count: UInt32
    }

    var records: [Record] = []
    var children: [UInt32] = []
    var bytes: [UInt8] = []
    /// The explicit tags (`!!str 1`), by record: compared when keys are checked for duplicates.
    var tags: [UInt32: String] = [:]
    /// The document's top node.
    var root: UInt32 = 0

    /// The text of the scalar `index`.
    func text(_ index: UInt32) -> String {
        let record = records[Int(index)]
        return bytes.withUnsafeBufferPointer { buffer in
            String(decoding: UnsafeBufferPointer(rebasing: buffer[Int(record.start)..<Int(record.start + record.count)]), as: UTF8.self)
        }
    }

    /// Whether the scalar `index`'s text is `text`, without making a String of it.
    func scalar(_ index: UInt32, equals text: String) -> Bool {
        let record = records[Int(index)]
        guard record.kind == .scalar else { return false }
        var text = text
        return text.withUTF8 { wanted in
            guard wanted.count == Int(record.count) else { return false }
            return bytes.withUnsafeBufferPointer { buffer in
                wanted.elementsEqual(UnsafeBufferPointer(rebasing: buffer[Int(record.start)..<Int(record.start + record.count)]))
            }
        }
    }

    /// The children of the mapping or list `index` (a mapping's as key, value, key, value, ...).
    func childRange(_ index: UInt32) -> Range<Int> {
        let record = records[Int(index)]
        let count = record.kind == .mapping ? 2 * Int(record.count) : Int(record.count)
        return Int(record.start)..<Int(record.start) + count
    }
}

/// Builds a ``YAMLDocument`` node by node, in document order: what the YAML reader does with libyaml's
/// events, and what a rewritten step or scenario does with its nodes.
struct YAMLDocumentBuilder {
    private(set) var document = YAMLDocument()
    /// The children of the containers still open, one after another.
    private var pending: [UInt32] = []
    /// The containers still open: each one's record and where its children start in `pending`.
    private var open: [(record: UInt32, firstChild: Int)] = []

    init() {}

    /// Room for the nodes of a text of `byteCount` bytes, so the arrays seldom grow (and copy
    /// themselves) while a large file is read: a node takes 6 bytes of text or more in the files that
    /// have most (`{ a: 1, b: [x, y] }`), and no more bytes than its text.
    mutating func reserve(forTextOf byteCount: Int) {
        document.bytes.reserveCapacity(byteCount)
        document.records.reserveCapacity(byteCount / 6)
        document.children.reserveCapacity(byteCount / 6)
    }

    /// Starts a mapping or a list at `line`:`column`.
    mutating func startContainer(_ kind: YAMLDocument.Kind, line: Int, column: Int, tag: String? = nil) {
        let index = UInt32(document.records.count)
        document.records.append(YAMLDocument.Record(kind: kind, style: 0, line: UInt32(line), column: UInt32(column), start: 0, count: 0))
        if let tag { document.tags[index] = tag }
        open.append((index, pending.count))
    }

    /// Ends the innermost open container; returns its record and its children (for a mapping: key,
    /// value, ...), which stay valid until the next change.
    @discardableResult
    mutating func endContainer() -> (record: UInt32, children: Range<Int>) {
        let (index, firstChild) = open.removeLast()
        let start = document.children.count
        document.children.append(contentsOf: pending[firstChild...])
        pending.removeSubrange(firstChild...)
        let childCount = document.children.count - start
        let isMapping = document.records[Int(index)].kind == .mapping
        document.records[Int(index)].start = UInt32(start)
        document.records[Int(index)].count = UInt32(isMapping ? childCount / 2 : childCount)
        place(index)
        return (index, start..<document.children.count)
    }

    /// Adds a scalar of the UTF-8 `bytes`.
    mutating func scalar(bytes: UnsafeBufferPointer<UInt8>, style: YAMLDocument.ScalarStyle, line: Int, column: Int, tag: String? = nil) {
        let index = UInt32(document.records.count)
        let start = UInt32(document.bytes.count)
        document.bytes.append(contentsOf: bytes)
        document.records.append(YAMLDocument.Record(kind: .scalar, style: style.rawValue, line: UInt32(line), column: UInt32(column), start: start, count: UInt32(bytes.count)))
        if let tag { document.tags[index] = tag }
        place(index)
    }

    /// Adds a scalar of `text`.
    mutating func scalar(_ text: String, style: YAMLDocument.ScalarStyle, line: Int, column: Int, tag: String? = nil) {
        var text = text
        text.withUTF8 { scalar(bytes: $0, style: style, line: line, column: column, tag: tag) }
    }

    private mutating func place(_ index: UInt32) {
        if open.isEmpty { document.root = index } else { pending.append(index) }
    }

    /// The document built.
    func finish() -> YAMLDocument { document }
}
