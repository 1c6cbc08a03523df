import DeviceSim
import DeviceSimFriendLocator
import DeviceSimTesting
import Testing

/// The friend-locator flows driven directly through DeviceSimTesting, the way a user would test them.
@Suite struct FriendLocatorAppTests {
    static let library = GeoCoordinate(latitude: 52.5108, longitude: 13.3305)
    static let world = World(
        hotspots: [Hotspot(name: "library", area: .circle(center: library, radius: 40), accessPoints: [
            AccessPoint(ssid: "eduroam", bssid: "02:00:00:00:01:01", position: library, transmitPower: 15),
        ], fence: "lib")],
        beacons: [Beacon(id: .iBeacon(uuid: "F7826DA6-4FA2-4E98-8024-BC5B71E0893E", major: 1, minor: 1), position: library.offsetBy(east: 2, north: 0), fence: "lib")])
    let away = library.offsetBy(east: -400, north: 0)

    func fields(_ event: TraceEvent) -> [String: String] {
        Dictionary(event.fields.map { ($0.key, $0.value.description) }, uniquingKeysWith: { first, _ in first })
    }

    @Test func leastPrivacyPingsTwiceWithoutAskingAndTheFriendIsNotified() throws {
        let simulation = TestSimulation(seed: 3, world: Self.world)
        let alice = simulation.addDevice("alice", at: away)
        let bob = simulation.addDevice("bob", at: away)
        let aliceApp = FriendLocatorApp(device: alice.device, account: "alice", backend: simulation.backend, settings: .init(autoPing: true, autoLocate: true))
        let bobApp = FriendLocatorApp(device: bob.device, account: "bob", backend: simulation.backend)
        aliceApp.start()
        bobApp.start()
        alice.walk(to: [Self.library])
        try simulation.advance(by: .seconds(600))
        #expect(simulation.events(named: "prompt.shown").isEmpty)
        #expect(simulation.events(named: "ping.sent", device: "alice").map { fields($0)["precision"] } == ["hotspot", "beacon"])
        #expect(simulation.events(named: "ping.received", device: "bob").map { fields($0)["from"] } == ["alice", "alice"])
        #expect(aliceApp.currentHotspot == "library")
        #expect(simulation.backend.lastLocations["alice"]?.precision == .beacon)
    }

    @Test func mostPrivacyAsksAndNoMeansNobodyIsPinged() throws {
        let simulation = TestSimulation(seed: 3, world: Self.world)
        let alice = simulation.addDevice("alice", at: Self.library)
        _ = simulation.addDevice("bob", at: away)
        let app = FriendLocatorApp(device: alice.device, account: "alice", backend: simulation.backend)
        app.start()
        try simulation.advance(by: .seconds(75))  // the app listens from 0.4 s (loading): scans at 30 and 60 s, entered at 60 s
        #expect(alice.notifications.showing.map(\.id) == ["inform-group"])
        #expect(alice.notifications.showing.first?.choices == ["friends", "no"])
        alice.answer(prompt: "inform-group", with: "no")
        try simulation.runCurrent()
        #expect(alice.notifications.showing.map(\.id) == ["locate-precisely"])
        alice.answer(prompt: "locate-precisely", with: "no")
        try simulation.advance(by: .seconds(60))
        #expect(simulation.events(named: "ping.sent").isEmpty)
        #expect(simulation.backend.pingCount == 0)
        #expect(simulation.backend.lastLocations["alice"] == SharedLocation(account: "alice", hotspot: "library", coordinate: nil, precision: .hotspot))
    }

    @Test func aRestartedAppGoesOnWithTheVisitAndDoesNotPingTwice() throws {
        let simulation = TestSimulation(seed: 3, world: Self.world)
        let alice = simulation.addDevice("alice", at: Self.library)
        _ = simulation.addDevice("bob", at: away)
        let store = InMemoryFriendLocatorStore()
        let first = FriendLocatorApp(device: alice.device, account: "alice", backend: simulation.backend, settings: .init(autoPing: true), store: store)
        first.start()
        try simulation.advance(by: .seconds(75))
        #expect(simulation.backend.pingCount == 1)
        #expect(store.state?.visits == [.init(hotspot: "library", group: "friends", isComplete: false)])
        first.stop()   // killed with "locate precisely?" open
        let second = FriendLocatorApp(device: alice.device, account: "alice", backend: simulation.backend, settings: .init(autoPing: true), store: store)
        second.start()
        try simulation.advance(by: .seconds(75))
        let entries = simulation.events(named: "hotspot.entered", device: "alice").map { fields($0)["resumed"] }
        #expect(entries == [nil, "true"])
        #expect(alice.notifications.showing.map(\.id) == ["locate-precisely"])
        alice.answer(prompt: "locate-precisely", with: "no")
        try simulation.advance(by: .seconds(10))
        #expect(simulation.backend.pingCount == 1)
        #expect(store.state?.visits == [.init(hotspot: "library", group: "friends", isComplete: true)])
        second.stop()
        // Killed again; she walks away; the restarted app does not find her there.
        alice.walk(to: [away])
        try simulation.advance(by: .seconds(600))
        let third = FriendLocatorApp(device: alice.device, account: "alice", backend: simulation.backend, settings: .init(autoPing: true), store: store)
        third.start()
        try simulation.advance(by: .seconds(120))
        #expect(simulation.events(named: "hotspot.left", device: "alice").map { fields($0)["while"] } == ["closed"])
        #expect(simulation.backend.lastLocations["alice"]?.hotspot == nil)
        #expect(store.state?.visits == [])
        #expect(simulation.backend.pingCount == 1)
    }

