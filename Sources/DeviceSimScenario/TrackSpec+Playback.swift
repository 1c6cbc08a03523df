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
            copy.pause = .nanoseconds(Int64(Double(waypoint.pause.wholeNanoseconds) / speedFactor))
            return copy
        }
        return scaled
    }

    /// When a pass of the track that begins at `instant` starts along its route: the first pass
    /// starts ``startOffset`` (at the playback rate) before zero, later passes where they begin.
    package func routeStart(forPassAt instant: VirtualInstant) -> VirtualInstant {
        guard instant == .zero else { return instant }
        return VirtualInstant(nanoseconds: -Int64(Double(startOffset.wholeNanoseconds) / speedFactor))
    }
}
