import DeviceSimFriendLocator
import DeviceSimHAL
import DeviceSimServer
import DeviceSimTestSupport
import DeviceSimTime
import Testing

@Suite struct FriendLocatorServerTests {
    let library = HotspotInfo(name: "library", center: GeoCoordinate(latitude: 52.5108, longitude: 13.3305), accessPoints: ["02:00:00:00:01:01"])

    func make() -> (EventScheduler, TraceRecorder, FriendLocatorServer) {
        let scheduler = EventScheduler()
        let trace = TraceRecorder()
        let backend = FriendLocatorServer(scheduler: scheduler, events: trace, hotspots: [library], accounts: [
            .init(id: "alice", email: "alice@tu-berlin.de", friends: ["bob"], groups: ["family": ["bob", "carol"]]),
            .init(id: "bob", email: "bob@tu-berlin.de", friends: ["alice"]),
            .init(id: "carol", email: "carol@tu-berlin.de", friends: ["alice"]),
            .init(id: "dave", email: "dave@tu-berlin.de", sharing: false),
        ])
        return (scheduler, trace, backend)
    }

    /// Runs `body` as a task on the simulation and returns its result after `duration` of virtual time.
    func run<Value: Sendable>(_ scheduler: EventScheduler, for duration: Duration = .seconds(10), _ body: @escaping @Sendable () async -> Value) throws -> Value {
        let result = SendableBox<Value>()
        scheduler.spawn { result.value = await body() }
        try scheduler.run(for: duration)
        guard let value = result.value else { throw Unfinished() }
        return value
    }

    struct Unfinished: Error {}

    @Test func addingAFriendFindsTheAccountByEMailOrSaysItIsNotFound() throws {
        let (scheduler, _, backend) = make()
        let bound = SimulationBound(backend, executor: scheduler.executor)
        let found = try run(scheduler) { try? await bound.value.addFriend(email: "Dave@TU-Berlin.de", to: "alice") }
        #expect(found == "dave")
        #expect(backend.accounts["alice"]?.friends == ["bob", "dave"])
        let missing = try run(scheduler) { () async -> BackendError? in
            do throws(BackendError) { _ = try await bound.value.addFriend(email: "nobody@tu-berlin.de", to: "alice"); return nil } catch { return error }
        }
        #expect(missing == .notFound(email: "nobody@tu-berlin.de"))
        #expect(backend.accounts["alice"]?.friends == ["bob", "dave"])
    }

    @Test func aPingGoesToTheGroupsMembersOneLatencyLater() throws {
        let (scheduler, trace, backend) = make()
        let bound = SimulationBound(backend, executor: scheduler.executor)
        var received: [(String, Double, PingNotice)] = []
        let subscriptions = ["bob", "carol", "dave"].map { account in
            backend.observePings(to: account) { received.append((account, scheduler.now.seconds, $0)) }
        }
        let location = SharedLocation(account: "alice", hotspot: "library", coordinate: nil, precision: .hotspot)
        let recipients = try run(scheduler) { try? await bound.value.ping(from: "alice", group: "family", location: location) }
        #expect(recipients == ["bob", "carol"])
        #expect(received.map(\.0) == ["bob", "carol"])
        #expect(received.map(\.1) == [0.4, 0.4])  // request latency, then push latency
        #expect(received.first?.2 == PingNotice(from: "alice", group: "family", location: location))
        #expect(trace.events.map(\.name) == ["backend.ping"])
        let unknown = try run(scheduler) { () async -> BackendError? in
            do throws(BackendError) { _ = try await bound.value.ping(from: "alice", group: "colleagues", location: location); return nil } catch { return error }
        }
        #expect(unknown == .unknownGroup("colleagues"))
        _ = subscriptions
    }

