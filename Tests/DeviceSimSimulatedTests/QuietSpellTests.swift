import DeviceSimHAL
@testable import DeviceSimSimulated
import DeviceSimTime
import Testing

/// A ranging cycle skips its motion lookup and its beacon lookup while no beacon can be in reach
/// (a quiet spell: the distance to the nearest beacon's range at the motion's highest speed), and a
/// GPS tick nobody observes looks its state up only when its fix is read. Neither may change what a
/// device reports: these tests run each against a twin that looks everything up.
@Suite struct QuietSpellTests {
    static let origin = GeoCoordinate(latitude: 60.1699, longitude: 24.9384)

    /// A world of `count` beacons scattered over about 1.2 km, with mixed powers, a few in fences.
    static func scatteredWorld(seed: UInt64, count: Int) -> WorldIndex {
        var random = SeededRandomGenerator(seed: seed)
        let beacons = (0..<count).map { index in
            Beacon(
                id: .iBeacon(uuid: "F7826DA6-4FA2-4E98-8024-BC5B71E0893E", major: 1, minor: UInt16(index)),
                position: origin.offsetBy(east: random.nextUnit() * 1_200 - 600, north: random.nextUnit() * 1_200 - 600),
                measuredPower: -50 - random.nextUnit() * 25, fence: index % 3 == 0 ? "fence\(index % 4)" : nil)
        }
        return WorldIndex(World(beacons: beacons))
    }

    /// A random route of a few legs at walking to driving speed, some with pauses.
    static func randomRoute(from start: GeoCoordinate, random: inout SeededRandomGenerator, altitude: Bool = false) -> Route {
        let waypoints = (0..<(2 + Int(random.nextUnit() * 4))).map { _ in
            Route.Waypoint(
                start.offsetBy(east: random.nextUnit() * 1_000 - 500, north: random.nextUnit() * 1_000 - 500),
                speed: [1.4, 3, 14][Int(random.nextUnit() * 3)], pause: random.nextUnit() < 0.3 ? .seconds(20) : .zero,
                altitude: altitude && random.nextUnit() < 0.5 ? 20 + random.nextUnit() * 30 : nil)
        }
        return Route(start: start, startAltitude: altitude && random.nextUnit() < 0.5 ? 25 : nil, waypoints: waypoints)
    }

    /// No point closer than the clearance to where it was measured has a beacon in reach, and a
    /// position with one in reach has none.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func noBeaconReachesAPointWithinTheClearance(seed: UInt64) {
        let index = Self.scatteredWorld(seed: seed, count: 40)
        var random = SeededRandomGenerator(seed: seed &+ 100)
        var positive = 0
        for _ in 0..<400 {
            let position = Self.origin.offsetBy(east: random.nextUnit() * 1_600 - 800, north: random.nextUnit() * 1_600 - 800)
            let clearance = index.beaconClearance(from: position, horizon: 150)
            var inReach = 0
            index.beacons(near: position) { _, _, _ in inReach += 1 }
            if inReach > 0 { #expect(clearance == 0, "a beacon is in reach at \(position)") }
            #expect(clearance >= 0 && clearance <= 150)
            guard clearance > 0 else { continue }
            positive += 1
            for _ in 0..<10 {
                let moved = position.destination(distance: random.nextUnit() * clearance * 0.999, bearing: random.nextUnit() * 360)
                var found = 0
                index.beacons(near: moved) { _, _, _ in found += 1 }
                #expect(found == 0, "a beacon reaches \(moved), within \(clearance) m of \(position)")
            }
        }
        #expect(positive > 50)
    }

