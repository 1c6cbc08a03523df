import DeviceSimHAL
import DeviceSimSimulated
import DeviceSimTime
import Foundation
import Testing

@Suite struct RadioModelTests {
    @Test func pathLossFollowsTheLogDistanceModel() {
        let environment = RadioEnvironment()
        #expect(RadioModel.wifiRSSI(transmitPower: 20, distance: 1, environment: environment) == -20)
        #expect(abs(RadioModel.wifiRSSI(transmitPower: 20, distance: 10, environment: environment) - -50) < 1e-9)  // exponent 3.0
        #expect(abs(RadioModel.beaconRSSI(measuredPower: -59, distance: 10, environment: environment) - -89) < 1e-9)  // exponent 3.0
        #expect(abs(RadioModel.estimatedDistance(rssi: -79, measuredPower: -59, exponent: 2) - 10) < 1e-9)
    }

    @Test func proximityClassesAreAltBeacons() {
        #expect(RadioModel.proximity(distance: 0.3) == .immediate)
        #expect(RadioModel.proximity(distance: 0.5) == .near)
        #expect(RadioModel.proximity(distance: 3.9) == .near)
        #expect(RadioModel.proximity(distance: 4) == .far)
        #expect(RadioModel.proximity(distance: .nan) == .unknown)
    }

    @Test func theRunningAverageTrimsTenPercentAtEachEndOverTwentySeconds() {
        var filter = RunningAverageRSSIFilter()
        let start = VirtualInstant.zero
        for value in [-60.0, -61, -62, -63, -64, -65, -66, -67, -68, -100] { filter.add(value, at: start) }
        // 10 samples: the lowest (-100) and the highest (-60) are trimmed.
        #expect(filter.average == -64.5)
        filter.add(-70, at: start.advanced(by: .seconds(20)))  // the first ten are now 20 s old
        #expect(filter.average == -70)
    }
}

@Suite struct SpatialGridTests {
    @Test func aQueryFindsExactlyWhatABruteForceScanFinds() {
        let origin = GeoCoordinate(latitude: 52.5, longitude: 13.4)
        var random = SeededRandomGenerator(seed: 9)
        var grid = SpatialGrid<Int>(origin: origin, cellSize: 300)
        var points: [GeoCoordinate] = []
        for index in 0..<3_000 {
            let point = origin.offsetBy(east: random.nextUnit() * 8_000 - 4_000, north: random.nextUnit() * 8_000 - 4_000)
            points.append(point)
            grid.insert(index, at: point)
        }
        for _ in 0..<50 {
            let center = origin.offsetBy(east: random.nextUnit() * 8_000 - 4_000, north: random.nextUnit() * 8_000 - 4_000)
            for radius in [50.0, 300, 1_000] {
                var found: [Int] = []
                grid.forEach(within: radius, of: center) { index, _ in found.append(index) }
                let expected = points.indices.filter { center.distance(to: points[$0]) <= radius }
                #expect(found.sorted() == expected)
            }
        }
    }

    @Test func aPackedGridFindsTheSameElementsInTheSameOrder() {
        let origin = GeoCoordinate(latitude: 52.5, longitude: 13.4)
        var random = SeededRandomGenerator(seed: 11)
        var grid = SpatialGrid<Int>(origin: origin, cellSize: 200)
        for index in 0..<2_000 {
            grid.insert(index, at: origin.offsetBy(east: random.nextUnit() * 6_000 - 3_000, north: random.nextUnit() * 6_000 - 3_000))
        }
        var packed = grid
        packed.pack()
        for _ in 0..<60 {
            // Some centres lie outside the occupied rectangle, where a packed query is clipped.
            let center = origin.offsetBy(east: random.nextUnit() * 9_000 - 4_500, north: random.nextUnit() * 9_000 - 4_500)
            for radius in [50.0, 200, 900] {
                var found: [Int] = []
                var foundPacked: [Int] = []
                grid.forEach(within: radius, of: center) { index, _ in found.append(index) }
                packed.forEach(within: radius, of: center) { index, _ in foundPacked.append(index) }
                #expect(foundPacked == found)
            }
        }
        // An insert after packing is found too.
        packed.insert(2_000, at: origin)
        var nearOrigin: [Int] = []
        packed.forEach(within: 1, of: origin) { index, _ in nearOrigin.append(index) }
        #expect(nearOrigin.contains(2_000))
    }

