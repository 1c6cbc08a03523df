/// One arc of a ``ContractionHierarchy`` as its arrays hold it: the rank of the arc's other end, the
/// rank of the node a shortcut bypasses (-1: an edge of the graph) and the arc's exact cost.
///
/// The cost is kept as its two 64-bit halves, so that an arc takes 24 bytes (a ``RouteCost`` is
/// aligned to 16 and would make it 32): a search reads a node's arcs one after the other, and the
/// fewer cache lines they span the faster it goes.
///
/// ```swift
/// let arc = HierarchyArc(end: 7, middle: -1, cost: RouteCost(seconds: 12, from: 3, to: 9))
/// arc.cost.seconds   // 12 (to within 2⁻³² s)
/// ```
struct HierarchyArc: Equatable, BitwiseCopyable {
    /// The cost's tie-breaker (the low 64 bits of ``RouteCost/bits``).
    private var costLow: UInt64
    /// The cost's time in fixed point (the high 64 bits).
    private var costHigh: UInt64
    /// The rank of the other end: above the arc's owner in both of a node's lists.
    var end: Int32
    /// The rank of the node a shortcut bypasses (below both ends), or -1 for an edge of the graph.
    var middle: Int32

    init(end: Int32, middle: Int32, cost: RouteCost) {
        costLow = UInt64(truncatingIfNeeded: cost.bits)
        costHigh = UInt64(truncatingIfNeeded: cost.bits >> 64)
        self.end = end
        self.middle = middle
    }

    /// The arc's exact cost.
    var cost: RouteCost {
        @inline(__always) get { RouteCost(bits: UInt128(costHigh) << 64 | UInt128(costLow)) }
    }
}