    /// The default of a scenario without accounts: everyone a friend of everyone, as a rule. Pings go
    /// to every other account in the order the accounts were given, after her own listed friends;
    /// adding a friend adds nobody twice; "friends in my area" sees every sharing friend in a hotspot.
    @Test func aFriendOfEveryoneReachesEveryOtherAccountInOrder() throws {
        let scheduler = EventScheduler()
        let ids = (0..<50).map { "d\($0)" }
        var accounts = FriendLocatorServer.Account.allFriends(ids)
        accounts[0].friends = ["d7"]
        accounts[3].sharing = false
        let backend = FriendLocatorServer(scheduler: scheduler, events: TraceRecorder(), hotspots: [library], accounts: accounts)
        let bound = SimulationBound(backend, executor: scheduler.executor)
        let location = SharedLocation(account: "d0", hotspot: "library", coordinate: nil, precision: .hotspot)
        let recipients = try run(scheduler) { try? await bound.value.ping(from: "d0", group: "friends", location: location) }
        #expect(recipients == ["d7"] + ids.filter { $0 != "d0" && $0 != "d7" })
        #expect(backend.friends(of: backend.accounts["d5"]!) == ids.filter { $0 != "d5" })
        #expect(backend.isFriend("d49", of: backend.accounts["d5"]!) && !backend.isFriend("d5", of: backend.accounts["d5"]!))
        #expect(!backend.isFriend("stranger", of: backend.accounts["d5"]!))
        _ = try run(scheduler) { try? await bound.value.addFriend(email: "d9@example.org", to: "d5") }
        #expect(backend.accounts["d5"]?.friends == [], "d9 is a friend already")
        for sharer in ["d2", "d3", "d4"] {
            let shared = SharedLocation(account: sharer, hotspot: "library", coordinate: nil, precision: .hotspot)
            _ = try run(scheduler) { try? await bound.value.updateLocation(shared) }
        }
        let inArea = try run(scheduler) { try? await bound.value.friendsInArea(of: "d1") }
        #expect(inArea?.map(\.account) == ["d2", "d4"], "d3 does not share")
    }

    @Test func friendsInMyAreaAreFriendsInAHotspotWhoShare() throws {
        let (scheduler, _, backend) = make()
        let bound = SimulationBound(backend, executor: scheduler.executor)
        #expect(try run(scheduler) { try? await bound.value.friendsInArea(of: "alice") } == [])
        let bob = SharedLocation(account: "bob", hotspot: "library", coordinate: nil, precision: .beacon)
        let carol = SharedLocation(account: "carol", hotspot: nil, coordinate: nil, precision: .hotspot)
        _ = try run(scheduler) {
            try? await bound.value.updateLocation(bob)
            try? await bound.value.updateLocation(carol)
        }
        #expect(try run(scheduler) { try? await bound.value.friendsInArea(of: "alice") } == [bob])
        let denied = try run(scheduler) { () async -> BackendError? in
            do throws(BackendError) { try await bound.value.updateLocation(SharedLocation(account: "dave", hotspot: "library", coordinate: nil, precision: .hotspot)); return nil } catch { return error }
        }
        #expect(denied == .locationOff("dave"))
    }

    @Test func quitDeletesTheLastLocationAndDeniesFurtherRequests() throws {
        let (scheduler, _, backend) = make()
        let bound = SimulationBound(backend, executor: scheduler.executor)
        let bob = SharedLocation(account: "bob", hotspot: "library", coordinate: nil, precision: .hotspot)
        _ = try run(scheduler) { try? await bound.value.updateLocation(bob) }
        #expect(backend.lastLocations["bob"] == bob)
        _ = try run(scheduler) { try? await bound.value.quit("bob") }
        #expect(backend.lastLocations["bob"] == nil)
        #expect(try run(scheduler) { try? await bound.value.friendsInArea(of: "alice") } == [])
        let denied = try run(scheduler) { () async -> BackendError? in
            do throws(BackendError) { try await bound.value.updateLocation(bob); return nil } catch { return error }
        }
        #expect(denied == .locationOff("bob"))
    }

    @Test func injectedFailuresApplyToTheirOperationAndWindowOrCount() throws {
        let (scheduler, trace, backend) = make()
        let bound = SimulationBound(backend, executor: scheduler.executor)
        backend.injectFailure(.quit)
        backend.injectFailure(FriendLocatorServer.Failure(operation: .hotspots, from: VirtualInstant(offset: .seconds(20)), until: VirtualInstant(offset: .seconds(40))))
        let first = try run(scheduler) { () async -> BackendError? in
            do throws(BackendError) { try await bound.value.quit("bob"); return nil } catch { return error }
        }
        #expect(first == .serverError(operation: "quit"))
        #expect(backend.lastLocations["bob"] == nil && !backend.quitAccounts.contains("bob"))
        let second = try run(scheduler) { () async -> BackendError? in
            do throws(BackendError) { try await bound.value.quit("bob"); return nil } catch { return error }
        }
        #expect(second == nil)  // only the next one failed
        #expect(try run(scheduler) { try? await bound.value.hotspots() } == nil)  // at 20 s: inside the window
        try scheduler.run(for: .seconds(20))
        #expect(try run(scheduler) { try? await bound.value.hotspots() } == [library])
        #expect(trace.events.filter { $0.name == "backend.failed" }.count == 2)
    }
}