    /// A lookup that keeps its candidates finds exactly the beacons, in the same order and at the
    /// same distances, as one that starts afresh: along a walk in and out of the reach of beacons,
    /// crossing cells back and forth.
    @Test func keptCandidatesFindWhatAFreshLookupFinds() {
        let origin = GeoCoordinate(latitude: 52.5, longitude: 13.4)
        var random = SeededRandomGenerator(seed: 17)
        let beacons = (0..<60).map { index in
            Beacon(id: .iBeacon(uuid: TestWorld.uuid, major: 3, minor: UInt16(index)), position: origin.offsetBy(east: random.nextUnit() * 1_500, north: random.nextUnit() * 300))
        }
        let index = WorldIndex(World(hotspots: [], beacons: beacons))
        var candidates: BeaconCandidates?
        var position = origin
        var nonEmpty = 0
        for _ in 0..<5_000 {
            position = position.offsetBy(east: random.nextUnit() * 6 - 2.5, north: random.nextUnit() * 4 - 2)
            var kept: [Int: Double] = [:], keptOrder: [Int] = []
            index.beacons(near: position, candidates: &candidates) { beacon, distance in
                kept[beacon] = distance
                keptOrder.append(beacon)
            }
            var fresh: [Int: Double] = [:], freshOrder: [Int] = []
            index.beacons(near: position) { beacon, _, distance in
                fresh[beacon] = distance
                freshOrder.append(beacon)
            }
            #expect(keptOrder == freshOrder)
            #expect(kept == fresh)
            if !kept.isEmpty { nonEmpty += 1 }
        }
        #expect(nonEmpty > 100)
    }
}

/// A small world: one hotspot with two access points, three beacons in a fence.
enum TestWorld {
    static let center = GeoCoordinate(latitude: 52.5108, longitude: 13.3305)
    static let uuid = "F7826DA6-4FA2-4E98-8024-BC5B71E0893E"

    static func world(extraAccessPoints: Int = 0) -> World {
        var accessPoints = [
            AccessPoint(ssid: "eduroam", bssid: "02:00:00:00:01:01", position: center.offsetBy(east: -5, north: 5), transmitPower: 15),
            AccessPoint(ssid: "eduroam", bssid: "02:00:00:00:01:02", position: center.offsetBy(east: 8, north: -4), transmitPower: 15),
        ]
        var hotspots: [Hotspot] = []
        for index in 0..<extraAccessPoints {
            // Far away: 20 to 60 km east.
            let position = center.offsetBy(east: 20_000 + Double(index % 200) * 200, north: Double(index / 200) * 200)
            hotspots.append(Hotspot(name: "far-\(index)", area: .circle(center: position, radius: 30), accessPoints: [
                AccessPoint(ssid: "far", bssid: String(format: "06:00:00:%02x:%02x:%02x", (index >> 16) & 0xff, (index >> 8) & 0xff, index & 0xff), position: position),
            ]))
        }
        accessPoints.sort { $0.bssid < $1.bssid }
        let beacons = (1...3).map { minor in
            Beacon(id: .iBeacon(uuid: uuid, major: 1, minor: UInt16(minor)), position: center.offsetBy(east: Double(minor) * 3, north: 0), fence: "library-beacons")
        }
        return World(
            hotspots: [Hotspot(name: "library", area: .circle(center: center, radius: 40), accessPoints: accessPoints, fence: "library-beacons")] + hotspots,
            beacons: beacons)
    }
}

@Suite struct SimulatedWiFiTests {
    func make(seed: UInt64 = 1, at position: GeoCoordinate = TestWorld.center, configuration: SimulatedWiFi.Configuration = .init(), world: World = TestWorld.world())
        -> (EventScheduler, SimulatedWiFi, DeviceMotion)
    {
        let scheduler = EventScheduler()
        let motion = DeviceMotion(at: position)
        let wifi = SimulatedWiFi(scheduler: scheduler, motion: motion, world: WorldIndex(world), configuration: configuration, random: SeededRandomGenerator(seed: seed))
        return (scheduler, wifi, motion)
    }

