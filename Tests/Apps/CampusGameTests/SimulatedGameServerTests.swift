import DeviceSimCampusGame
import DeviceSimHAL
import DeviceSimServer
import DeviceSimStorage
import DeviceSimTestSupport
import DeviceSimTime
import Foundation
import Testing

@Suite struct SimulatedGameServerTests {
    static let library = GameObjective(
        id: "library", name: "University Library", center: GeoCoordinate(latitude: 52.5108, longitude: 13.3305),
        radius: 30, points: 10, info: "Opened in 2009."
    )
    static let mensa = GameObjective(
        id: "mensa", center: GeoCoordinate(latitude: 52.5098, longitude: 13.3260), radius: 40, points: 5, info: "Serves 6,000 meals a day."
    )
    /// Sunday 2026-03-29 00:00 in Berlin (CET, +1): the day clocks go forward at 02:00 (a 23-hour day).
    static let springForward = Date(timeIntervalSince1970: 1_774_738_800)  // 2026-03-28T23:00:00Z

    func make(start: Date = springForward, zone: String = "Europe/Berlin") throws -> (EventScheduler, TraceRecorder, SimulatedGameServer) {
        let scheduler = EventScheduler()
        let trace = TraceRecorder()
        let calendar = try GameCalendar(startDate: start, timeZone: zone)
        let server = SimulatedGameServer(scheduler: scheduler, events: trace, calendar: calendar, objectives: [Self.library, Self.mensa])
        return (scheduler, trace, server)
    }

    /// Runs `body` on the simulation starting at `instant` and returns what it returned.
    func run<Value: Sendable>(_ scheduler: EventScheduler, at instant: VirtualInstant? = nil, _ body: @escaping @Sendable () async -> Value) throws -> Value {
        if let instant { try scheduler.run(until: instant) }
        let result = SendableBox<Value>()
        scheduler.spawn { result.value = await body() }
        try scheduler.run(for: .seconds(5))
        guard let value = result.value else { throw Unfinished() }
        return value
    }

    struct Unfinished: Error {}

    // MARK: Calendar

    @Test func daysAndWeeksRollOverAtLocalMidnightAcrossDaylightSavingChanges() throws {
        let spring = try GameCalendar(startDate: Self.springForward, timeZone: "Europe/Berlin")
        // Sunday 29 March has 23 hours: Monday starts 23 h after Sunday's midnight, and so does the week.
        #expect(spring.day(of: VirtualInstant(offset: .seconds(23 * 3600 - 1))) == "2026-03-29")
        #expect(spring.day(of: VirtualInstant(offset: .seconds(23 * 3600))) == "2026-03-30")
        #expect(spring.weekStart(of: VirtualInstant(offset: .seconds(23 * 3600 - 1))) == "2026-03-23")
        #expect(spring.weekStart(of: VirtualInstant(offset: .seconds(23 * 3600))) == "2026-03-30")
        // Sunday 25 October has 25 hours (2026-10-24T22:00Z is its midnight, CEST).
        let autumn = try GameCalendar(startDate: Date(timeIntervalSince1970: 1_792_879_200), timeZone: "Europe/Berlin")
        #expect(autumn.day(of: VirtualInstant(offset: .seconds(25 * 3600 - 1))) == "2026-10-25")
        #expect(autumn.day(of: VirtualInstant(offset: .seconds(25 * 3600))) == "2026-10-26")
        #expect(autumn.weekStart(of: VirtualInstant(offset: .seconds(25 * 3600))) == "2026-10-26")
        // A week starting on Sunday, in New York.
        let sundays = try GameCalendar(startDate: Date(timeIntervalSince1970: 1_767_225_600), timeZone: "America/New_York", firstWeekday: .sunday)
        #expect(sundays.day(of: .zero) == "2025-12-31")          // 2026-01-01T00:00Z is 19:00 on New Year's Eve there
        #expect(sundays.weekStart(of: .zero) == "2025-12-28")    // a Sunday
        #expect(throws: GameCalendarError.unknownTimeZone("Mars/Olympus")) { try GameCalendar(startDate: Date(), timeZone: "Mars/Olympus") }
    }

