/// A binary min-heap of (key, node) pairs for the route searches (duplicates allowed; stale entries
/// are skipped by the search, which is cheaper than a decrease-key). Keys are seconds (`Double`) or
/// exact path costs (``RouteCost``).
///
/// Each entry's key and node lie side by side, so that a comparison and the move that follows it
/// read one cache line, not two.
///
/// ```swift
/// var heap = MinimumHeap<Double>()
/// heap.insert(7, key: 2.5)
/// heap.insert(3, key: 1.0)
/// heap.popMinimum()   // (node: 3, key: 1.0)
/// ```
struct MinimumHeap<Key: Comparable> {
    private struct Entry {
        var key: Key
        var node: Int32
    }

    private var entries: [Entry] = []

    var isEmpty: Bool { entries.isEmpty }

    /// The least key, if any.
    var minimumKey: Key? { entries.first?.key }

    mutating func removeAll() {
        entries.removeAll(keepingCapacity: true)
    }

    @inline(__always)
    mutating func insert(_ node: Int32, key: Key) {
        let entry = Entry(key: key, node: node)
        entries.append(entry)
        entries.withUnsafeMutableBufferPointer { entries in
            var child = entries.count - 1
            while child > 0 {
                let parent = (child - 1) >> 1
                guard key < entries[parent].key else { break }
                entries[child] = entries[parent]
                child = parent
            }
            entries[child] = entry
        }
    }

    @inline(__always)
    mutating func popMinimum() -> (node: Int32, key: Key) {
        let top = entries[0]
        let last = entries.removeLast()
        entries.withUnsafeMutableBufferPointer { entries in
            let count = entries.count
            guard count > 0 else { return }
            var parent = 0
            while true {
                var child = 2 * parent + 1
                guard child < count else { break }
                if child + 1 < count, entries[child + 1].key < entries[child].key { child += 1 }
                guard entries[child].key < last.key else { break }
                entries[parent] = entries[child]
                parent = child
            }
            entries[parent] = last
        }
        return (top.node, top.key)
    }
}
