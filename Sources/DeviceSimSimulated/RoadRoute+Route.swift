import DeviceSimHAL
import DeviceSimRoads

extension Route {
    /// The route a device travels along `road`: every road node a waypoint, each leg at its road's
    /// speed for the route's mode (points that repeat the previous one are dropped).
    public init(_ road: RoadRoute) {
        var waypoints: [Waypoint] = []
        var previous = road.points[0]
        for (point, speed) in zip(road.points.dropFirst(), road.speeds) where point != previous && speed > 0 {
            waypoints.append(Waypoint(point, speed: speed))
            previous = point
        }
        self.init(start: road.points[0], waypoints: waypoints, speed: RoutePlanner.offRoadSpeed(road.mode))
    }
}
