/// One arc of a ``ContractionHierarchy`` as a query reads it: the rank of the arc's other end and the
/// time half of its exact cost (``RouteCost``'s high 64 bits). The cost's tie-breaker and the node a
/// shortcut bypasses lie in a parallel array (``HierarchyArcDetail``), read only when two times are
/// equal, when a cost is lowered and when a path is unpacked.
///
/// An arc takes 12 bytes (the time kept as two 32-bit halves, so that nothing is aligned to 8): a
/// search reads a rank's arcs one after the other, and the fewer cache lines they span the faster it
/// goes (foot queries on Helsinki, one after the other: 34.6 µs of CPU against 39.4 µs with the
/// whole cost and the middle rank in a 24-byte arc, and the search comparing 128-bit costs).
///
/// ```swift
/// let cost = RouteCost(seconds: 12, from: 3, to: 9)
/// let arc = HierarchyArc(end: 7, time: cost.time)
/// arc.time == cost.time   // true
/// ```
struct HierarchyArc: Equatable, BitwiseCopyable {
    /// The rank of the other end: above the arc's owner in both of a node's lists.
    var end: Int32
    private var timeLow: UInt32
    private var timeHigh: UInt32

    init(end: Int32, time: UInt64) {
        self.end = end
        timeLow = UInt32(truncatingIfNeeded: time)
        timeHigh = UInt32(truncatingIfNeeded: time >> 32)
    }

    /// The cost's time in fixed point (``RouteCost/time``).
    var time: UInt64 {
        @inline(__always) get { UInt64(timeHigh) << 32 | UInt64(timeLow) }
    }
}
