import DeviceSimFriendLocator
import DeviceSimHAL
import DeviceSimServer
import DeviceSimTestSupport
import DeviceSimTime
import Testing

/// Issue 11, points 2 and 3 and the sign-up use case: who sees whom, and sharing off.
@Suite struct VisibilityAndSharingTests {
    let library = HotspotInfo(name: "library", center: GeoCoordinate(latitude: 52.5108, longitude: 13.3305), accessPoints: ["02:00:00:00:01:01"])

    func make(_ accounts: [FriendLocatorServer.Account]) -> (EventScheduler, FriendLocatorServer, SimulationBound<FriendLocatorServer>) {
        let scheduler = EventScheduler()
        let backend = FriendLocatorServer(scheduler: scheduler, events: TraceRecorder(), hotspots: [library], accounts: accounts)
        return (scheduler, backend, SimulationBound(backend, executor: scheduler.executor))
    }

    func run<Value: Sendable>(_ scheduler: EventScheduler, _ body: @escaping @Sendable () async -> Value) throws -> Value {
        let result = SendableBox<Value>()
        scheduler.spawn { result.value = await body() }
        try scheduler.run(for: .seconds(10))
        return try #require(result.value)
    }

    @Test func aStrangerWhoAddsSomeoneDoesNotSeeHerUntilSheListsHim() throws {
        let (scheduler, backend, bound) = make([
            .init(id: "alice", email: "alice@tu-berlin.de"), .init(id: "mallory", email: "mallory@tu-berlin.de"),
        ])
        let here = SharedLocation(account: "alice", hotspot: "library", coordinate: nil, precision: .hotspot)
        let there = SharedLocation(account: "mallory", hotspot: "library", coordinate: nil, precision: .hotspot)
        _ = try run(scheduler) { try? await bound.value.updateLocation(here) }
        _ = try run(scheduler) { try? await bound.value.updateLocation(there) }
        _ = try run(scheduler) { try? await bound.value.addFriend(email: "alice@tu-berlin.de", to: "mallory") }
        #expect(backend.accounts["mallory"]?.friends == ["alice"])
        // Mallory lists Alice, but Alice does not list Mallory: he does not see her; she does not see him either.
        #expect(try run(scheduler) { (try? await bound.value.friendsInArea(of: "mallory"))?.map(\.account) } == [])
        #expect(try run(scheduler) { (try? await bound.value.friendsInArea(of: "alice"))?.map(\.account) } == [])
        _ = try run(scheduler) { try? await bound.value.addFriend(email: "mallory@tu-berlin.de", to: "alice") }
        #expect(try run(scheduler) { (try? await bound.value.friendsInArea(of: "mallory"))?.map(\.account) } == ["alice"])
        #expect(try run(scheduler) { (try? await bound.value.friendsInArea(of: "alice"))?.map(\.account) } == ["mallory"])
    }

    @Test func anAccountThatDoesNotShareCannotPingAndSaysSo() throws {
        let (scheduler, backend, bound) = make([.init(id: "carol", friends: ["bob"], sharing: false), .init(id: "bob", friends: ["carol"])])
        let location = SharedLocation(account: "carol", hotspot: "library", coordinate: nil, precision: .beacon)
        let outcome = try run(scheduler) { () async -> String in
            do throws(BackendError) {
                return try await bound.value.ping(from: "carol", group: "friends", location: location).joined()
            } catch {
                return error.description
            }
        }
        #expect(outcome == "carol has turned location tracking off")
        #expect(backend.pingCount == 0)
        #expect(try run(scheduler) { try? await bound.value.isSharing("carol") } == false)
        #expect(try run(scheduler) { try? await bound.value.isSharing("bob") } == true)
    }

    @Test func signingUpFindsTheUniversityAccountOrSaysWhy() throws {
        let (scheduler, _, bound) = make([.init(id: "alice", email: "alice@tu-berlin.de")])
        #expect(try run(scheduler) { try? await bound.value.signUp(email: "Alice@TU-Berlin.de") } == "alice")
        let refused = try run(scheduler) { () async -> String in
            do throws(BackendError) { return try await bound.value.signUp(email: "alice@tu-berlin.com") } catch { return error.description }
        }
        #expect(refused == "no user with the e-mail address alice@tu-berlin.com")
    }
}
