/// A binary min-heap of (key, node) pairs for the route searches (duplicates allowed; stale entries
/// are skipped by the search, which is cheaper than a decrease-key). Keys are seconds (`Double`) or
/// exact path costs (``RouteCost``).
struct MinimumHeap<Key: Comparable> {
    private var keys: [Key] = []
    private var nodes: [Int32] = []

    var isEmpty: Bool { keys.isEmpty }

    /// The least key, if any.
    var minimumKey: Key? { keys.first }

    mutating func removeAll() {
        keys.removeAll(keepingCapacity: true)
        nodes.removeAll(keepingCapacity: true)
    }

    mutating func insert(_ node: Int32, key: Key) {
        keys.append(key)
        nodes.append(node)
        var child = keys.count - 1
        while child > 0 {
            let parent = (child - 1) >> 1
            guard key < keys[parent] else { break }
            keys[child] = keys[parent]
            nodes[child] = nodes[parent]
            child = parent
        }
        keys[child] = key
        nodes[child] = node
    }

    mutating func popMinimum() -> (node: Int32, key: Key) {
        let top = (nodes[0], keys[0])
        let lastKey = keys.removeLast(), lastNode = nodes.removeLast()
        let count = keys.count
        if count > 0 {
            var parent = 0
            while true {
                var child = 2 * parent + 1
                guard child < count else { break }
                if child + 1 < count, keys[child + 1] < keys[child] { child += 1 }
                guard keys[child] < lastKey else { break }
                keys[parent] = keys[child]
                nodes[parent] = nodes[child]
                parent = child
            }
            keys[parent] = lastKey
            nodes[parent] = lastNode
        }
        return top
    }
}