    /// What a motion tells of itself (its highest speed, whether its states have altitudes) holds
    /// for every state it gives.
    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func aMotionsHighestSpeedAndAltitudesHoldForItsStates(seed: UInt64) {
        var random = SeededRandomGenerator(seed: seed)
        let motion = DeviceMotion(at: Self.origin)
        #expect(motion.maximumSpeed == 0 && motion.hasAltitude == false)
        for change in 0..<6 {
            let start = VirtualInstant(offset: .seconds(Int64(change) * 300))
            if change % 3 == 2 {
                motion.place(at: Self.origin.offsetBy(east: Double(change) * 10, north: 0), altitude: change == 5 ? 12 : nil)
            } else {
                motion.follow(Self.randomRoute(from: motion.state(at: start).coordinate, random: &random, altitude: true), from: start)
            }
            var previous = motion.state(at: start)
            for step in 1...600 {
                let state = motion.state(at: start.advanced(by: .milliseconds(Int64(step) * 500)))
                #expect(previous.coordinate.distance(to: state.coordinate) <= motion.maximumSpeed * 0.5 * (1 + 1e-9) + 1e-6)
                if let hasAltitude = motion.hasAltitude { #expect((state.altitude != nil) == hasAltitude) }
                previous = state
            }
        }
    }

    /// Two drivers of one seed on twin motions, one looking up every cycle: every report and every
    /// fence event is the same, through routes, pauses, a stop and a jump, and the other skips most lookups.
    @Test(arguments: [7, 8, 9] as [UInt64])
    func quietSpellsChangeNoReportOrFenceEvent(seed: UInt64) throws {
        let index = Self.scatteredWorld(seed: seed, count: 30)
        let scheduler = EventScheduler()
        var log: [[String]] = [[], []]
        var drivers: [SimulatedBeaconRanging] = []
        var motions: [DeviceMotion] = []
        var tokens: [ObservationToken] = []
        for twin in 0..<2 {
            let motion = DeviceMotion(at: Self.origin)
            let ranging = SimulatedBeaconRanging(scheduler: scheduler, motion: motion, world: index, random: SeededRandomGenerator(seed: seed).split("bluetooth"))
            ranging.looksForQuietSpells = twin == 0
            tokens.append(ranging.observeRanging { report in log[twin].append("\(scheduler.now.seconds) \(report.map { "\($0.beacon) \($0.rssi)" })") })
            tokens.append(ranging.observeFences { event in log[twin].append("\(scheduler.now.seconds) \(event)") })
            ranging.isEnabled = true
            drivers.append(ranging)
            motions.append(motion)
        }
        var random = SeededRandomGenerator(seed: seed &+ 1)
        for change in 0..<8 {
            let at = VirtualInstant(offset: .seconds(Int64(change) * 400 + 3))
            let route = Self.randomRoute(from: motions[0].state(at: at).coordinate, random: &random)
            let jump = Self.origin.offsetBy(east: random.nextUnit() * 1_000 - 500, north: random.nextUnit() * 1_000 - 500)
            scheduler.schedule(at: at) {
                for motion in motions {
                    if change == 5 { motion.place(at: jump) } else { motion.follow(route, from: at) }
                }
            }
        }
        try scheduler.run(for: .seconds(3_300))
        #expect(log[0] == log[1])
        #expect(log[0].count > 3_000)
        #expect(drivers[0].cycleCount == drivers[1].cycleCount)
        #expect(drivers[1].lookupCount == drivers[1].cycleCount)
        #expect(drivers[0].lookupCount < drivers[1].lookupCount / 2, "\(drivers[0].lookupCount) lookups of \(drivers[1].lookupCount)")
        _ = tokens
    }

    /// A receiver nobody observes looks up the state of an unread tick only when the fix is read, or
    /// when the motion changes first: either way the fix is the one an observed twin delivered at
    /// that tick, through routes with and without altitudes and jumps between ticks and reads.
    @Test(arguments: [11, 12] as [UInt64])
    func aFixReadAfterTheMotionChangedIsTheFixOfItsTick(seed: UInt64) throws {
        let scheduler = EventScheduler()
        let motions = [DeviceMotion(at: Self.origin), DeviceMotion(at: Self.origin)]
        let observed = SimulatedGPS(scheduler: scheduler, motion: motions[0], random: SeededRandomGenerator(seed: seed))
        let unobserved = SimulatedGPS(scheduler: scheduler, motion: motions[1], random: SeededRandomGenerator(seed: seed))
        let subscription = observed.observe { _ in }
        observed.start()
        unobserved.start()
        var random = SeededRandomGenerator(seed: seed &+ 1)
        var reads = 0
        for second in 1...900 {
            let draw = random.nextUnit(), readDraw = random.nextUnit()
            let route = Self.randomRoute(from: Self.origin, random: &random, altitude: true)
            scheduler.schedule(at: VirtualInstant(offset: .milliseconds(Int64(second) * 1_000 + 300))) {
                if draw < 0.07 {
                    for motion in motions { motion.follow(route, from: scheduler.now) }
                } else if draw < 0.1 {
                    for motion in motions { motion.place(at: route.waypoints[0].coordinate, altitude: second % 2 == 0 ? 7 : nil) }
                }
            }
            scheduler.schedule(at: VirtualInstant(offset: .milliseconds(Int64(second) * 1_000 + 600))) {
                // Often after a change (a tenth of the seconds change the motion), else now and then.
                guard readDraw < (draw < 0.1 ? 0.9 : 0.15) else { return }
                reads += 1
                #expect(unobserved.currentFix == observed.currentFix, "at \(second).6 s")
            }
        }
        try scheduler.run(for: .seconds(901))
        #expect(reads > 100)
        #expect(unobserved.currentFix == observed.currentFix && observed.currentFix != nil)
        subscription.cancel()
    }
}
