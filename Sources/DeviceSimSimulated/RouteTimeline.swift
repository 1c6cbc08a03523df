import DeviceSimHAL
import DeviceSimTime

/// Where a moving device is at a given time along a ``Route``: the route turned into timed legs.
///
/// Positions are interpolated along great circles at constant speed within each leg; during a pause the
/// device stands still with speed 0.
///
/// ```swift
/// let timeline = RouteTimeline(route)
/// let state = timeline.state(at: .seconds(90))
/// state.coordinate; state.speed; state.course
/// ```
public struct RouteTimeline: Sendable {
    /// One timed piece of a route: travelling from one point to the next, or standing still.
    struct Leg: Sendable {
        let startSeconds: Double
        let endSeconds: Double
        let segment: GreatCircleSegment
        var from: GeoCoordinate { segment.from }
        let fromAltitude: Double?
        let toAltitude: Double?
        let speed: Double
        let course: Double?
    }

    /// Position, speed and course at one moment.
    public struct State: Sendable, Hashable {
        /// Where the device is.
        public var coordinate: GeoCoordinate
        /// Altitude, when the route gives one.
        public var altitude: Double?
        /// Speed in m/s.
        public var speed: Double
        /// Course over ground in degrees, when moving.
        public var course: Double?
        /// Whether the route is finished.
        public var finished: Bool
    }

    /// (A `var` only so that ``prefetchLeg(_:)`` reads it in place.)
    private(set) var legs: [Leg]
    let end: GeoCoordinate
    let endAltitude: Double?

    /// How long the whole route takes, pauses included.
    public let duration: Duration

    /// Builds the timed legs of `route`.
    public init(_ route: Route) {
        var legs: [Leg] = []
        var clock = 0.0
        var position = route.start
        var altitude = route.startAltitude
        for waypoint in route.waypoints {
            let distance = position.distance(to: waypoint.coordinate)
            let speed = waypoint.speed ?? route.speed
            if distance > 0, speed > 0 {
                let travel = distance / speed
                legs.append(Leg(
                    startSeconds: clock, endSeconds: clock + travel, segment: GreatCircleSegment(from: position, to: waypoint.coordinate),
                    fromAltitude: altitude, toAltitude: waypoint.altitude ?? altitude,
                    speed: speed, course: position.bearing(to: waypoint.coordinate)
                ))
                clock += travel
            }
            position = waypoint.coordinate
            altitude = waypoint.altitude ?? altitude
            let pause = waypoint.pause.inSeconds
            if pause > 0 {
                legs.append(Leg(
                    startSeconds: clock, endSeconds: clock + pause, segment: GreatCircleSegment(from: position, to: position),
                    fromAltitude: altitude, toAltitude: altitude, speed: 0, course: nil
                ))
                clock += pause
            }
        }
        self.legs = legs
        self.end = position
        self.endAltitude = altitude
        // Saturated: thousands of long pauses, or a crawl across the globe, add up to more than a
        // duration holds; no run lasts that long, so the route simply has not ended by then.
        self.duration = clock < Self.longestDuration.inSeconds ? .nanoseconds(Int64((clock * 1e9).rounded())) : Self.longestDuration
    }

    /// The fastest leg's speed, m/s (0 for a route without travel): the route's position is never
    /// farther from where it was than this times the time since.
    var maximumSpeed: Double { legs.reduce(0) { max($0, $1.speed) } }

    /// Whether every state of the route has an altitude (true), none has (false), or it depends on
    /// the time (nil: the route gains one at a waypoint).
    var hasAltitude: Bool? {
        // A state's altitude is its leg's `fromAltitude` (interpolated towards `toAltitude` when both
        // are known), or `endAltitude` before the start of a route without legs and after the end.
        let withAltitude = legs.reduce(endAltitude == nil ? 0 : 1) { $0 + ($1.fromAltitude == nil ? 0 : 1) }
        if withAltitude == 0 { return false }
        if withAltitude == legs.count + 1 { return true }
        return nil
    }

    /// The longest ``duration`` a timeline reports (100 years, far beyond any run): a route that
    /// takes longer is still on its way at the end of any run.
    public static let longestDuration: Duration = .seconds(100 * 365 * 86_400)

    /// The state `elapsed` after the route started (before 0: at the start; after the end: at the end).
    public func state(at elapsed: Duration) -> State {
        var copy = self
        var leg = 0
        return copy.state(at: elapsed, leg: &leg)
    }

    /// The state `elapsed` after the route started, looked up from `leg` (the index of the leg of a
    /// previous lookup: a device asking every second is usually still on it, or on the next), which
    /// is set to the leg found.
    ///
    /// `mutating`, though it changes nothing, so that a timeline stored in an object is read in
    /// place: a non-mutating call works on a copy, whose legs are retained first (an atomic write to
    /// a buffer a fleet's tick has often not loaded yet).
    mutating func state(at elapsed: Duration, leg hint: inout Int) -> State {
        state(atSeconds: elapsed.inSeconds, leg: &hint)
    }

    /// The state `seconds` after the route started (as ``state(at:leg:)`` with `elapsed.inSeconds`).
    mutating func state(atSeconds seconds: Double, leg hint: inout Int) -> State {
        guard let index = legIndex(at: seconds, hint: hint) else {
            if let first = legs.first, seconds < first.startSeconds || seconds <= 0 {
                return State(coordinate: first.from, altitude: first.fromAltitude, speed: 0, course: nil, finished: false)
            }
            return State(coordinate: end, altitude: endAltitude, speed: 0, course: nil, finished: true)
        }
        hint = index
        let leg = legs[index]
        let span = leg.endSeconds - leg.startSeconds
        let fraction = span > 0 ? (seconds - leg.startSeconds) / span : 1
        let coordinate = leg.speed > 0 ? leg.segment.point(at: fraction) : leg.from
        var altitude = leg.fromAltitude
        if let a = leg.fromAltitude, let b = leg.toAltitude { altitude = a + (b - a) * fraction }
        return State(coordinate: coordinate, altitude: altitude, speed: leg.speed, course: leg.course, finished: false)
    }

    /// The leg containing `seconds`, nil before the start or after the end: leg `hint` or the one
    /// after it when one of them contains it, else by binary search. (Each leg starts where the one
    /// before ends, so a leg that contains `seconds` is the one the search finds.)
    private func legIndex(at seconds: Double, hint: Int) -> Int? {
        for index in hint..<min(hint + 2, legs.count) {
            if legs[index].startSeconds <= seconds, seconds < legs[index].endSeconds { return index }
        }
        guard let first = legs.first, let last = legs.last, seconds >= first.startSeconds, seconds < last.endSeconds else {
            return nil
        }
        var low = 0, high = legs.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if legs[middle].startSeconds <= seconds { low = middle } else { high = middle - 1 }
        }
        return low
    }

    /// Starts loading the legs' header and leg `index` (see ``TickPrefetching``).
    mutating func prefetchLeg(_ index: Int) {
        Prefetch.elements(of: legs)
        Prefetch.element(index, of: &legs)
    }
}
