/// What a ``HierarchyArc`` leaves out, at the same index of a parallel array: the tie-breaker half of
/// the arc's exact cost (``RouteCost/tieBreaker``) and the rank of the node a shortcut bypasses (-1:
/// an edge of the graph).
///
/// ```swift
/// let cost = RouteCost(seconds: 12, from: 3, to: 9)
/// let detail = HierarchyArcDetail(tieBreaker: cost.tieBreaker, middle: -1)
/// RouteCost(time: cost.time, tieBreaker: detail.tieBreaker) == cost   // true
/// ```
struct HierarchyArcDetail: Equatable, BitwiseCopyable {
    /// The low 64 bits of the arc's cost.
    var tieBreaker: UInt64
    /// The rank of the node a shortcut bypasses (below both ends), or -1 for an edge of the graph.
    var middle: Int32
}
