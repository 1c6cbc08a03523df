import DeviceSimHAL
import DeviceSimSimulated
import DeviceSimTime
import Testing

@Suite struct DeviceMotionTests {
    let home = GeoCoordinate(latitude: 60.17, longitude: 24.94)

    /// Past the end of a route the motion answers from the end state it saw; an earlier instant
    /// asked afterwards, or a new route, must still get their own states.
    @Test func theEndStateIsKeptOnlyForLaterInstantsOfTheSameRoute() {
        let motion = DeviceMotion(at: home)
        let route = Route(start: home, waypoints: [Route.Waypoint(home.offsetBy(east: 300, north: 0), speed: 1.5)])
        let timeline = RouteTimeline(route)
        motion.follow(route, from: .zero)
        let end = VirtualInstant(offset: timeline.duration)
        let afterEnd = motion.state(at: end.advanced(by: .seconds(10)))
        #expect(afterEnd.finished)
        #expect(motion.state(at: end.advanced(by: .seconds(500))) == afterEnd)
        let middle = VirtualInstant(offset: .seconds(100))
        #expect(motion.state(at: middle) == timeline.state(at: .seconds(100)))
        #expect(!motion.state(at: middle).finished)
        // A new route from where the first ended: the kept end state must not answer for it.
        let back = Route(start: afterEnd.coordinate, waypoints: [Route.Waypoint(home, speed: 1.5)])
        motion.follow(back, from: end.advanced(by: .seconds(600)))
        let onTheWayBack = motion.state(at: end.advanced(by: .seconds(700)))
        #expect(!onTheWayBack.finished)
        #expect(onTheWayBack.coordinate != afterEnd.coordinate)
    }
}
