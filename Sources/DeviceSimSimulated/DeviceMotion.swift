import DeviceSimHAL
import DeviceSimTime

/// Where a simulated device physically is over time: standing somewhere, or following a route that
/// started at some virtual instant.
///
/// ```swift
/// let motion = DeviceMotion(at: home)
/// motion.follow(route, from: scheduler.now)
/// motion.state(at: scheduler.now.advanced(by: .minutes(2))).coordinate
/// ```
public final class DeviceMotion {
    // The state below is touched by the simulation's thread only, one access at a time: no dynamic
    // exclusivity checks on it (they were a measurable share of every tick). What a lookup reads
    // first comes first: a lookup the cache answers reads the object's first two cache lines only.
    /// The state last looked up and the instants (nanoseconds) it holds for: one instant while the
    /// device moves (the GPS, the Wi-Fi scan and beacon ranging often ask at the same instant); from
    /// the earliest instant seen past the route's end, every later one (the device stands there, and
    /// its state is read without the route's legs).
    @exclusivity(unchecked) private var cached: (from: Int64, until: Int64, state: RouteTimeline.State)?
    /// The route's leg of the latest lookup, where the next one starts looking.
    @exclusivity(unchecked) private var leg = 0
    @exclusivity(unchecked) private var timeline: RouteTimeline?
    @exclusivity(unchecked) private var routeStart = VirtualInstant.zero
    @exclusivity(unchecked) private var restingAt: GeoCoordinate
    @exclusivity(unchecked) private var restingAltitude: Double?
    /// The highest speed of the motion, m/s: 0 while standing still, the fastest leg's of a route
    /// (the device is never farther from where it was than this times the time since, until the
    /// motion changes: see ``beforeChange(_:)``).
    @exclusivity(unchecked) private(set) var maximumSpeed = 0.0
    /// Whether every state of the motion has an altitude (true), none has (false), or it depends on
    /// the instant (nil: a route that gains one at a waypoint).
    @exclusivity(unchecked) private(set) var hasAltitude: Bool? = false
    /// Called before the motion changes (see ``beforeChange(_:)``).
    private var beforeChangeHandlers: [() -> Void] = []

    /// A device standing at `coordinate`.
    public init(at coordinate: GeoCoordinate, altitude: Double? = nil) {
        restingAt = coordinate
        restingAltitude = altitude
        hasAltitude = altitude != nil
    }

    /// Starts following `route` at `start`; the route's own start point is where the device is then.
    public func follow(_ route: Route, from start: VirtualInstant) {
        willChange()
        let timeline = RouteTimeline(route)
        self.timeline = timeline
        routeStart = start
        leg = 0
        cached = nil
        restingAt = route.waypoints.last?.coordinate ?? route.start
        maximumSpeed = timeline.maximumSpeed
        hasAltitude = timeline.hasAltitude
    }

    /// Puts the device at `coordinate` at once and stops any route.
    public func place(at coordinate: GeoCoordinate, altitude: Double? = nil) {
        willChange()
        timeline = nil
        cached = nil
        restingAt = coordinate
        restingAltitude = altitude ?? restingAltitude
        maximumSpeed = 0
        hasAltitude = restingAltitude != nil
    }

    /// Calls `handler` before each later change of motion (``follow(_:from:)``, ``place(at:altitude:)``):
    /// a driver that kept an instant to look up later looks it up while the old motion still holds,
    /// and one that keeps what it learnt of the motion (``maximumSpeed``, ``hasAltitude``) forgets it.
    func beforeChange(_ handler: @escaping () -> Void) {
        beforeChangeHandlers.append(handler)
    }

    private func willChange() {
        for handler in beforeChangeHandlers { handler() }
    }

    /// When the current route ends (nil when standing still).
    public var routeEnd: VirtualInstant? {
        timeline.map { routeStart.advanced(by: $0.duration) }
    }

    /// Starts loading this object's state (see ``TickPrefetching``): the drivers that ask for a state
    /// every tick name their motion among what their tick reads (at level 0).
    public func prefetch() {
        Prefetch.object(self, lines: 3)
    }

    /// Starts loading the route's leg that the next lookup starts from; this object must be cached
    /// by now (prefetched with ``prefetch()`` a tick earlier: the drivers name this at level 1).
    public func prefetchRoute() {
        if cached?.until != .max { timeline?.prefetchLeg(leg) }
    }

    /// Position, speed and course at `instant`.
    public func state(at instant: VirtualInstant) -> RouteTimeline.State {
        if let cached, cached.from <= instant.nanoseconds, instant.nanoseconds <= cached.until { return cached.state }
        // Read in place (a mutating lookup on the stored timeline): a copy would retain its legs,
        // an atomic write to memory that a fleet's tick has often not loaded yet.
        guard let state = timeline?.state(atSeconds: instant.seconds(since: routeStart), leg: &leg) else {
            return RouteTimeline.State(coordinate: restingAt, altitude: restingAltitude, speed: 0, course: nil, finished: true)
        }
        // Past the end, the state no longer changes (until the next `follow` or `place`).
        cached = (instant.nanoseconds, state.finished ? .max : instant.nanoseconds, state)
        return state
    }
}