    @Test func scansSeeNearbyAccessPointsStrongestFirstAndNothingWhenOff() throws {
        let (scheduler, wifi, motion) = make()
        var scans: [[WiFiScanResult]] = []
        let subscription = wifi.observeScans { scans.append($0.results) }
        wifi.isEnabled = true
        try scheduler.run(for: .seconds(61))
        #expect(scans.count == 3)  // at 0, 30 and 60 s
        for scan in scans {
            #expect(Set(scan.map(\.bssid)) == ["02:00:00:00:01:01", "02:00:00:00:01:02"])
            #expect(scan.map(\.rssi) == scan.map(\.rssi).sorted(by: >))
            #expect(scan.allSatisfy { $0.rssi > -70 && $0.signalLevel >= 2 })
        }
        motion.place(at: TestWorld.center.offsetBy(east: 3_000, north: 0))
        try scheduler.run(for: .seconds(30))
        #expect(scans.last == [])
        wifi.isEnabled = false
        #expect(wifi.lastScan.isEmpty)
        try scheduler.run(for: .seconds(120))
        #expect(scans.count == 5)  // the empty scan at 90 s, and the one sent when switched off
        _ = subscription
    }

    @Test func scansBeyondFourPerTwoMinutesAreThrottledAndRepeatThePreviousResults() throws {
        var configuration = SimulatedWiFi.Configuration()
        configuration.scanInterval = .seconds(10)
        let (scheduler, wifi, _) = make(configuration: configuration)
        var scans: [WiFiScan] = []
        let subscription = wifi.observeScans { scans.append($0) }
        wifi.isEnabled = true
        try scheduler.run(for: .seconds(125))  // requests at 0, 10, ..., 120
        #expect(scans.count == 13)
        #expect(wifi.scanCount == 5)  // 0, 10, 20, 30 fresh; 40...110 throttled; 120 fresh again
        #expect(wifi.throttledCount == 8)
        #expect(scans.map(\.resultsUpdated) == [true, true, true, true] + Array(repeating: false, count: 8) + [true])
        // A throttled scan repeats the previous results and says when they were measured: not a new observation.
        #expect(scans[4].results == scans[3].results)
        #expect(scans[4].measuredAt == scans[3].measuredAt)
        #expect(scans[3].measuredAt == VirtualInstant(offset: .seconds(30)))
        #expect(scans[12].measuredAt == VirtualInstant(offset: .seconds(120)))
        #expect(!wifi.requestScan())
        _ = subscription
    }

    @Test func theSameSeedGivesTheSameRSSIAndAnotherSeedAnother() throws {
        func firstScan(seed: UInt64) throws -> [Double] {
            let (scheduler, wifi, _) = make(seed: seed)
            wifi.isEnabled = true
            try scheduler.run(for: .seconds(1))
            return wifi.lastScan.map(\.rssi)
        }
        #expect(try firstScan(seed: 4) == firstScan(seed: 4))
        #expect(try firstScan(seed: 4) != firstScan(seed: 5))
    }

    @Test func farAwayAccessPointsNeitherShowUpNorChangeWhatNearbyOnesLookLike() throws {
        let (smallScheduler, small, _) = make(world: TestWorld.world())
        let (bigScheduler, big, _) = make(world: TestWorld.world(extraAccessPoints: 10_000))
        small.isEnabled = true
        big.isEnabled = true
        try smallScheduler.run(for: .seconds(300))
        try bigScheduler.run(for: .seconds(300))
        #expect(small.lastScan == big.lastScan)
    }
}

@Suite struct SimulatedBeaconRangingTests {
    func make(at position: GeoCoordinate) -> (EventScheduler, SimulatedBeaconRanging, DeviceMotion) {
        let scheduler = EventScheduler()
        let motion = DeviceMotion(at: position)
        let ranging = SimulatedBeaconRanging(scheduler: scheduler, motion: motion, world: WorldIndex(TestWorld.world()), random: SeededRandomGenerator(seed: 3))
        return (scheduler, ranging, motion)
    }

