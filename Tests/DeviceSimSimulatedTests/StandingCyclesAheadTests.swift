import DeviceSimHAL
@testable import DeviceSimSimulated
import DeviceSimTime
import Testing

/// A ranging driver draws the next cycles of a device standing still in reach of a few beacons
/// ahead, runs those that change no fence on their count alone, and samples them into its log only
/// when something reads it. None of that may change what a device reports: these tests run a driver
/// against a twin that samples every cycle as it runs.
@Suite struct StandingCyclesAheadTests {
    static let origin = GeoCoordinate(latitude: 52.5108, longitude: 13.3305)

    /// Three spots 300 m apart, each with beacons from 2 to 34 m away (the far ones heard in some
    /// cycles only, with the default radio's 3 dB of fading), in fences and out of them; the third
    /// spot has six in reach, more than a driver keeps in itself.
    static let spots = [origin, origin.offsetBy(east: 300, north: 0), origin.offsetBy(east: 0, north: 300)]

    static func world() -> WorldIndex {
        var beacons: [Beacon] = []
        func add(_ spot: Int, east: Double, north: Double, power: Double = -59, fence: String?) {
            beacons.append(Beacon(
                id: .iBeacon(uuid: "F7826DA6-4FA2-4E98-8024-BC5B71E0893E", major: UInt16(spot), minor: UInt16(beacons.count)),
                position: spots[spot].offsetBy(east: east, north: north), measuredPower: power, fence: fence))
        }
        // Spot 0: a fence of a near beacon and one at the edge of reach, and a beacon of no fence.
        add(0, east: 2, north: 1, fence: "hall")
        add(0, east: -26, north: 0, fence: "hall")
        add(0, east: 0, north: 12, fence: nil)
        // Spot 1: a fence whose only beacon is heard in some cycles, and another fence close by.
        add(1, east: 30, north: 5, fence: "annex")
        add(1, east: -4, north: -3, fence: "lab")
        // Spot 2: six beacons in reach, two fences.
        for index in 0..<6 { add(2, east: Double(index) * 5 - 12, north: 3, power: -62, fence: index < 3 ? "yard" : (index == 5 ? "shed" : nil)) }
        return WorldIndex(World(beacons: beacons))
    }

