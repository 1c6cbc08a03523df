/// The exact cost by which the route searches (``RouteSearch`` and ``HierarchySearch``) compare
/// paths: travel time in fixed point, then a tie-breaker, so that every search finds the same path.
///
/// Summing `Double` seconds depends on the order of the additions, and paths of equal time are
/// chosen by whichever a search happens to settle first: two correct searches (A* and a
/// contraction hierarchy) could return two different paths of the same time. A cost is an exact
/// integer sum instead, the same in any order, and two paths of equal time are told apart by
/// their tie-breakers:
/// - the high 64 bits: the time in units of 2⁻³² s, each edge's rounded up (exact sums up to 2³¹ s);
/// - the low 64 bits: the sum of the path's edges' tie-breakers, each a hash of the edge's two
///   nodes in `1...2⁴⁰`, so that no sum reaches the high bits (a path has fewer than 2²³ edges).
///
/// The least cost is then the least time (to within the rounding, a few nanoseconds a route: only
/// paths whose times are equal in all but the last bits can swap), and among paths of equal time
/// the one of least tie-breaker sum, whichever search finds it. Route times are still summed from
/// the edges' `Double` seconds along the chosen path, in travel order.
///
/// ```swift
/// let cost = RouteCost(seconds: 72, from: 0, to: 1)
/// let total = RouteCost(seconds: 3) + cost   // a departure's own seconds, then the edge
/// ```
struct RouteCost: Comparable, Hashable, Sendable {
    /// Time (fixed point) in the high 64 bits, tie-breaker in the low.
    var bits: UInt128

    /// Fixed-point units per second.
    static let unitsPerSecond = 4_294_967_296.0
    /// Above this many seconds a time is taken as this many (no real route is this long).
    static let longestSeconds = 2_147_483_648.0

    /// A cost from its bits.
    init(bits: UInt128) { self.bits = bits }

    /// A cost from its two halves.
    init(time: UInt64, tieBreaker: UInt64) { bits = UInt128(time) << 64 | UInt128(tieBreaker) }

    /// The time in fixed point (the high 64 bits). A sum of costs sums the times and the
    /// tie-breakers apart (the tie-breakers never carry into the time), so two costs compare as
    /// their times, then their tie-breakers.
    var time: UInt64 { UInt64(truncatingIfNeeded: bits >> 64) }
    /// The tie-breaker (the low 64 bits).
    var tieBreaker: UInt64 { UInt64(truncatingIfNeeded: bits) }

    /// No cost.
    static let zero = RouteCost(bits: 0)
    /// More than any path's cost (never added to).
    static let infinity = RouteCost(bits: .max)

    /// `seconds` (>= 0) rounded up to the fixed point, with no tie-breaker: an endpoint's own time.
    init(seconds: Double) { bits = UInt128(Self.units(seconds, roundingUp: true)) << 64 }

    /// The cost of the edge `from → to` taking `seconds`.
    init(seconds: Double, from: Int32, to: Int32) {
        bits = UInt128(Self.units(seconds, roundingUp: true)) << 64 | UInt128(Self.tieBreaker(from: from, to: to))
    }

    /// A lower bound of `seconds` (already a lower bound of a travel time) as a cost: rounded down
    /// with a margin of a billionth, so that it stays below the cost of every path of at least that
    /// time.
    static func lowerBound(seconds: Double) -> RouteCost {
        RouteCost(bits: UInt128(units(seconds * (1 - 1e-9), roundingUp: false)) << 64)
    }

    /// The time in seconds (the fixed point, without the tie-breaker).
    var seconds: Double { Double(UInt64(truncatingIfNeeded: bits >> 64)) / Self.unitsPerSecond }

    @inline(__always)
    static func + (lhs: RouteCost, rhs: RouteCost) -> RouteCost { RouteCost(bits: lhs.bits + rhs.bits) }

    @inline(__always)
    static func < (lhs: RouteCost, rhs: RouteCost) -> Bool { lhs.bits < rhs.bits }

    private static func units(_ seconds: Double, roundingUp: Bool) -> UInt64 {
        let scaled = (min(max(seconds, 0), longestSeconds) * unitsPerSecond)
        return UInt64(roundingUp ? scaled.rounded(.up) : scaled.rounded(.down))
    }

    /// The tie-breaker of the edge `from → to`: a hash of its nodes (SplitMix64's finaliser) in
    /// `1...2⁴⁰`.
    static func tieBreaker(from: Int32, to: Int32) -> UInt64 {
        var z = UInt64(UInt32(bitPattern: from)) << 32 | UInt64(UInt32(bitPattern: to))
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        z ^= z >> 31
        return (z >> 24) + 1
    }
}
