import DeviceSimHAL

/// Where a position joins a mode's roads: the nearest point of the nearest segment it may use (a
/// virtual node on the segment), and the graph nodes a route leaves that point to and reaches it
/// from, along the segment in the directions the mode may travel it.
///
/// ```swift
/// if let join = network.join(here, for: .foot, within: 100) {
///     print(join.distance, join.point)   // metres off the street, the point on it
/// }
/// ```
public struct RoadJoin: Sendable, Hashable {
    /// A graph node reached from the join point, or from which it is reached, along its segment.
    public struct Anchor: Sendable, Hashable {
        /// The graph node.
        public var node: Int32
        /// Travel time along the piece of segment, seconds.
        public var seconds: Double
        /// Length of the piece of segment, metres.
        public var metres: Double
        /// The segment's speed that way, m/s.
        public var speed: Double
    }

    /// The position.
    public var position: GeoCoordinate
    /// The point of the street it joins.
    public var point: GeoCoordinate
    /// Metres from the position to the point.
    public var distance: Double
    /// The segment (an index of the network's segments for the mode).
    public var segment: Int
    /// Where the point is along the segment (0 at its first node, 1 at its last).
    public var fraction: Double
    /// The segment's length, metres.
    public var length: Double
    /// Seconds along the whole segment forward and backward (infinity: closed that way).
    public var forwardSeconds: Double, backwardSeconds: Double
    /// Where routes leave the point to.
    public var departures: [Anchor]
    /// Where routes reach the point from.
    public var arrivals: [Anchor]

    /// The join without its anchors.
    var segmentJoin: SegmentJoin {
        SegmentJoin(position: position, point: point, distance: distance, segment: segment, fraction: fraction, length: length,
                    forwardSeconds: forwardSeconds, backwardSeconds: backwardSeconds)
    }

    /// `join` with its anchors.
    init(_ join: SegmentJoin, departures: [Anchor], arrivals: [Anchor]) {
        (position, point, distance, segment, fraction, length) = (join.position, join.point, join.distance, join.segment, join.fraction, join.length)
        (forwardSeconds, backwardSeconds, self.departures, self.arrivals) = (join.forwardSeconds, join.backwardSeconds, departures, arrivals)
    }

    /// Whether `other` is the same point of the same segment.
    public func isAtSamePoint(as other: RoadJoin) -> Bool { segmentJoin.isAtSamePoint(as: other.segmentJoin) }

    /// The travel along the segment straight from this point to `other` on the same segment, if the
    /// mode may go that way: (seconds, metres, speed m/s).
    public func alongSegment(to other: RoadJoin) -> (seconds: Double, metres: Double, speed: Double)? {
        segmentJoin.alongSegment(to: other.segmentJoin)
    }
}

/// Where a position joins a mode's roads, as a ``RoadJoin`` without its anchors (nothing on the
/// heap): what ``RoutePlanner`` keeps of each stop, taking a join's anchors only for the legs that
/// leave or reach it (``RoadNetwork/forEachAnchor(of:fraction:length:graph:splits:departing:_:)``).
struct SegmentJoin {
    /// The position.
    var position: GeoCoordinate
    /// The point of the street it joins.
    var point: GeoCoordinate
    /// Metres from the position to the point.
    var distance: Double
    /// The segment (an index of the network's segments for the mode).
    var segment: Int
    /// Where the point is along the segment (0 at its first node, 1 at its last).
    var fraction: Double
    /// The segment's length, metres.
    var length: Double
    /// Seconds along the whole segment forward and backward (infinity: closed that way).
    var forwardSeconds: Double, backwardSeconds: Double

    /// Whether `other` is the same point of the same segment.
    func isAtSamePoint(as other: SegmentJoin) -> Bool { segment == other.segment && fraction == other.fraction }

    /// The travel along the segment straight from this point to `other` on the same segment, if the
    /// mode may go that way: (seconds, metres, speed m/s).
    func alongSegment(to other: SegmentJoin) -> (seconds: Double, metres: Double, speed: Double)? {
        guard segment == other.segment else { return nil }
        let share = other.fraction - fraction
        let seconds = share >= 0 ? forwardSeconds : backwardSeconds
        guard seconds.isFinite else { return nil }
        return (abs(share) * seconds, abs(share) * length, seconds > 0 ? length / seconds : 0)
    }
}
