import DeviceSimHAL

/// Copies of a node's subtree with some scalars' texts changed: a scenario's local clock times
/// replaced by offsets (``LocalClockTimes``), a step's variables by their values (``StepTemplate``).
extension YAMLNode {
    /// The scalars of the node's subtree (keys included), in file order.
    var scalars: [YAMLNode] {
        var found: [YAMLNode] = []
        func visit(_ node: YAMLNode) {
            if node.isScalar {
                found.append(node)
            } else if let pairs = node.pairs {
                for (key, value) in pairs {
                    visit(key)
                    visit(value)
                }
            } else {
                for item in node.items ?? [] { visit(item) }
            }
        }
        visit(self)
        return found
    }

    /// Whether the node is a scalar.
    var isScalar: Bool { !isMapping && !isSequence }

    /// The node's subtree in a document of its own (the rest of a large file is not kept alive by
    /// it), named `file` and placing `places`, with each scalar kept or given another text by `text`;
    /// nil when `text` answers ``Replacement/missing`` for one.
    ///
    /// ```swift
    /// let step = try node.copy(file: node.file, places: node.places)   // the same step, on its own
    /// ```
    func copy(
        file: String, places: [String: GeoCoordinate]?,
        text: (YAMLNode) throws(ScenarioError) -> Replacement = { _ in .keep }
    ) throws(ScenarioError) -> YAMLNode? {
        var builder = YAMLDocumentBuilder()
        let document = source.document
        func add(_ node: YAMLNode) throws(ScenarioError) -> Bool {
            let record = document.records[Int(node.index)]
            let tag = document.tags[node.index]
            switch record.kind {
            case .scalar:
                switch try text(node) {
                case .keep:
                    document.bytes.withUnsafeBufferPointer { bytes in
                        builder.scalar(
                            bytes: UnsafeBufferPointer(rebasing: bytes[Int(record.start)..<Int(record.start + record.count)]),
                            style: YAMLDocument.ScalarStyle(rawValue: record.style) ?? .any, line: Int(record.line), column: Int(record.column), tag: tag)
                    }
                case .text(let new, let style):
                    builder.scalar(new, style: style, line: Int(record.line), column: Int(record.column), tag: tag)
                case .missing:
                    return false
                }
            case .mapping, .sequence:
                builder.startContainer(record.kind, line: Int(record.line), column: Int(record.column), tag: tag)
                for position in document.childRange(node.index) {
                    guard try add(YAMLNode(source, document.children[position])) else { return false }
                }
                builder.endContainer()
            }
            return true
        }
        guard try add(self) else { return nil }
        let copied = builder.finish()
        return YAMLNode(YAMLSource(copied, file: file, places: places), copied.root)
    }

    /// What ``copy(file:places:text:)`` does with a scalar.
    enum Replacement {
        /// The scalar as it is.
        case keep
        /// Another text, written in `style`.
        case text(String, style: YAMLDocument.ScalarStyle)
        /// No text for this scalar: no copy at all.
        case missing
    }
}
