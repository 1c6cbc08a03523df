/// A binary min-heap: the event queue of ``EventScheduler``.
///
/// Kept in this module (instead of swift-collections' `Heap`) so that the clock and HAL products
/// depend on nothing outside the Swift toolchain. Only what the scheduler needs: insert, peek at
/// the minimum, remove the minimum.
///
/// ```swift
/// var heap = BinaryMinHeap<Int>()
/// heap.insert(3); heap.insert(1); heap.insert(2)
/// heap.min            // 1
/// heap.removeMin()    // 1, then 2, then 3
/// ```
struct BinaryMinHeap<Element: Comparable> {
    private var storage: [Element] = []

    /// The number of elements.
    var count: Int { storage.count }

    /// Whether the heap holds no element.
    var isEmpty: Bool { storage.isEmpty }

    /// The smallest element, if any.
    var min: Element? { storage.first }

    /// `key` of the smallest element, if any, read in place (the element is not copied, so a
    /// reference it holds is not retained to read a plain field).
    func minimum<Key>(_ key: (borrowing Element) -> Key) -> Key? {
        storage.withUnsafeBufferPointer { buffer in buffer.isEmpty ? nil : key(buffer[0]) }
    }

    /// Calls `body` with every element, in no particular order.
    func forEach(_ body: (Element) -> Void) {
        storage.withUnsafeBufferPointer { buffer in
            for index in buffer.indices { body(buffer[index]) }
        }
    }

    /// Adds `element` in O(log n).
    mutating func insert(_ element: Element) {
        storage.append(element)
        siftUp(from: storage.count - 1)
    }

    /// Removes and returns the smallest element in O(log n). The heap must not be empty.
    ///
    /// The hole left at the root goes down along the smaller children to a leaf, and the last
    /// element is sifted up from there (Floyd's variant: about half the comparisons, since the last
    /// element nearly always belongs near the bottom). Elements are moved, not copied, so moving one
    /// costs no reference counting.
    mutating func removeMin() -> Element {
        precondition(!storage.isEmpty, "removeMin() on an empty heap")
        let last = storage.removeLast()
        if storage.isEmpty { return last }
        return storage.withUnsafeMutableBufferPointer { buffer in
            let heap = buffer.baseAddress!
            let count = buffer.count
            let smallest = heap.move()
            var hole = 0
            while true {
                let left = 2 * hole + 1
                guard left < count else { break }
                let right = left + 1
                let smaller = right < count && heap[right] < heap[left] ? right : left
                (heap + hole).moveInitialize(from: heap + smaller, count: 1)
                hole = smaller
            }
            while hole > 0 {
                let parent = (hole - 1) / 2
                guard last < heap[parent] else { break }
                (heap + hole).moveInitialize(from: heap + parent, count: 1)
                hole = parent
            }
            (heap + hole).initialize(to: last)
            return smallest
        }
    }

    private mutating func siftUp(from start: Int) {
        storage.withUnsafeMutableBufferPointer { buffer in
            let heap = buffer.baseAddress!
            var hole = start
            let element = (heap + hole).move()
            while hole > 0 {
                let parent = (hole - 1) / 2
                guard element < heap[parent] else { break }
                (heap + hole).moveInitialize(from: heap + parent, count: 1)
                hole = parent
            }
            (heap + hole).initialize(to: element)
        }
    }
}
