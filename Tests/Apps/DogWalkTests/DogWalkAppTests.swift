import DeviceSimDogWalk
import DeviceSimHAL
import DeviceSimSimulated
import DeviceSimTime
import Testing

@Suite struct DogWalkAppTests {
    let park = GeoCoordinate(latitude: 52.5145, longitude: 13.3501)

    /// A device with an exact (noise-free) simulated GPS and an app.
    final class Harness {
        let scheduler = EventScheduler()
        let trace = TraceRecorder()
        let motion: DeviceMotion
        let gps: SimulatedGPS
        let device: Device
        let app: DogWalkApp

        init(at start: GeoCoordinate, interval: Duration = .seconds(5), gpsOn: Bool = true, store: (any UserDataStore)? = nil) {
            motion = DeviceMotion(at: start)
            var configuration = SimulatedGPS.Configuration()
            configuration.noise = false
            configuration.reacquisitionDelay = .seconds(2)
            gps = SimulatedGPS(scheduler: scheduler, motion: motion, configuration: configuration, random: SeededRandomGenerator(seed: 1))
            device = Device(id: "walker", scheduler: scheduler, location: gps, events: trace)
            var settings = DogWalkApp.Settings()
            settings.updateInterval = interval
            app = DogWalkApp(device: device, store: store, settings: settings)
            if gpsOn { gps.start() }
        }

        func times(of name: String) -> [Double] {
            trace.events.filter { $0.name == name }.map(\.time.seconds)
        }
    }

    @Test func startingTheServiceShowsTheMapAndMarkerAtTheCurrentLocation() throws {
        let harness = Harness(at: park)
        harness.app.startService()
        try harness.scheduler.run(for: .seconds(1))
        #expect(harness.app.marker == park)
        #expect(harness.app.mapCenter == park)
        #expect(harness.trace.events.map(\.name) == ["service.started", "map.shown", "marker.shown"])
    }

    @Test func theMarkerMovesEveryIntervalAndFollowsTheWalk() throws {
        let harness = Harness(at: park, interval: .seconds(5))
        let destination = park.destination(distance: 1_400, bearing: 90)
        harness.motion.follow(Route(start: park, waypoints: [.init(destination)], speed: 1.4), from: .zero)
        harness.app.startService()
        try harness.scheduler.run(for: .seconds(600))
        #expect(harness.times(of: "marker.moved") == stride(from: 5.0, through: 600, by: 5).map { $0 })
        // At 600 s the walker is 840 m along; the marker shows the fix read at the update.
        let marker = try #require(harness.app.marker)
        #expect(abs(park.distance(to: marker) - 840) < 2)
        #expect(harness.app.isLocationAvailable)
    }

    @Test func withoutAFixTheMarkerStaysAndTheOutageIsReportedOnce() throws {
        let harness = Harness(at: park)
        harness.app.startService()
        harness.gps.loseSignal(from: VirtualInstant(offset: .seconds(12)), for: .seconds(30))
        let walkAway = park.destination(distance: 100, bearing: 0)
        harness.motion.follow(Route(start: park, waypoints: [.init(walkAway)], speed: 10), from: VirtualInstant(offset: .seconds(12)))
        try harness.scheduler.run(for: .seconds(60))
        #expect(harness.times(of: "location.unavailable") == [15])
        #expect(harness.times(of: "location.recovered") == [45])
        #expect(!harness.times(of: "marker.moved").contains { $0 > 12 && $0 < 45 })
        let during = try #require(harness.trace.events.first { $0.name == "location.unavailable" })
        #expect(during.coordinate == GeoCoordinate(latitude: park.latitude, longitude: park.longitude))
        #expect(harness.app.marker.map { $0.distance(to: walkAway) < 0.01 } == true)
    }

    @Test func startingWithoutAFixWaitsForTheFirstOne() throws {
        let harness = Harness(at: park, gpsOn: false)
        harness.app.startService()
        harness.scheduler.schedule(after: .seconds(20)) { harness.gps.start(warm: false) }
        try harness.scheduler.run(for: .seconds(30))
        #expect(harness.times(of: "location.unavailable") == [0])
        #expect(harness.times(of: "map.shown") == [22])
        #expect(harness.times(of: "marker.moved") == [27])
    }

    @Test func centeringUsesTheCurrentLocationOrTheLastMarker() throws {
        let harness = Harness(at: park)
        harness.app.startService()
        let there = park.destination(distance: 500, bearing: 180)
        harness.scheduler.schedule(after: .seconds(10)) { harness.motion.place(at: there) }
        harness.scheduler.schedule(after: .seconds(11)) { harness.app.centerMap() }
        harness.scheduler.schedule(after: .seconds(12)) { harness.gps.stop() }
        harness.scheduler.schedule(after: .seconds(13)) { harness.app.centerMap() }
        try harness.scheduler.run(for: .seconds(14))
        let centered = harness.trace.events.filter { $0.name == "map.centered" }
        #expect(centered.map { $0["source"]?.description } == ["current", "last-known"])
        #expect(centered[0].coordinate.map { $0.distance(to: there) < 0.01 } == true)
        // The last update before the GPS went off (at 10 s) read the fix from 9 s, before the move.
        #expect(centered[1].coordinate == harness.app.marker)
        #expect(centered[1].coordinate.map { $0.distance(to: park) < 0.01 } == true)
    }

