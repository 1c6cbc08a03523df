import DeviceSimCampusGame
import DeviceSimHAL
import DeviceSimTime
import Foundation
import PropertyBased
import Testing

/// Random games: players join and achieve objectives at random times over nine days (across the
/// spring daylight-saving change in Berlin); the server's daily and weekly scoreboards, kept as
/// running totals, must equal a brute force that replays every request from scratch and sorts all
/// players' scores.
@Suite struct ScoreboardPropertyTests {
    static let objectives = [SimulatedGameServerTests.library, SimulatedGameServerTests.mensa]
    static let latency = 0.2

    /// One player's visit: join today's game, then claim an objective.
    struct Visit {
        var player: String
        var objective: GameObjective
        var start: Int   // seconds after virtual zero
    }

    @Test func scoreboardsEqualABruteForceSortOfAllScores() async {
        await propertyCheck(
            count: 150,
            input: Gen.int(in: 1...25), Gen.int(in: 0...Int(Int32.max)).array(of: 1...80), Gen.int(in: 0...24)
        ) { playerCount, draws, requesterIndex in
            // Visits at distinct whole seconds over nine days (every request finishes long before the next).
            var seen = Set<Int>()
            let visits = draws.compactMap { draw -> Visit? in
                let start = (draw / 3) % (9 * 86_400)
                guard seen.insert(start).inserted else { return nil }
                return Visit(player: "p\(draw % playerCount)", objective: Self.objectives[(draw / 7) % 2], start: start)
            }.sorted { $0.start < $1.start }
            let requester = "p\(requesterIndex % (playerCount + 1))"   // sometimes a player who never played
            let end = (visits.last?.start ?? 0) + Int(draws.first ?? 0) % 90_000 + 1

            let server = try Self.play(visits, until: end)
            let calendar = server.calendar
            let now = VirtualInstant(offset: .seconds(end))
            for period in ScoreboardPeriod.allCases {
                let expected = Self.bruteForce(visits, period: period, now: now, calendar: calendar, requester: requester)
                #expect(server.currentScoreboard(period, for: requester).rows == expected, "\(period) at \(end) s for \(requester)")
            }
        }
    }

    /// Runs the visits through a real server in virtual time.
    static func play(_ visits: [Visit], until end: Int) throws -> SimulatedGameServer {
        let scheduler = EventScheduler()
        let calendar = try GameCalendar(startDate: SimulatedGameServerTests.springForward, timeZone: "Europe/Berlin")
        let server = SimulatedGameServer(scheduler: scheduler, events: TraceRecorder(), calendar: calendar, objectives: objectives)
        let bound = SimulationBound(server, executor: scheduler.executor)
        for visit in visits {
            scheduler.schedule(at: VirtualInstant(offset: .seconds(visit.start))) {
                scheduler.spawn {
                    _ = try? await bound.value.join(visit.player)
                    _ = try? await bound.value.achieve(objective: visit.objective.id, by: visit.player, at: visit.objective.center, accuracy: 5)
                }
            }
        }
        try scheduler.run(until: VirtualInstant(offset: .seconds(end)))
        return server
    }

    /// Replays every request from scratch: who joined which day's game, which claims the server must
    /// accept (joined that day, first claim of that objective that day), and then every player's score
    /// in the period that contains `now`, sorted in full.
    static func bruteForce(_ visits: [Visit], period: ScoreboardPeriod, now: VirtualInstant, calendar: GameCalendar, requester: String) -> [ScoreboardRow] {
        func key(_ instant: VirtualInstant) -> String {
            period == .daily ? calendar.day(of: instant) : calendar.weekStart(of: instant)
        }
        let current = key(now)
        var joinedDays = Set<String>()              // "day|player"
        var claimed = Set<String>()                 // "day|player|objective"
        var standings: [String: PlayerStanding] = [:]
        for visit in visits {
            let joinedAt = VirtualInstant(offset: .seconds(Double(visit.start) + latency))
            let claimedAt = VirtualInstant(offset: .seconds(Double(visit.start) + 2 * latency))
            let joinDay = calendar.day(of: joinedAt)
            if joinedDays.insert("\(joinDay)|\(visit.player)").inserted, key(joinedAt) == current, standings[visit.player] == nil {
                standings[visit.player] = PlayerStanding(account: visit.player, score: 0, reachedAt: joinedAt)
            }
            let claimDay = calendar.day(of: claimedAt)
            guard joinedDays.contains("\(claimDay)|\(visit.player)"),
                  claimed.insert("\(claimDay)|\(visit.player)|\(visit.objective.id)").inserted,
                  key(claimedAt) == current else { continue }
            var standing = standings[visit.player] ?? PlayerStanding(account: visit.player, score: 0, reachedAt: claimedAt)
            standing.score += visit.objective.points
            standing.reachedAt = claimedAt
            standings[visit.player] = standing
        }
        let all = standings.values.sorted { lhs, rhs in
            (lhs.score, -lhs.reachedAt.nanoseconds, rhs.account) > (rhs.score, -rhs.reachedAt.nanoseconds, lhs.account)
        }
        var rows = all.prefix(10).enumerated().map { ScoreboardRow(rank: $0.offset + 1, account: $0.element.account, score: $0.element.score) }
        if !rows.contains(where: { $0.account == requester }) {
            let index = all.firstIndex { $0.account == requester }
            rows.append(ScoreboardRow(rank: (index ?? all.count) + 1, account: requester, score: index.map { all[$0].score } ?? 0))
        }
        return rows
    }
}