    /// Twin drivers, one drawing standing cycles ahead, on twin motions through walks, stands, jumps,
    /// Bluetooth switched off and on, reports observed now and then and read at random instants:
    /// every fence event, observed report and read report is the same, and most standing cycles ran
    /// drawn ahead.
    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func cyclesDrawnAheadChangeNoReportOrFenceEvent(seed: UInt64) throws {
        let index = Self.world()
        let scheduler = EventScheduler()
        var log: [[String]] = [[], []]
        var drivers: [SimulatedBeaconRanging] = []
        var motions: [DeviceMotion] = []
        var tokens: [ObservationToken] = []
        for twin in 0..<2 {
            let motion = DeviceMotion(at: Self.spots[0])
            let ranging = SimulatedBeaconRanging(scheduler: scheduler, motion: motion, world: index, random: SeededRandomGenerator(seed: seed).split("bluetooth"))
            ranging.drawsStandingCyclesAhead = twin == 0
            tokens.append(ranging.observeFences { [unowned ranging] event in log[twin].append("\(scheduler.now.seconds) \(event) \(ranging.fences)") })
            ranging.isEnabled = true
            drivers.append(ranging)
            motions.append(motion)
        }
        var random = SeededRandomGenerator(seed: seed &+ 1)
        // The motions: stand at a spot, walk to another, jump, stand in reach of six beacons.
        var at = 0
        for change in 0..<10 {
            at += 120 + Int(random.nextUnit() * 300)
            let instant = VirtualInstant(offset: .seconds(Int64(at)))
            let spot = Self.spots[change % 3].offsetBy(east: random.nextUnit() * 6 - 3, north: random.nextUnit() * 6 - 3)
            let walks = random.nextUnit() < 0.6
            scheduler.schedule(at: instant) {
                for motion in motions {
                    if walks {
                        motion.follow(Route(start: motion.state(at: instant).coordinate, waypoints: [Route.Waypoint(spot, speed: 3)]), from: instant)
                    } else {
                        motion.place(at: spot)
                    }
                }
            }
        }
        let end = at + 300
        // Bluetooth off for a while, twice.
        for off in [end / 3, end * 2 / 3] {
            scheduler.schedule(at: VirtualInstant(offset: .seconds(Int64(off)))) { for driver in drivers { driver.isEnabled = false } }
            scheduler.schedule(at: VirtualInstant(offset: .milliseconds(Int64(off) * 1_000 + 25_500))) { for driver in drivers { driver.isEnabled = true } }
        }
        // Reports read at random instants, some on a cycle's instant and some between cycles, and
        // observed for a while now and then.
        var second = 0
        while second < end {
            second += 1 + Int(random.nextUnit() * 40)
            let offset: Duration = random.nextUnit() < 0.5 ? .seconds(Int64(second)) : .milliseconds(Int64(second) * 1_000 + 300)
            let observes = random.nextUnit() < 0.15
            scheduler.schedule(at: VirtualInstant(offset: offset)) {
                for twin in 0..<2 {
                    log[twin].append("\(scheduler.now.seconds) read \(drivers[twin].lastReport.map { "\($0.beacon) \($0.rssi) \($0.proximity)" })")
                }
                guard observes else { return }
                let subscriptions = (0..<2).map { twin in
                    drivers[twin].observeRanging { report in log[twin].append("\(scheduler.now.seconds) observed \(report.map { "\($0.beacon) \($0.rssi)" })") }
                }
                scheduler.schedule(after: .seconds(12)) { for subscription in subscriptions { subscription.cancel() } }
            }
        }
        try scheduler.run(for: .seconds(Int64(end)))
        #expect(log[0] == log[1])
        #expect(log[0].count > 40)
        #expect(log[0].contains { $0.contains("observed [") && !$0.hasSuffix("[]") })
        #expect(drivers[0].cycleCount == drivers[1].cycleCount)
        #expect(drivers[0].fences == drivers[1].fences)
        // Most cycles stand in reach of beacons; the driver drawing ahead looks up only the first of
        // each spell (none at the six beacons, and few where a fence's only beacon is faint).
        #expect(drivers[0].lookupCount < drivers[1].lookupCount * 3 / 4, "\(drivers[0].lookupCount) lookups against \(drivers[1].lookupCount)")
        _ = tokens
    }

    /// A device standing in a fence whose beacon is heard in some cycles only leaves it at the
    /// cycle its twin does, and comes back in at the same cycle, though its cycles run drawn ahead.
    @Test func aFenceOfAFaintBeaconIsLeftAndEnteredAtTheSameCycles() throws {
        let faint = Beacon(
            id: .iBeacon(uuid: "F7826DA6-4FA2-4E98-8024-BC5B71E0893E", major: 9, minor: 1),
            position: Self.origin.offsetBy(east: 33, north: 0), measuredPower: -59, fence: "edge")
        let near = Beacon(
            id: .iBeacon(uuid: "F7826DA6-4FA2-4E98-8024-BC5B71E0893E", major: 9, minor: 2),
            position: Self.origin.offsetBy(east: 1, north: 1), measuredPower: -59, fence: nil)
        let index = WorldIndex(World(beacons: [faint, near]))
        let scheduler = EventScheduler()
        var events: [[String]] = [[], []]
        var drivers: [SimulatedBeaconRanging] = []
        var tokens: [ObservationToken] = []
        for twin in 0..<2 {
            let ranging = SimulatedBeaconRanging(scheduler: scheduler, motion: DeviceMotion(at: Self.origin), world: index, random: SeededRandomGenerator(seed: 5).split("bluetooth"))
            ranging.drawsStandingCyclesAhead = twin == 0
            tokens.append(ranging.observeFences { event in events[twin].append("\(scheduler.now.seconds) \(event.fence) \(event.entered)") })
            ranging.isEnabled = true
            drivers.append(ranging)
        }
        try scheduler.run(for: .seconds(7_200))
        #expect(events[0] == events[1])
        // The faint beacon's fence is entered and left again and again.
        #expect(events[0].count >= 6, "\(events[0])")
        // Only the cycles outside the fence that hear nothing of its beacon run drawn ahead.
        #expect(drivers[0].lookupCount < drivers[0].cycleCount * 4 / 5, "\(drivers[0].lookupCount) lookups in \(drivers[0].cycleCount) cycles")
        #expect(drivers[0].lastReport == drivers[1].lastReport)
        _ = tokens
    }
}
