/// A set of event sequence numbers: open addressing with linear probing and a multiplicative hash,
/// behind a bitmap that answers most lookups of absent elements.
///
/// The scheduler asks it about every event of its heap it runs (was this one cancelled?), so a lookup is
/// a multiply, a shift and, nearly always, one probe, where `Set<UInt64>` hashes with SipHash. In a
/// fleet the set holds tens of thousands of cancelled events not yet due (timeouts that were not
/// needed), and a probe into a table that large, at a random place, was a cache miss for nearly
/// every event run (80 % of the scheduler loop's own time at 10,000 devices). So a lookup first
/// reads one bit, indexed by the element's low bits, of a bitmap a sixteenth of the table's size:
/// the bit is clear unless some element shares those bits, and then the element is absent. Each
/// bit's elements are counted (``filterCounts``), so a removal clears the bit of its last one.
///
/// ```swift
/// var cancelled = SequenceSet()
/// cancelled.insert(42)
/// cancelled.contains(42)  // true
/// cancelled.remove(42)
/// ```
struct SequenceSet {
    /// `empty` marks a free slot (`UInt64.max` is never a sequence number a scheduler hands out).
    private static let empty = UInt64.max
    private var slots = [UInt64](repeating: SequenceSet.empty, count: 16)
    /// The number of elements.
    private(set) var count = 0
    /// One bit per filter position (an element's low bits): set while an element with those bits
    /// is in the set. Four positions a slot, so at most one in eight is set.
    private var filterBits = [UInt64](repeating: 0, count: 1)
    /// How many elements have each filter position (255: that many or more, and never lowered again,
    /// so its bit stays set until the filter is rebuilt: a slower lookup, never a wrong one).
    private var filterCounts = [UInt8](repeating: 0, count: 64)

    /// An empty set.
    init() {}

    /// Whether the set holds no element.
    var isEmpty: Bool { count == 0 }

    @inline(__always)
    private func home(of element: UInt64) -> Int {
        Int(truncatingIfNeeded: (element &* 0x9e37_79b9_7f4a_7c15) >> UInt64(64 - slots.count.trailingZeroBitCount))
    }

    /// The filter position of `element`.
    @inline(__always)
    private func filterPosition(of element: UInt64) -> Int {
        Int(truncatingIfNeeded: element) & (filterCounts.count - 1)
    }

    /// Whether `element` is in the set.
    @inline(__always)
    func contains(_ element: UInt64) -> Bool {
        let position = filterPosition(of: element)
        guard filterBits[position >> 6] & (1 << UInt64(position & 63)) != 0 else { return false }
        let mask = slots.count - 1
        var index = home(of: element)
        while true {
            let slot = slots[index]
            if slot == element { return true }
            if slot == Self.empty { return false }
            index = (index + 1) & mask
        }
    }

    /// Adds `element` (`UInt64.max` excluded).
    mutating func insert(_ element: UInt64) {
        precondition(element != Self.empty, "UInt64.max cannot be stored")
        if (count + 1) * 2 > slots.count { grow() }
        let mask = slots.count - 1
        var index = home(of: element)
        while slots[index] != Self.empty {
            if slots[index] == element { return }
            index = (index + 1) & mask
        }
        slots[index] = element
        count += 1
        let position = filterPosition(of: element)
        if filterCounts[position] < UInt8.max { filterCounts[position] += 1 }
        filterBits[position >> 6] |= 1 << UInt64(position & 63)
    }

    /// Removes `element` if present (backward-shift deletion: no tombstones).
    mutating func remove(_ element: UInt64) {
        let mask = slots.count - 1
        var index = home(of: element)
        while slots[index] != element {
            if slots[index] == Self.empty { return }
            index = (index + 1) & mask
        }
        var hole = index
        var next = (hole + 1) & mask
        while slots[next] != Self.empty {
            let wanted = home(of: slots[next])
            // Move the element at `next` into the hole if its home is not cyclically in (hole, next].
            let distanceToNext = (next - wanted) & mask
            let distanceToHole = (hole - wanted) & mask
            if distanceToHole < distanceToNext {
                slots[hole] = slots[next]
                hole = next
            }
            next = (next + 1) & mask
        }
        slots[hole] = Self.empty
        count -= 1
        let position = filterPosition(of: element)
        if filterCounts[position] < UInt8.max {
            filterCounts[position] -= 1
            if filterCounts[position] == 0 { filterBits[position >> 6] &= ~(1 << UInt64(position & 63)) }
        }
    }

    private mutating func grow() {
        let old = slots
        slots = [UInt64](repeating: Self.empty, count: old.count * 2)
        filterCounts = [UInt8](repeating: 0, count: slots.count * 4)
        filterBits = [UInt64](repeating: 0, count: filterCounts.count / 64)
        count = 0
        for element in old where element != Self.empty { insert(element) }
    }
}
