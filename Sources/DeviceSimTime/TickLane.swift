/// Ticks of repeating events that share an interval, in a first-in first-out ring buffer instead of
/// ``EventScheduler``'s heap.
///
/// A tick is queued when the one before it runs, one interval later, and the scheduler's clock
/// never goes back: so ticks enter a lane in (instant, sequence) order, and the lane's first entry
/// is its earliest. Taking the earliest of the heap and the lanes' firsts runs events in exactly
/// the order one heap would, at O(1) per tick instead of O(log n) and without the heap's scattered
/// reads.
///
/// A lane is plain memory (its entries hold their events through `Unmanaged` references): the
/// scheduler keeps its lanes in one block and reads and changes them in place, so taking a tick
/// costs no retain or release of a lane or its buffer. Its owner calls ``free()`` once, when it
/// is done with it.
///
/// ```swift
/// var lane = TickLane(interval: 1_000_000_000)
/// lane.append(entry)
/// lane.first { $0.instant }   // entry's instant
/// lane.removeFirst()          // entry
/// lane.free()
/// ```
struct TickLane {
    /// The interval of the lane's events, in nanoseconds.
    let interval: Int64
    /// The instant of the latest tick queued.
    var lastInstant = Int64.min
    private var storage: UnsafeMutablePointer<TickEntry>
    private var capacity: Int
    private var start = 0
    /// How many ticks are queued.
    private(set) var count = 0

    /// An empty lane for events repeating every `interval` nanoseconds.
    init(interval: Int64) {
        self.interval = interval
        capacity = 16
        storage = .allocate(capacity: capacity)
    }

    /// Lets go of the events of the ticks still queued and frees the buffer; the lane is not used
    /// again.
    mutating func free() {
        while count > 0 { removeFirst().event.release() }
        storage.deallocate()
    }

    /// `key` of the first entry, nil when the lane is empty.
    @inline(__always)
    func first<Key>(_ key: (TickEntry) -> Key) -> Key? {
        count == 0 ? nil : key(storage[start])
    }

    /// `key` of the entry `offset` places from the first, nil past the last.
    @inline(__always)
    func element<Key>(at offset: Int, _ key: (TickEntry) -> Key) -> Key? {
        offset < count ? key(storage[(start &+ offset) & (capacity &- 1)]) : nil
    }

    /// Queues `entry` last.
    mutating func append(_ entry: TickEntry) {
        if count == capacity { grow() }
        storage[(start &+ count) & (capacity &- 1)] = entry
        count += 1
    }

    /// Takes the first entry; the lane must not be empty.
    mutating func removeFirst() -> TickEntry {
        precondition(count > 0, "removeFirst() on an empty lane")
        let entry = storage[start]
        start = (start &+ 1) & (capacity &- 1)
        count -= 1
        return entry
    }

    private mutating func grow() {
        let larger = UnsafeMutablePointer<TickEntry>.allocate(capacity: capacity * 2)
        let firstPart = capacity - start
        larger.update(from: storage + start, count: Swift.min(firstPart, count))
        if count > firstPart { (larger + firstPart).update(from: storage, count: count - firstPart) }
        storage.deallocate()
        storage = larger
        capacity *= 2
        start = 0
    }
}

/// A tick in a lane: when, its sequence number, its event, and the object the event calls (if it
/// was made with one), all readable without touching the event. The lane holds the event retained
/// through an `Unmanaged` reference, so that reading an entry a few places down the lane (to
/// prefetch its objects) retains nothing: a retain writes to the object, which would wait for it to
/// load.
struct TickEntry {
    let instant: Int64
    let sequence: UInt64
    let event: Unmanaged<RepeatingEvent>
    let target: UnsafeRawPointer?
}