    @Test func onceASecondNearestFirstWithDistanceAndProximity() throws {
        let (scheduler, ranging, _) = make(at: TestWorld.center.offsetBy(east: 3, north: 0.5))
        var reports: [[BeaconSighting]] = []
        let subscription = ranging.observeRanging { reports.append($0) }
        ranging.isEnabled = true
        try scheduler.run(for: .seconds(30))
        #expect(reports.count == 30)
        let last = try #require(reports.last)
        #expect(last.count == 3)
        #expect(last.map(\.estimatedDistance) == last.map(\.estimatedDistance).sorted())
        #expect(last.first?.beacon == .iBeacon(uuid: TestWorld.uuid, major: 1, minor: 1))
        #expect(last.first.map { $0.estimatedDistance < 4 } == true)
        #expect(last.first?.proximity != .far)
        _ = subscription
    }

    /// Reports are built only when observed or read: reading one now and then must give exactly
    /// what an observer of every cycle got, while walking into reach, standing, and out again.
    @Test func aReportReadWhenAskedIsTheOneObserversGetEveryCycle() throws {
        let start = TestWorld.center.offsetBy(east: -300, north: 0)
        var observed: [[BeaconSighting]] = []
        var fenceEvents: ([BeaconFenceEvent], [BeaconFenceEvent]) = ([], [])
        let (observedScheduler, observedRanging, observedMotion) = make(at: start)
        let (lazyScheduler, lazyRanging, lazyMotion) = make(at: start)
        let route = Route(start: start, waypoints: [
            .init(TestWorld.center, pause: .seconds(40)), .init(TestWorld.center.offsetBy(east: 1_000, north: 0)),
        ], speed: 1.4)
        observedMotion.follow(route, from: .zero)
        lazyMotion.follow(route, from: .zero)
        let subscriptions = [
            observedRanging.observeRanging { observed.append($0) },
            observedRanging.observeFences { fenceEvents.0.append($0) },
            lazyRanging.observeFences { fenceEvents.1.append($0) },
        ]
        observedRanging.isEnabled = true
        lazyRanging.isEnabled = true
        var compared = 0
        for second in 1...1_200 {
            try observedScheduler.run(until: VirtualInstant(offset: .seconds(second)))
            try lazyScheduler.run(until: VirtualInstant(offset: .seconds(second)))
            guard second % 7 == 0 else { continue }
            #expect(lazyRanging.lastReport == observed.last, "at \(second) s")
            if !(observed.last ?? []).isEmpty { compared += 1 }
        }
        #expect(observed.count == 1_200)
        #expect(compared > 5)
        #expect(fenceEvents.0 == fenceEvents.1)
        #expect(fenceEvents.0.first?.entered == true && fenceEvents.0.last?.entered == false)
        _ = subscriptions
    }

    /// More beacons in reach than the driver keeps in itself (four): every one is reported, nearest
    /// first, and walking away, then back, changes the count both ways.
    @Test func sixBeaconsInReachAreAllReportedNearestFirst() throws {
        let uuid = TestWorld.uuid
        let beacons = (1...6).map { minor in
            Beacon(id: .iBeacon(uuid: uuid, major: 2, minor: UInt16(minor)), position: TestWorld.center.offsetBy(east: Double(minor) * 2, north: 0), fence: "hall")
        }
        let scheduler = EventScheduler()
        let motion = DeviceMotion(at: TestWorld.center)
        let ranging = SimulatedBeaconRanging(scheduler: scheduler, motion: motion, world: WorldIndex(World(hotspots: [], beacons: beacons)), random: SeededRandomGenerator(seed: 5))
        var reports: [[BeaconSighting]] = []
        let subscription = ranging.observeRanging { reports.append($0) }
        ranging.isEnabled = true
        try scheduler.run(for: .seconds(25))
        #expect(reports.last?.map(\.beacon) == beacons.map(\.id))
        motion.place(at: TestWorld.center.offsetBy(east: 5_000, north: 0))
        try scheduler.run(for: .seconds(25))
        #expect(reports.last == [])
        motion.place(at: TestWorld.center.offsetBy(east: 2.5, north: 0))  // half a metre from the first, 9.5 m from the last
        try scheduler.run(for: .seconds(25))
        #expect(reports.last?.count == 6)
        #expect(reports.last?.first?.beacon == beacons[0].id)
        #expect(ranging.fences == ["hall"])
        _ = subscription
    }

