import DeviceSimCampusGame
import DeviceSimHAL
import DeviceSimServer
import DeviceSimTesting
import DeviceSimTime
import Foundation
import Testing

/// The campus game app's day boundary and its retries, on a test simulation.
@Suite struct CampusGameAppTests {
    static let dome = GameObjective(id: "dome", name: "Great Dome", center: GeoCoordinate(latitude: 60.2269, longitude: 25.0139), radius: 35, points: 15, info: "A dome.")
    /// 23:50 in Helsinki (UTC+2) on Monday 23 November 2026: local midnight 10 minutes in.
    static let start = Date(timeIntervalSince1970: 1_795_470_600)   // 2026-11-23T21:50:00Z

    struct Setup {
        let simulation: TestSimulation
        let server: SimulatedGameServer
        let store: InMemoryCampusGameStore
        let app: CampusGameApp
    }

    static func make() throws -> Setup {
        let simulation = TestSimulation(seed: 1, startDate: start)
        let phone = simulation.addDevice("phone", at: dome.center)
        let calendar = try GameCalendar(startDate: start, timeZone: "Europe/Helsinki")
        let server = SimulatedGameServer(scheduler: simulation.scheduler, events: simulation.trace, calendar: calendar, objectives: [dome])
        let store = InMemoryCampusGameStore()
        let app = CampusGameApp(device: phone.device, account: "aino", server: server, store: store, calendar: calendar)
        return Setup(simulation: simulation, server: server, store: store, app: app)
    }

    @Test func afterLocalMidnightYesterdaysGameDoesNotSayAlreadyAchievedToday() throws {
        let setup = try Self.make()
        try setup.simulation.advance(by: .seconds(10))
        setup.app.joinGame()
        try setup.simulation.advance(by: .seconds(10))
        setup.app.objectiveAchieved()
        try setup.simulation.advance(by: .seconds(10))
        #expect(setup.store.state.gameID == "2026-11-23" && setup.store.state.achieved == ["dome"])
        // 00:05 on Tuesday: the stored game is Monday's.
        try setup.simulation.advance(to: VirtualInstant(offset: .seconds(15 * 60)))
        #expect(setup.app.todaysGameID == "2026-11-24")
        setup.app.objectiveAchieved()
        try setup.simulation.advance(by: .seconds(1))
        #expect(setup.simulation.events(named: "objective.already-achieved").isEmpty)
        let error = try #require(setup.simulation.events(named: "game.error").last)
        #expect(error.fields.first { $0.key == "reason" }?.value == .string("today's game (2026-11-24) not joined on this phone; its game is of 2026-11-23"))
        // Joined today, it counts again for the new day.
        setup.app.joinGame()
        try setup.simulation.advance(by: .seconds(1))
        setup.app.objectiveAchieved()
        try setup.simulation.advance(by: .seconds(1))
        #expect(setup.server.achievements.map(\.game) == ["2026-11-23", "2026-11-24"])
        #expect(setup.store.state.gameID == "2026-11-24" && setup.store.state.achieved == ["dome"])
    }

    @Test func everyGameErrorSaysWhy() throws {
        let setup = try Self.make()
        try setup.simulation.advance(by: .seconds(10))
        setup.app.objectiveAchieved()                  // not joined
        try setup.simulation.advance(by: .seconds(1))
        setup.app.joinGame()
        try setup.simulation.advance(by: .seconds(1))
        setup.server.injectFailure(.achieve, count: 1)
        setup.app.objectiveAchieved()                  // a server error
        try setup.simulation.advance(by: .seconds(1))
        for event in setup.simulation.events(named: "game.error") {
            #expect(event.fields.contains { $0.key == "reason" }, "\(event)")
            #expect(event.fields.contains { $0.key == "message" }, "\(event)")
        }
        #expect(setup.simulation.events(named: "game.error").count == 2)
    }

    /// A store whose next save kills the app in the middle of the write (the write fails), as
    /// `kill-app during: next-write` does.
    final class KilledInTheWriteStore: CampusGameStore {
        var state = CampusGameLocalState()
        var app: CampusGameApp?
        var killNextSave = false

        func load() throws(StorageError) -> CampusGameLocalState { state }

        func save(_ state: CampusGameLocalState) throws(StorageError) {
            guard killNextSave else {
                self.state = state
                return
            }
            killNextSave = false
            app?.stop()
            throw .writeFailed(key: "campus game", reason: "the app was killed during the write")
        }
    }

