/// A first-in first-out queue in one ring buffer: append and remove-first in O(1), without moving
/// the other elements, touching memory in order. The ticks lanes of ``EventScheduler`` are kept in
/// these.
///
/// ```swift
/// let queue = RingQueue<Int>()
/// queue.append(1); queue.append(2)
/// queue.first { $0 }   // 1
/// queue.removeFirst()  // 1, then 2
/// ```
final class RingQueue<Element> {
    private var storage: UnsafeMutablePointer<Element>
    /// A power of two.
    private var capacity: Int
    private var start = 0
    /// The number of elements.
    private(set) var count = 0

    /// An empty queue.
    init() {
        capacity = 16
        storage = .allocate(capacity: capacity)
    }

    deinit {
        for offset in 0..<count { (storage + ((start + offset) & (capacity - 1))).deinitialize(count: 1) }
        storage.deallocate()
    }

    /// Whether the queue holds no element.
    var isEmpty: Bool { count == 0 }

    /// `key` of the first element, read in place; nil when empty.
    @inline(__always)
    func first<Key>(_ key: (borrowing Element) -> Key) -> Key? {
        count == 0 ? nil : key(storage[start])
    }

    /// `key` of the element `offset` places after the first, read in place; nil past the end.
    @inline(__always)
    func element<Key>(at offset: Int, _ key: (borrowing Element) -> Key) -> Key? {
        offset < count ? key(storage[(start &+ offset) & (capacity &- 1)]) : nil
    }

    /// Adds `element` at the end.
    func append(_ element: consuming Element) {
        if count == capacity { grow() }
        (storage + ((start + count) & (capacity - 1))).initialize(to: element)
        count += 1
    }

    /// Removes and returns the first element; the queue must not be empty.
    func removeFirst() -> Element {
        precondition(count > 0, "removeFirst() on an empty queue")
        let element = (storage + start).move()
        start = (start + 1) & (capacity - 1)
        count -= 1
        return element
    }

    private func grow() {
        let larger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
        let firstPart = capacity - start
        (larger).moveInitialize(from: storage + start, count: Swift.min(firstPart, count))
        if count > firstPart { (larger + firstPart).moveInitialize(from: storage, count: count - firstPart) }
        storage.deallocate()
        storage = larger
        capacity *= 2
        start = 0
    }
}