    /// A fence is left at the first cycle ten seconds after the last sighting of any of its
    /// beacons, however seldom the driver looks at the fences it is in: checked against a model
    /// that updates every fence at every cycle, from the beacons each cycle heard, while a device
    /// hops about the edge of several fences' reach (beacons heard some cycles and not others).
    @Test(arguments: [UInt64(1), 2, 3])
    func fencesAreLeftAtTheCycleAModelUpdatedEveryCycleLeavesThem(seed: UInt64) throws {
        let center = TestWorld.center
        let fences = ["a", "a", "b", "c", "c", "b"]
        let beacons = fences.enumerated().map { minor, fence in
            Beacon(id: .iBeacon(uuid: TestWorld.uuid, major: 7, minor: UInt16(minor)), position: center.offsetBy(east: Double(minor) * 12, north: Double(minor % 2) * 9), fence: fence)
        }
        let fenceOfBeacon = Dictionary(uniqueKeysWithValues: beacons.map { ($0.id, $0.fence!) })
        let scheduler = EventScheduler()
        let motion = DeviceMotion(at: center)
        let ranging = SimulatedBeaconRanging(scheduler: scheduler, motion: motion, world: WorldIndex(World(hotspots: [], beacons: beacons)), random: SeededRandomGenerator(seed: seed))
        struct FenceEvent: Equatable {
            let instant: Int64
            let entered: Bool
            let fence: String
        }
        var events: [FenceEvent] = []
        /// Each cycle's report, and a nil list where Bluetooth was switched off.
        var reports: [(instant: Int64, heard: [BeaconIdentifier]?)] = []
        let subscriptions = [
            ranging.observeFences { events.append(FenceEvent(instant: scheduler.now.nanoseconds, entered: $0.entered, fence: $0.fence)) },
            ranging.observeRanging { reports.append((scheduler.now.nanoseconds, $0.map(\.beacon))) },
        ]
        var random = SeededRandomGenerator(seed: seed).split("hops")
        ranging.isEnabled = true
        for hop in 0..<120 {
            // Near the beacons, at the edge of their reach, or far from all of them for a while.
            let far = hop % 17 == 16
            motion.place(at: center.offsetBy(east: far ? 3_000 : random.nextUnit() * 160 - 40, north: random.nextUnit() * 120 - 60))
            try scheduler.run(for: .seconds(Int64(1 + random.next() % (far ? 25 : 6))))
            if hop == 60 {
                // Bluetooth off for a moment leaves every fence.
                ranging.isEnabled = false
                reports.append((scheduler.now.nanoseconds, nil))
                ranging.isEnabled = true
            }
        }
        // The model: every cycle, each heard beacon's fence is entered or seen again, then each
        // fence not seen for ten seconds is left (in the fences' order).
        var modelEvents: [FenceEvent] = []
        var lastSeen: [String: Int64] = [:]
        let exitDelay: Int64 = 10_000_000_000
        for report in reports {
            guard let heard = report.heard else {
                for fence in lastSeen.keys.sorted() { modelEvents.append(FenceEvent(instant: report.instant, entered: false, fence: fence)) }
                lastSeen = [:]
                continue
            }
            var entered: [String] = []
            for beacon in heard {
                let fence = fenceOfBeacon[beacon]!
                if lastSeen[fence] == nil, !entered.contains(fence) { entered.append(fence) }
                lastSeen[fence] = report.instant
            }
            modelEvents += entered.map { FenceEvent(instant: report.instant, entered: true, fence: $0) }
            for fence in lastSeen.keys.sorted() where report.instant - lastSeen[fence]! >= exitDelay {
                modelEvents.append(FenceEvent(instant: report.instant, entered: false, fence: fence))
                lastSeen[fence] = nil
            }
        }
        // Within a cycle the driver enters fences in the order of the beacons in reach: compare each
        // instant's entries by fence name (the sort is stable, so the leaves keep their order).
        func normalized(_ events: [FenceEvent]) -> [FenceEvent] {
            events.sorted { ($0.instant, $0.entered ? 0 : 1, $0.entered ? $0.fence : "") < ($1.instant, $1.entered ? 0 : 1, $1.entered ? $1.fence : "") }
        }
        #expect(normalized(events) == normalized(modelEvents))
        #expect(events.filter { !$0.entered }.count >= 6, "the walk leaves fences often enough to test their exits")
        #expect(reports.filter { $0.heard?.isEmpty == false }.count >= 100)
        _ = subscriptions
    }