    @Test func stoppingTheServiceStopsTheUpdates() throws {
        let harness = Harness(at: park)
        harness.app.startService()
        harness.scheduler.schedule(after: .seconds(12)) { harness.app.stopService() }
        try harness.scheduler.run(for: .seconds(60))
        #expect(harness.times(of: "marker.moved") == [5, 10])
        #expect(harness.times(of: "service.stopped") == [12])
        #expect(!harness.app.isRunning)
    }

    @Test func aDayOfUpdatesRunsInVirtualTime() throws {
        let harness = Harness(at: park)
        harness.app.startService()
        try harness.scheduler.run(for: .seconds(86_400))
        #expect(harness.app.markerMoves == 17_280)
    }

    // MARK: The user data on the map

    /// A started app with an offline account, Rex, and `records` in an in-memory store.
    func startedWithRecords(_ records: [(BusinessRecord.Kind, metresNorth: Double)], overlap: Double = 5) throws -> (Harness, InMemoryUserDataStore) {
        let store = InMemoryUserDataStore(UserData(account: .offline, dogs: [DogProfile(name: "Rex")], records: records.enumerated().map { index, record in
            BusinessRecord(dogID: 1, kind: record.0, coordinate: park.destination(distance: record.metresNorth, bearing: 0),
                           placedAt: VirtualInstant(offset: .seconds(Int64(index) - 100)), localTime: "")
        }))
        let harness = Harness(at: park, store: store)
        harness.app.startApp()
        harness.app.startService()
        try harness.scheduler.run(for: .seconds(1))
        return (harness, store)
    }

    @Test func aFailedSaveShowsTheReasonKeepsEverythingAndARetryPlacesTheRecord() throws {
        let (harness, store) = try startedWithRecords([(.pee, 20), (.poo, 40)])
        #expect(harness.app.isBusinessMenuShown)
        store.failWrites(with: .noSpace(key: "business record"))
        harness.app.placeRecord(.poo)
        #expect(store.data?.records.count == 2)
        #expect(harness.app.userData?.records.count == 2)
        #expect(harness.app.isBusinessMenuShown)
        #expect(harness.trace.events.last { $0.name == "record.save-failed" }?["reason"]?.description == "cannot save 'business record': the disk is full; free some space and try again")
        harness.app.placeRecord(.poo)
        #expect(store.data?.records.map(\.kind) == [.pee, .poo, .poo])
        #expect(!harness.app.isBusinessMenuShown && harness.app.isCleanUpMessageShown)
        try harness.scheduler.run(for: .seconds(5))
        #expect(!harness.app.isCleanUpMessageShown)
    }

    @Test func theMapAggregatesOverlappingRecordsAndThePopupCountsThem() throws {
        let (harness, _) = try startedWithRecords([(.pee, 20), (.pee, 21), (.poo, 22), (.poo, 80)])
        #expect(harness.app.shownMarkers.map(\.shown.id) == [5, 4])
        #expect(harness.app.shownMarkers.map(\.members.count) == [1, 3])
        harness.app.clickRecord(id: 4, near: nil)
        let popup = try #require(harness.app.statisticsPopup)
        let statistics = BusinessRecordMap.Statistics(popup.overlapping)
        #expect((statistics.peePercent, statistics.pooPercent) == (67, 33))
        harness.app.openRecordList()
        #expect(harness.app.recordList?.map(\.id) == [4, 3, 2])
    }

    @Test func withoutAFixThePooButtonPlacesNothingAtTheOldMarkerAndSaysWhy() throws {
        let (harness, store) = try startedWithRecords([(.pee, 20)])
        #expect(harness.app.isBusinessMenuShown)
        harness.gps.loseSignal()
        harness.motion.place(at: park.destination(distance: 50, bearing: 0))
        try harness.scheduler.run(for: .seconds(6))
        #expect(harness.app.marker.map { $0.distance(to: park) < 0.01 } == true)   // the marker stays where the fix was lost
        harness.app.placeRecord(.poo)
        #expect(store.data?.records.count == 1)
        #expect(harness.app.isBusinessMenuShown)
        #expect(harness.trace.events.last { $0.name == "record.refused" }?["kind"]?.description == "poo")
        harness.gps.restoreSignal()
        try harness.scheduler.run(for: .seconds(6))
        harness.app.placeRecord(.poo)
        let placed = try #require(store.data?.records.last)
        #expect(placed.kind == .poo && placed.coordinate.distance(to: park.destination(distance: 50, bearing: 0)) < 0.01)
    }
}
