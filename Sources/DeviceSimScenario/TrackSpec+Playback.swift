import DeviceSimHAL
import DeviceSimSimulated
import DeviceSimTime

extension TrackSpec {
    /// `route` as this track plays it: its speeds multiplied and its pauses divided by ``speedFactor``.
    package func playing(_ route: Route) -> Route {
        var scaled = route
        scaled.speed *= speedFactor
        scaled.waypoints = route.waypoints.map { waypoint in
            var copy = waypoint
            copy.speed = waypoint.speed.map { $0 * speedFactor }
            copy.pause = .nanoseconds(Self.saturating(Double(waypoint.pause.wholeNanoseconds) / speedFactor))
            return copy
        }
        return scaled
    }

    /// When a pass of the track that begins at `instant` starts along its route: the first pass
    /// starts ``startOffset`` (at the playback rate) before zero, later passes where they begin.
    package func routeStart(forPassAt instant: VirtualInstant) -> VirtualInstant {
        guard instant == .zero else { return instant }
        return VirtualInstant(nanoseconds: -Self.saturating(Double(startOffset.wholeNanoseconds) / speedFactor))
    }

    /// `nanoseconds` truncated to a whole number, within ±4e18 (about 126 years, far beyond any run,
    /// and far from overflowing when added to a run's instants).
    static func saturating(_ nanoseconds: Double) -> Int64 {
        guard !nanoseconds.isNaN else { return 0 }
        return Int64(min(max(nanoseconds, -4e18), 4e18))
    }
}