    @Test func anAppKilledInTheMiddleOfASaveShowsNothingMore() throws {
        let setup = try Self.make()
        let store = KilledInTheWriteStore()
        let app = CampusGameApp(device: setup.app.device, account: "aino", server: setup.server, store: store, calendar: setup.app.calendar)
        store.app = app
        app.joinGame()
        try setup.simulation.advance(by: .seconds(1))
        #expect(setup.simulation.events(named: "game.join-shown").count == 1)
        store.killNextSave = true
        app.objectiveAchieved()
        try setup.simulation.advance(by: .seconds(1))
        #expect(app.isStopped)
        #expect(setup.server.achievements.map(\.objective) == ["dome"], "the server counted it")
        #expect(setup.simulation.events(named: "game.error").isEmpty, "a dead app shows no 'could not save it'")
        #expect(setup.simulation.events(named: "objective.confirmed").isEmpty, "a dead app shows no points")

        // Killed while saving a join: no join shown.
        let again = CampusGameApp(device: setup.app.device, account: "aino", server: setup.server, store: store, calendar: setup.app.calendar)
        store.app = again
        store.killNextSave = true
        again.joinGame()
        try setup.simulation.advance(by: .seconds(1))
        #expect(again.isStopped)
        #expect(setup.simulation.events(named: "game.join-shown").count == 1)
        #expect(setup.simulation.events(named: "game.error").isEmpty)
    }

    @Test func anAppStoppedWhileARequestIsOnItsWayShowsNothingAndBlamesNoServer() throws {
        let setup = try Self.make()
        setup.app.joinGame()
        try setup.simulation.advance(by: .milliseconds(100))   // the request takes 200 ms
        setup.app.stop()
        try setup.simulation.advance(by: .seconds(1))
        #expect(setup.simulation.events(named: "game.error").isEmpty)
        #expect(setup.simulation.events(named: "game.join-shown").isEmpty)
        #expect(setup.server.players.isEmpty, "the abandoned request never reached the server")
    }

    @Test func aReplyLostBeforeMidnightIsRetriedAfterItAndShowsThePoints() throws {
        let simulation = TestSimulation(seed: 1, startDate: Self.start)
        let phone = simulation.addDevice("phone", at: Self.dome.center)
        let calendar = try GameCalendar(startDate: Self.start, timeZone: "Europe/Helsinki")
        let server = SimulatedGameServer(scheduler: simulation.scheduler, events: simulation.trace, calendar: calendar, objectives: [Self.dome])
        let drops = ConnectionDrops()
        let connection = ServerConnection(device: phone.device, latency: .milliseconds(200), random: SeededRandomGenerator(seed: 1), drops: drops)
        let store = InMemoryCampusGameStore()
        let app = CampusGameApp(device: phone.device, account: "aino", server: server.client(connection: connection), store: store, calendar: calendar)
        app.joinGame()
        try simulation.advance(by: .seconds(1))
        // 23:59:50: the server counts the tap, the connection drops and the reply is lost.
        try simulation.advance(to: VirtualInstant(offset: .seconds(9 * 60 + 50)))
        app.objectiveAchieved()
        try simulation.advance(by: .milliseconds(100))
        drops.during(.reply) {
            phone.connectivity.state = .offline
            phone.connectivity.state = .online
        }
        try simulation.advance(by: .seconds(20))            // 00:00:10: the phone gave up at 00:00:05
        #expect(server.achievements.map(\.game) == ["2026-11-23"])
        #expect(store.state.unanswered == ["dome"] && store.state.achieved.isEmpty)
        // The retry after midnight goes to the server with Monday's game and request id: the points.
        app.objectiveAchieved()
        try simulation.advance(by: .seconds(1))
        let confirmed = try #require(simulation.events(named: "objective.confirmed").first)
        #expect(confirmed.fields.first { $0.key == "points" }?.value == .int(15))
        #expect(store.state.gameID == "2026-11-23" && store.state.achieved == ["dome"] && store.state.unanswered.isEmpty)
        // A new tap: today's game must be joined first.
        app.objectiveAchieved()
        try simulation.advance(by: .seconds(1))
        let error = try #require(simulation.events(named: "game.error").last)
        #expect(error.fields.first { $0.key == "message" }?.value == .string("A new day's game has begun: join today's game first."))
        #expect(server.achievements.count == 1)
    }
}