    // MARK: Requests

    @Test func joiningTwiceAddsOnceAndReturnsTodaysObjectives() throws {
        let (scheduler, trace, server) = try make()
        let bound = SimulationBound(server, executor: scheduler.executor)
        let first = try run(scheduler) { try? await bound.value.join("alice") }
        let second = try run(scheduler) { try? await bound.value.join("alice") }
        #expect(first?.added == true && second?.added == false)
        #expect(first?.game == GameOfTheDay(id: "2026-03-29", objectives: [Self.library, Self.mensa]))
        #expect(server.players["2026-03-29"] == ["alice"])
        #expect(trace.events.map(\.name) == ["game.joined", "game.joined"])
    }

    @Test func anObjectiveIsAchievedOnceADayWithPointsAndTotals() throws {
        let (scheduler, _, server) = try make()
        let bound = SimulationBound(server, executor: scheduler.executor)
        let here = Self.library.center.destination(distance: 45, bearing: 90)   // 45 m: inside 30 m + 20 m allowance
        _ = try run(scheduler) { try? await bound.value.join("alice") }
        let outcome = try run(scheduler) { try? await bound.value.achieve(objective: "library", by: "alice", at: here, accuracy: 25) }
        #expect(outcome == .achieved(points: 10, daily: 10, weekly: 10, info: "Opened in 2009."))
        let again = try run(scheduler) { try? await bound.value.achieve(objective: "library", by: "alice", at: here, accuracy: 25) }
        #expect(again == .alreadyAchieved(message: "You have already achieved University Library in today's game."))
        let mensa = try run(scheduler) { try? await bound.value.achieve(objective: "mensa", by: "alice", at: Self.mensa.center, accuracy: 5) }
        #expect(mensa == .achieved(points: 5, daily: 15, weekly: 15, info: "Serves 6,000 meals a day."))
        // The next day (Monday, a new week after this 23-hour Sunday) it counts again, from zero.
        _ = try run(scheduler, at: VirtualInstant(offset: .seconds(23 * 3600 + 60))) { try? await bound.value.join("alice") }
        let monday = try run(scheduler) { try? await bound.value.achieve(objective: "library", by: "alice", at: here, accuracy: 25) }
        #expect(monday == .achieved(points: 10, daily: 10, weekly: 10, info: "Opened in 2009."))
    }

    @Test func theServerChecksMembershipTheObjectiveAndThePosition() throws {
        let (scheduler, trace, server) = try make()
        let bound = SimulationBound(server, executor: scheduler.executor)
        func achieveError(_ objective: String, at coordinate: GeoCoordinate, accuracy: Double) throws -> BackendError? {
            try run(scheduler) { () async -> BackendError? in
                do throws(BackendError) { _ = try await bound.value.achieve(objective: objective, by: "bob", at: coordinate, accuracy: accuracy); return nil } catch { return error }
            }
        }
        #expect(try achieveError("library", at: Self.library.center, accuracy: 5) == .notInGame("bob"))
        _ = try run(scheduler) { try? await bound.value.join("bob") }
        #expect(try achieveError("gym", at: Self.library.center, accuracy: 5) == .unknownObjective("gym"))
        // 51 m away with a 100 m accuracy: the allowance is capped at 20 m, so 30 + 20 < 51.
        #expect(try achieveError("library", at: Self.library.center.destination(distance: 51, bearing: 0), accuracy: 100) == .notAtObjective("library"))
        #expect(server.achievements.isEmpty)
        #expect(trace.events.filter { $0.name == "game.position-rejected" }.count == 1)
    }

