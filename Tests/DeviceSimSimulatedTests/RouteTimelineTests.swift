import DeviceSimHAL
import DeviceSimSimulated
import DeviceSimTime
import Testing

@Suite struct RouteTimelineTests {
    let start = GeoCoordinate(latitude: 0, longitude: 0)
    // 1 degree of longitude at the equator: 111,195 m.
    let east = GeoCoordinate(latitude: 0, longitude: 1)

    @Test func constantSpeedAlongALeg() {
        let route = Route(start: start, waypoints: [.init(east)], speed: 100)
        let timeline = RouteTimeline(route)
        #expect(abs(timeline.duration.inSeconds - 1_111.95) < 0.01)
        let state = timeline.state(at: .seconds(500))
        #expect(abs(start.distance(to: state.coordinate) - 50_000) < 0.01)
        #expect(state.speed == 100)
        #expect(abs((state.course ?? -1) - 90) < 1e-6)
        #expect(!state.finished)
    }

    @Test func pausesStandStillThenTheNextLegUsesItsOwnSpeed() {
        let middle = GeoCoordinate(latitude: 0, longitude: 0.01)  // 1,111.95 m
        let route = Route(start: start, waypoints: [
            .init(middle, speed: SpeedPreset.walk.metresPerSecond, pause: .seconds(60)),
            .init(GeoCoordinate(latitude: 0, longitude: 0.02), speed: SpeedPreset.drive.metresPerSecond),
        ])
        let timeline = RouteTimeline(route)
        let walkTime = 1_111.95 / 1.4
        let paused = timeline.state(at: .seconds(walkTime + 30))
        #expect(paused.speed == 0)
        #expect(paused.coordinate.distance(to: middle) < 0.01)
        let driving = timeline.state(at: .seconds(walkTime + 60 + 10))
        #expect(driving.speed == 14)
        #expect(abs(middle.distance(to: driving.coordinate) - 140) < 0.01)
        let end = timeline.state(at: .seconds(10_000))
        #expect(end.finished)
        #expect(end.coordinate.distance(to: GeoCoordinate(latitude: 0, longitude: 0.02)) < 0.01)
    }

    @Test func beforeTheStartTheDeviceIsAtTheStart() {
        let timeline = RouteTimeline(Route(start: start, waypoints: [.init(east)]))
        #expect(timeline.state(at: .seconds(-5)).coordinate == start)
    }

    @Test func presetsAreTheDocumentedSpeeds() {
        #expect(SpeedPreset.allCases.map(\.metresPerSecond) == [1.4, 3, 5, 14])
    }

    @Test func lengthSumsTheLegs() {
        let route = Route(start: start, waypoints: [.init(east), .init(start)])
        #expect(abs(route.length - 2 * 111_195) < 1)
    }
}

/// A device's motion remembers the leg of its last lookup and starts the next one there: the states
/// must be those of a fresh lookup, whatever order the instants come in.
@Suite struct RouteTimelineLegHintTests {
    @Test(arguments: [1, 2, 3] as [UInt64])
    func statesFromTheRememberedLegAreThoseOfAFreshLookup(seed: UInt64) {
        var random = SeededRandomGenerator(seed: seed)
        var waypoints: [Route.Waypoint] = []
        for index in 1...40 {
            let coordinate = GeoCoordinate(latitude: 0.0001 * Double(random.next() % 100), longitude: 0.0005 * Double(index))
            waypoints.append(.init(coordinate, speed: 1 + random.nextUnit() * 10, pause: random.nextUnit() < 0.3 ? .seconds(Int64(random.next() % 60)) : .zero))
        }
        let route = Route(start: GeoCoordinate(latitude: 0, longitude: 0), waypoints: waypoints, speed: 1.4)
        let timeline = RouteTimeline(route)
        let motion = DeviceMotion(at: route.start)
        motion.follow(route, from: .zero)
        let end = timeline.duration.inSeconds
        var instants: [Double] = (0..<400).map { Double($0) * (end + 20) / 400 }   // forwards, past the end
        instants += (0..<200).map { _ in random.nextUnit() * (end + 20) - 10 }       // anywhere, before the start too
        for forward in stride(from: 0, to: end, by: 0.7) { instants += [forward, forward - 4.3] }   // back across leg ends
        for seconds in instants {
            let instant = VirtualInstant(nanoseconds: Int64(seconds * 1e9))
            #expect(motion.state(at: instant) == timeline.state(at: .nanoseconds(instant.nanoseconds)), "at \(seconds) s")
        }
    }
}