    @Test func withWiFiOffNoHotspotIsSeenAndTurningLocationOffSwitchesBluetoothOff() throws {
        let simulation = TestSimulation(seed: 3, world: Self.world)
        let alice = simulation.addDevice("alice", at: Self.library)
        let app = FriendLocatorApp(device: alice.device, account: "alice", backend: simulation.backend, settings: .init(autoPing: true, autoLocate: true))
        alice.setWiFi(on: false)
        app.start()
        try simulation.advance(by: .seconds(300))
        #expect(simulation.events(named: "hotspot.entered").isEmpty)
        app.turnOffLocation()
        try simulation.advance(by: .seconds(5))
        #expect(alice.beacons?.isEnabled == false)
        #expect(!app.isTrackingEnabled)
        #expect(simulation.events(named: "location.off").count == 1)
        alice.setWiFi(on: true)
        try simulation.advance(by: .seconds(300))
        #expect(simulation.events(named: "hotspot.entered").isEmpty)  // tracking is off
    }

    @Test func addingAFriendAndFindingFriends() throws {
        let simulation = TestSimulation(seed: 3, world: Self.world)
        let alice = simulation.addDevice("alice", at: away)
        let carol = simulation.addDevice("carol", at: Self.library)
        simulation.makeBackend(accounts: [.init(id: "alice", email: "alice@tu-berlin.de"), .init(id: "carol", email: "carol@tu-berlin.de", friends: ["alice"])])
        let aliceApp = FriendLocatorApp(device: alice.device, account: "alice", backend: simulation.backend)
        let carolApp = FriendLocatorApp(device: carol.device, account: "carol", backend: simulation.backend, settings: .init(autoPing: true, autoLocate: true))
        aliceApp.start()
        carolApp.start()
        aliceApp.findFriendsInArea()
        try simulation.advance(by: .seconds(1))
        #expect(simulation.events(named: "friends.none", device: "alice").count == 1)
        aliceApp.addFriend(email: "nobody@tu-berlin.de")
        aliceApp.addFriend(email: "carol@tu-berlin.de")
        try simulation.advance(by: .seconds(120))
        #expect(simulation.events(named: "friend.not-found", device: "alice").count == 1)
        #expect(simulation.events(named: "friend.added", device: "alice").map { fields($0)["friend"] } == ["carol"])
        aliceApp.findFriendsInArea()
        try simulation.advance(by: .seconds(1))
        #expect(aliceApp.friendsOnMap.map(\.account) == ["carol"])
        #expect(simulation.events(named: "friends.shown", device: "alice").map { fields($0)["friends"] } == ["carol@library"])
    }
}

@Suite struct DeviceAsyncSequenceTests {
    @Test func scansRangingReportsAndFencesArriveAsAsyncSequences() throws {
        let simulation = TestSimulation(seed: 5, world: FriendLocatorAppTests.world)
        let phone = simulation.addDevice("phone", at: FriendLocatorAppTests.library)
        let bound = SimulationBound(phone.device, executor: simulation.scheduler.executor)
        let counts = SendableCounts()
        simulation.spawn { for await scan in bound.value.wifiScans() where !scan.results.isEmpty { counts.add("scan") } }
        simulation.spawn { for await report in bound.value.rangingReports() where !report.isEmpty { counts.add("report") } }
        simulation.spawn { for await event in bound.value.fenceEvents() { counts.add(event.entered ? "entered" : "left") } }
        try simulation.advance(by: .seconds(65))
        #expect(counts.value == ["scan": 3, "report": 65, "entered": 1])  // scans at 0, 30 and 60 s; a report a second
        phone.setBluetooth(on: false)
        try simulation.runCurrent()
        #expect(counts.value["left"] == 1)
    }

    @Test func withoutTheHardwareTheSequencesEndAtOnce() async {
        let simulation = TestSimulation(seed: 5)
        let phone = simulation.addDevice("phone", at: FriendLocatorAppTests.library)
        var scans = 0
        for await _ in phone.device.wifiScans() { scans += 1 }
        for await _ in phone.device.rangingReports() { scans += 1 }
        #expect(scans == 0)
    }
}

final class SendableCounts: @unchecked Sendable {
    private var counts: [String: Int] = [:]
    func add(_ key: String) { counts[key, default: 0] += 1 }
    var value: [String: Int] { counts }
}
