import DeviceSimHAL
import DeviceSimSimulated
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
