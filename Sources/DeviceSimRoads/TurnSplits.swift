/// How a car graph carries turn restrictions: a node where turns depend on where one came from
/// gets a copy per restricted arrival (the via node as entered from that neighbour), whose outgoing
/// edges are only the turns allowed from there. The original node keeps every turn, for arrivals
/// without restrictions and for routes that start there.
///
/// ```swift
/// let entered = splits.entry(to: b, from: a)       // b, or b's copy for arrivals from a
/// let leaving = splits.representatives(of: a)      // a and its copies
/// ```
struct TurnSplits: Sendable {
    /// Node count before the copies.
    let originalCount: Int
    /// Each copy's original node (index `copy - originalCount`).
    let originals: [Int32]
    /// (via << 32 | from) -> the copy of `via` entered from `from`.
    let copies: [Int64: Int32]
    /// Each original node's copies.
    private let copiesOf: [Int32: [Int32]]
    /// Whether each original node has copies (empty when no node has), read before the
    /// dictionaries: most nodes have none.
    private let hasCopies: [Bool]

    /// No splits (foot and bike graphs).
    init(originalCount: Int) {
        self.init(originalCount: originalCount, originals: [], copies: [:])
    }

    /// Splits with `copies` keyed by (via, from) and `originals` for each copy.
    init(originalCount: Int, originals: [Int32], copies: [Int64: Int32]) {
        self.originalCount = originalCount
        self.originals = originals
        self.copies = copies
        var copiesOf: [Int32: [Int32]] = [:]
        for (index, original) in originals.enumerated() { copiesOf[original, default: []].append(Int32(originalCount + index)) }
        self.copiesOf = copiesOf
        var hasCopies = originals.isEmpty ? [] : [Bool](repeating: false, count: originalCount)
        for original in originals { hasCopies[Int(original)] = true }
        self.hasCopies = hasCopies
    }

    /// Whether original node `node` has copies.
    @inline(__always)
    private func isSplit(_ node: Int32) -> Bool { Int(node) < hasCopies.count && hasCopies[Int(node)] }

    static func key(via: Int32, from: Int32) -> Int64 { Int64(via) << 32 | Int64(from) }

    /// The node a car is at after driving from `from` to `to`.
    func entry(to: Int32, from: Int32) -> Int32 { isSplit(to) ? copies[Self.key(via: to, from: from)] ?? to : to }

    /// The nodes standing for original node `node`: itself and its copies.
    func representatives(of node: Int32) -> [Int32] { [node] + (copiesOf[node] ?? []) }

    /// Calls `body` with each node standing for original node `node`, as ``representatives(of:)``
    /// lists them (itself, then its copies), without making the list.
    func forEachRepresentative(of node: Int32, _ body: (Int32) -> Void) {
        body(node)
        guard isSplit(node), let copies = copiesOf[node] else { return }
        for copy in copies { body(copy) }
    }

    /// The original node of `node` (itself unless it is a copy).
    func original(of node: Int32) -> Int32 { Int(node) < originalCount ? node : originals[Int(node) - originalCount] }
}