    @Test func aRetriedRequestGetsItsFirstAnswerAgainAndIsCountedOnce() throws {
        let (scheduler, trace, server) = try make()
        let bound = SimulationBound(server, executor: scheduler.executor)
        _ = try run(scheduler) { try? await bound.value.join("alice") }
        func achieve(_ id: String?) throws -> ObjectiveOutcome? {
            try run(scheduler) {
                try? await bound.value.achieve(objective: "library", by: "alice", at: Self.library.center, accuracy: 5, in: "2026-03-29", requestID: id)
            }
        }
        let first = try achieve("phone/2026-03-29/library")
        let retry = try achieve("phone/2026-03-29/library")
        let other = try achieve("tablet/2026-03-29/library")
        #expect(first == .achieved(points: 10, daily: 10, weekly: 10, info: "Opened in 2009."))
        #expect(retry == first)
        #expect(other == .alreadyAchieved(message: "You have already achieved University Library in today's game."))
        #expect(server.achievements.count == 1)
        #expect(trace.events.filter { $0.name == "game.repeated" }.count == 1)
        #expect(server.rows(of: "achievements", account: nil) == [[.text("2026-03-29"), .text("alice"), .text("library"), .integer(10)]], "points are a number")
        #expect(server.rows(of: "scores", account: "alice") == [[.text("2026-03-29"), .text("alice"), .integer(10)]])
    }

    @Test func aRequestForADaysGameThatIsOverCountsNothing() throws {
        let (scheduler, trace, server) = try make()
        let bound = SimulationBound(server, executor: scheduler.executor)
        _ = try run(scheduler) { try? await bound.value.join("alice") }
        // Monday 00:00:30 (23 h 30 s in): alice is in Monday's game too, but her phone names Sunday's.
        _ = try run(scheduler, at: VirtualInstant(offset: .seconds(23 * 3600 + 30))) { try? await bound.value.join("alice") }
        let refused = try run(scheduler) { () async -> BackendError? in
            do throws(BackendError) {
                _ = try await bound.value.achieve(objective: "library", by: "alice", at: Self.library.center, accuracy: 5, in: "2026-03-29", requestID: "p/1")
                return nil
            } catch { return error }
        }
        #expect(refused == .gameOver("2026-03-29"))
        #expect(server.achievements.isEmpty)
        #expect(trace.events.last?.name == "game.over")
        #expect(server.rows(of: "players", account: nil) == [[.text("2026-03-29"), .text("alice")], [.text("2026-03-30"), .text("alice")]])
    }

    @Test func preloadedPlayersAreInTodaysGameWithTheirPointsOnce() throws {
        let (_, trace, server) = try make()
        server.preload(account: "bob", achieved: ["library", "mensa", "gym"])
        server.preload(account: "bob", achieved: ["library"])
        server.preload(account: "carol", achieved: [])
        #expect(server.players["2026-03-29"] == ["bob", "carol"])
        #expect(server.achievements.map(\.objective) == ["library", "mensa"])
        #expect(server.currentScoreboard(.daily, for: "carol").rows == [ScoreboardRow(rank: 1, account: "bob", score: 15), ScoreboardRow(rank: 2, account: "carol", score: 0)])
        #expect(server.currentScoreboard(.weekly, for: "bob").rows.first == ScoreboardRow(rank: 1, account: "bob", score: 15))
        #expect(trace.events.isEmpty)
    }

    @Test func injectedFailuresFailTheRequestAndChangeNothing() throws {
        let (scheduler, _, server) = try make()
        let bound = SimulationBound(server, executor: scheduler.executor)
        server.injectFailure(.join, count: 1)
        let failed = try run(scheduler) { () async -> BackendError? in
            do throws(BackendError) { _ = try await bound.value.join("carol"); return nil } catch { return error }
        }
        #expect(failed == .serverError(operation: "join"))
        #expect(server.players.isEmpty)
        let joined = try run(scheduler) { try? await bound.value.join("carol") }
        #expect(joined?.added == true)
    }

    // MARK: Scoreboards, computed by hand

