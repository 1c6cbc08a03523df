import DeviceSimFriendLocator
import DeviceSimHAL
import DeviceSimServer
import DeviceSimStorage
import DeviceSimTestSupport
import DeviceSimTime
import Foundation
import Testing

/// Request ids on the backend and the app's own database: a retried request is not applied twice,
/// and what the app saved comes back whole.
@Suite struct NothingLostTests {
    let library = HotspotInfo(name: "library", center: GeoCoordinate(latitude: 52.5108, longitude: 13.3305), accessPoints: ["02:00:00:00:01:01"])

    @Test func aRetriedPingOrSyncIsAnsweredAsBeforeAndNotAppliedTwice() throws {
        let scheduler = EventScheduler()
        let trace = TraceRecorder()
        let backend = FriendLocatorServer(scheduler: scheduler, events: trace, hotspots: [library], accounts: [
            .init(id: "alice", friends: ["bob"]), .init(id: "bob", friends: ["alice"]),
        ])
        var received = 0
        let subscription = backend.observePings(to: "bob") { _ in received += 1 }
        let bound = SimulationBound(backend, executor: scheduler.executor)
        let there = SharedLocation(account: "alice", hotspot: "library", coordinate: nil, precision: .hotspot)
        let gone = SharedLocation(account: "alice", hotspot: nil, coordinate: nil, precision: .hotspot)
        scheduler.spawn {
            let backend = bound.value
            _ = try? await backend.ping(from: "alice", group: "friends", location: there, requestID: "p1")
            _ = try? await backend.ping(from: "alice", group: "friends", location: there, requestID: "p1")
            try? await backend.updateLocation(there, requestID: "s1")
            try? await backend.updateLocation(gone, requestID: "s2")
            try? await backend.updateLocation(there, requestID: "s1")     // a late retry of the first
        }
        try scheduler.run(for: .seconds(10))
        #expect(received == 1)
        #expect(backend.pingCount == 1)
        #expect(backend.lastLocations["alice"]?.hotspot == nil)
        #expect(trace.events.filter { $0.name == "backend.repeated" }.count == 2)
        #expect(backend.rows(of: "locations", account: "alice") == [[.text("alice"), .null, .text("hotspot")]], "no hotspot is NULL, not the text null")
        #expect(backend.rows(of: "friends", account: nil) == [[.text("alice"), .text("bob")], [.text("bob"), .text("alice")]])
        subscription.cancel()
    }

    @Test func theAppsDatabaseKeepsTheSessionAndTheOutbox() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fl-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("alice.friend-locator.sqlite").path
        let store = SQLiteFriendLocatorStore(database: SQLiteDatabase(path: path, migrations: SQLiteFriendLocatorStore.migrations, now: { .zero }))
        #expect(try store.load() == nil)
        let state = FriendLocatorLocalState(account: "alice", trackingOff: false, queued: [
            .init(kind: .sync, requestID: "alice/sync/1", group: nil,
                  location: SharedLocation(account: "alice", hotspot: nil, coordinate: nil, precision: .hotspot), version: 3, attempts: 1),
            .init(kind: .ping, requestID: "alice/ping/2", group: "family",
                  location: SharedLocation(account: "alice", hotspot: "library", coordinate: GeoCoordinate(latitude: 52.5, longitude: 13.3), precision: .manual),
                  version: 0, attempts: 2),
        ], visits: [
            .init(hotspot: "library", group: "family", isComplete: true),
            .init(hotspot: "mensa", group: nil, isComplete: false),
        ])
        try store.save(state)
        let reopened = SQLiteFriendLocatorStore(database: SQLiteDatabase(path: path, migrations: SQLiteFriendLocatorStore.migrations, now: { .zero }))
        #expect(try reopened.load() == state)
    }
}
