/// A set of event sequence numbers: open addressing with linear probing and a multiplicative hash.
///
/// The scheduler asks it about almost every one-shot event it runs (was this one cancelled?), so a
/// lookup is a multiply, a shift and, nearly always, one probe, where `Set<UInt64>` hashes with
/// SipHash.
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

    /// An empty set.
    init() {}

    /// Whether the set holds no element.
    var isEmpty: Bool { count == 0 }

    @inline(__always)
    private func home(of element: UInt64) -> Int {
        Int(truncatingIfNeeded: (element &* 0x9e37_79b9_7f4a_7c15) >> UInt64(64 - slots.count.trailingZeroBitCount))
    }

    /// Whether `element` is in the set.
    @inline(__always)
    func contains(_ element: UInt64) -> Bool {
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
    }

    private mutating func grow() {
        let old = slots
        slots = [UInt64](repeating: Self.empty, count: old.count * 2)
        count = 0
        for element in old where element != Self.empty { insert(element) }
    }
}
