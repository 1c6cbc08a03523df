import DeviceSimHAL
import DeviceSimSimulated
import DeviceSimTime
import Testing

@Suite struct SimulatedGPSTests {
    let home = GeoCoordinate(latitude: 51.5, longitude: -0.12)

    func makeGPS(seed: UInt64 = 1, configure: (inout SimulatedGPS.Configuration) -> Void = { _ in }) -> (EventScheduler, SimulatedGPS, Recorder) {
        let scheduler = EventScheduler()
        var configuration = SimulatedGPS.Configuration()
        configure(&configuration)
        let gps = SimulatedGPS(scheduler: scheduler, motion: DeviceMotion(at: home), configuration: configuration, random: SeededRandomGenerator(seed: seed))
        let recorder = Recorder()
        recorder.subscription = gps.observe { recorder.updates.append(($0, scheduler.now)) }
        return (scheduler, gps, recorder)
    }

    final class Recorder {
        var updates: [(LocationUpdate, VirtualInstant)] = []
        var subscription: ObservationToken?
        var fixes: [LocationFix] { updates.compactMap { if case .fix(let fix) = $0.0 { fix } else { nil } } }
        var unavailable: [(String, VirtualInstant)] {
            updates.compactMap { if case .unavailable(let reason) = $0.0 { (reason, $0.1) } else { nil } }
        }
    }

    @Test func oneFixPerSecondByDefault() throws {
        let (scheduler, gps, recorder) = makeGPS()
        gps.start()
        try scheduler.run(for: .seconds(10))
        #expect(recorder.fixes.count == 11)  // at 0, 1, ..., 10 s
        #expect(recorder.fixes.map(\.receivedAt.seconds) == (0...10).map(Double.init))
        #expect(gps.currentFix != nil)
    }

    /// A receiver nobody observes makes a tick's fix only when `currentFix` is read: what it reads
    /// must be, field for field, the fix an observed twin (same seed, same walk, with altitude,
    /// a signal loss) delivered at that tick, however long after the tick it is read and however
    /// many ticks went unread.
    @Test func aFixReadLaterEqualsTheFixAnObserverGotAtThatTick() throws {
        let scheduler = EventScheduler()
        func receiver() -> (SimulatedGPS, DeviceMotion) {
            let motion = DeviceMotion(at: home, altitude: 35)
            let gps = SimulatedGPS(scheduler: scheduler, motion: motion, random: SeededRandomGenerator(seed: 9))
            return (gps, motion)
        }
        let (observed, observedMotion) = receiver()
        let (unobserved, unobservedMotion) = receiver()
        var delivered: LocationFix?
        let subscription = observed.observe { if case .fix(let fix) = $0 { delivered = fix } }
        let route = Route(start: home, startAltitude: 35, waypoints: [Route.Waypoint(home.offsetBy(east: 400, north: 300), speed: 1.4, altitude: 50)])
        observedMotion.follow(route, from: .zero)
        unobservedMotion.follow(route, from: .zero)
        observed.start()
        unobserved.start()
        for gps in [observed, unobserved] { gps.loseSignal(from: VirtualInstant(offset: .seconds(40)), for: .seconds(15)) }
        var random = SeededRandomGenerator(seed: 3)
        var reads = 0
        for second in 1...200 {
            scheduler.schedule(at: VirtualInstant(offset: .milliseconds(Int64(second) * 1_000 + 500))) {
                guard random.nextUnit() < 0.2 else { return }
                reads += 1
                #expect(unobserved.currentFix == observed.currentFix, "at \(second).5 s")
                #expect(unobserved.currentFix == delivered || observed.currentFix == nil, "at \(second).5 s")
            }
        }
        try scheduler.run(for: .seconds(201))
        #expect(reads > 20)
        #expect(unobserved.currentFix == observed.currentFix && observed.currentFix != nil)
        subscription.cancel()
    }

    @Test func noiseIsConsistentWithTheReportedAccuracy() throws {
        let (scheduler, gps, recorder) = makeGPS { $0.horizontalAccuracy = 10 }
        gps.start()
        try scheduler.run(for: .seconds(2_000))
        let errors = recorder.fixes.map { $0.coordinate.distance(to: home) }
        let within = Double(errors.filter { $0 <= 10 }.count) / Double(errors.count)
        // The reported accuracy is the 68 % radius.
        #expect(within > 0.63 && within < 0.73)
        #expect(recorder.fixes.allSatisfy { $0.horizontalAccuracy == 10 })
    }

    @Test func theSameSeedGivesTheSameFixesAndAnotherSeedOthers() throws {
        func coordinates(seed: UInt64) throws -> [GeoCoordinate] {
            let (scheduler, gps, recorder) = makeGPS(seed: seed)
            gps.start()
            try scheduler.run(for: .seconds(20))
            return recorder.fixes.map(\.coordinate)
        }
        #expect(try coordinates(seed: 7) == coordinates(seed: 7))
        #expect(try coordinates(seed: 7) != coordinates(seed: 8))
    }

    @Test func withoutNoiseFixesAreExact() throws {
        let (scheduler, gps, recorder) = makeGPS { $0.noise = false }
        gps.start()
        try scheduler.run(for: .seconds(3))
        #expect(recorder.fixes.allSatisfy { $0.coordinate == home })
    }

    @Test func signalLossReportsUnavailableOnceThenReacquires() throws {
        let (scheduler, gps, recorder) = makeGPS { $0.reacquisitionDelay = .seconds(3) }
        gps.start()
        gps.loseSignal(from: VirtualInstant(offset: .seconds(10)), for: .seconds(20))
        try scheduler.run(for: .seconds(40))
        #expect(recorder.unavailable.map(\.0) == ["signal lost"])
        #expect(recorder.unavailable.map(\.1.seconds) == [10])
        let times = recorder.fixes.map(\.receivedAt.seconds)
        #expect(!times.contains { $0 >= 10 && $0 < 33 })
        #expect(times.contains(33))
    }

    @Test func switchingOffStopsFixesAndClearsTheCurrentFix() throws {
        let (scheduler, gps, recorder) = makeGPS()
        gps.start()
        scheduler.schedule(after: .seconds(5)) { gps.stop() }
        try scheduler.run(for: .seconds(10))
        #expect(gps.currentFix == nil)
        #expect(recorder.fixes.count == 5)
        #expect(recorder.unavailable.map(\.0) == ["gps off"])
    }

    @Test func fixesFollowTheRouteWithSpeedAndCourse() throws {
        let scheduler = EventScheduler()
        let motion = DeviceMotion(at: home)
        var configuration = SimulatedGPS.Configuration()
        configuration.noise = false
        let gps = SimulatedGPS(scheduler: scheduler, motion: motion, configuration: configuration, random: SeededRandomGenerator(seed: 1))
        let north = home.destination(distance: 140, bearing: 0)
        motion.follow(Route(start: home, waypoints: [.init(north)], speed: 1.4), from: .zero)
        gps.start()
        try scheduler.run(for: .seconds(50))
        let fix = try #require(gps.currentFix)
        #expect(abs(home.distance(to: fix.coordinate) - 70) < 0.01)
        #expect(fix.speed == 1.4)
        #expect(abs((fix.course ?? -1) - 0) < 1e-6)
        #expect(fix.time == configuration.startDate.addingTimeInterval(50))
    }
}