    @Test func aFenceIsEnteredOnSightingAndLeftTenSecondsAfterTheLastOne() throws {
        let (scheduler, ranging, motion) = make(at: TestWorld.center)
        var events: [(Double, BeaconFenceEvent)] = []
        let subscription = ranging.observeFences { events.append((scheduler.now.seconds, $0)) }
        ranging.isEnabled = true
        try scheduler.run(for: .seconds(5))
        #expect(events.map { [$0.1.fence: $0.1.entered] } == [["library-beacons": true]])
        // The entry names the beacon heard and the RSSI that let the device in (3 m away: about -73 dBm).
        #expect(events.first?.1.beacon == .iBeacon(uuid: TestWorld.uuid, major: 1, minor: 1))
        #expect(events.first?.1.rssi.map { (-80 ... -65).contains($0) } == true)
        #expect(events.first?.0 == 1)
        #expect(ranging.fences == ["library-beacons"])
        motion.place(at: TestWorld.center.offsetBy(east: 5_000, north: 0))  // last sighting at 5 s
        try scheduler.run(for: .seconds(20))
        #expect(events.map(\.1.entered) == [true, false])
        #expect(events.last?.0 == 15)
        motion.place(at: TestWorld.center)
        try scheduler.run(for: .seconds(3))
        ranging.isEnabled = false
        #expect(events.map(\.1.entered) == [true, false, true, false])
        _ = subscription
    }
}

@Suite struct SimulatedNotificationsTests {
    func make() -> (EventScheduler, TraceRecorder, SimulatedNotifications) {
        let scheduler = EventScheduler()
        let trace = TraceRecorder()
        let device = Device(id: "alice", scheduler: scheduler, location: SimulatedGPS(scheduler: scheduler, motion: DeviceMotion(at: TestWorld.center), random: SeededRandomGenerator(seed: 1)), events: trace)
        let notifications = SimulatedNotifications(device: device)
        device.notifications = notifications
        return (scheduler, trace, notifications)
    }

    let prompt = UserPrompt(id: "locate-precisely", message: "Locate you precisely?", choices: ["yes", "no"])

    @Test func aScriptedAnswerWaitsForItsPromptAndComesAfterTheReactionTime() throws {
        let (scheduler, trace, notifications) = make()
        var answers: [(Double, String?)] = []
        notifications.answer(prompt: "locate-precisely", with: "yes", after: .seconds(3))
        scheduler.schedule(after: .seconds(10)) { notifications.ask(self.prompt, timeout: .seconds(60)) { answers.append((scheduler.now.seconds, $0)) } }
        try scheduler.run(for: .seconds(100))
        #expect(answers.count == 1)
        #expect(answers.first?.0 == 13)
        #expect(answers.first?.1 == "yes")
        #expect(trace.events.map(\.name) == ["prompt.shown", "prompt.answered"])
    }

    @Test func anUnansweredPromptTimesOutAndAWrongAnswerIsRejected() throws {
        let (scheduler, trace, notifications) = make()
        var answers: [String?] = []
        notifications.ask(prompt, timeout: .seconds(60)) { answers.append($0) }
        notifications.answer(prompt: "locate-precisely", with: "maybe")
        #expect(notifications.showing == [prompt])
        try scheduler.run(for: .seconds(61))
        #expect(answers == [nil])
        #expect(trace.events.map(\.name) == ["prompt.shown", "prompt.answer-rejected", "prompt.timed-out"])
        #expect(notifications.showing.isEmpty)
    }
}