    @Test func theTopTenAndTheRequestersOwnRow() throws {
        // Twelve players; p1 has 12 points ... p12 has 1; p12 asks.
        let standings = (1...12).map { PlayerStanding(account: "p\($0)", score: 13 - $0, reachedAt: VirtualInstant(offset: .seconds($0))) }
        let rows = ScoreboardRanking.rows(standings.shuffled(), requester: "p12")
        #expect(rows.map(\.account) == ["p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8", "p9", "p10", "p12"])
        #expect(rows.map(\.rank) == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12])
        #expect(rows.last == ScoreboardRow(rank: 12, account: "p12", score: 1))
        // A requester inside the top ten adds no row; one with no standing shows 0 after everyone.
        #expect(ScoreboardRanking.rows(standings, requester: "p3").count == 10)
        #expect(ScoreboardRanking.rows(standings, requester: "zoe").last == ScoreboardRow(rank: 13, account: "zoe", score: 0))
    }

    @Test func tiesGoToWhoeverReachedTheScoreFirstThenTheAccountId() {
        let rows = ScoreboardRanking.rows([
            PlayerStanding(account: "carol", score: 20, reachedAt: VirtualInstant(offset: .seconds(50))),
            PlayerStanding(account: "bob", score: 20, reachedAt: VirtualInstant(offset: .seconds(30))),
            PlayerStanding(account: "alice", score: 20, reachedAt: VirtualInstant(offset: .seconds(50))),
            PlayerStanding(account: "dave", score: 25, reachedAt: VirtualInstant(offset: .seconds(90))),
        ], requester: "alice")
        #expect(rows.map(\.account) == ["dave", "bob", "alice", "carol"])
    }

    @Test func dailyAndWeeklyBoardsRollOverAtMidnightAndOnMonday() throws {
        let (scheduler, _, server) = try make()
        let bound = SimulationBound(server, executor: scheduler.executor)
        for player in ["alice", "bob"] { _ = try run(scheduler) { try? await bound.value.join(player) } }
        _ = try run(scheduler) { try? await bound.value.achieve(objective: "library", by: "alice", at: Self.library.center, accuracy: 5) }
        _ = try run(scheduler) { try? await bound.value.achieve(objective: "mensa", by: "bob", at: Self.mensa.center, accuracy: 5) }
        let sunday = try run(scheduler) { try? await bound.value.scoreboard(.daily, for: "bob") }
        #expect(sunday?.periodStart == "2026-03-29")
        #expect(sunday?.rows == [ScoreboardRow(rank: 1, account: "alice", score: 10), ScoreboardRow(rank: 2, account: "bob", score: 5)])
        // Monday 00:00:30 local (23 h 30 s in): a new day and a new week; only bob joins and scores.
        _ = try run(scheduler, at: VirtualInstant(offset: .seconds(23 * 3600 + 30))) { try? await bound.value.join("bob") }
        _ = try run(scheduler) { try? await bound.value.achieve(objective: "mensa", by: "bob", at: Self.mensa.center, accuracy: 5) }
        let monday = server.currentScoreboard(.daily, for: "alice")
        #expect(monday.periodStart == "2026-03-30")
        #expect(monday.rows == [ScoreboardRow(rank: 1, account: "bob", score: 5), ScoreboardRow(rank: 2, account: "alice", score: 0)])
        let week = server.currentScoreboard(.weekly, for: "bob")
        #expect(week.periodStart == "2026-03-30" && week.rows.map(\.score) == [5])
        // Tuesday: the week keeps Monday's points, the day starts again.
        _ = try run(scheduler, at: VirtualInstant(offset: .seconds(47 * 3600 + 30))) { try? await bound.value.join("bob") }
        _ = try run(scheduler) { try? await bound.value.achieve(objective: "library", by: "bob", at: Self.library.center, accuracy: 5) }
        #expect(server.currentScoreboard(.daily, for: "bob").rows == [ScoreboardRow(rank: 1, account: "bob", score: 10)])
        #expect(server.currentScoreboard(.weekly, for: "bob").rows == [ScoreboardRow(rank: 1, account: "bob", score: 15)])
    }
}
