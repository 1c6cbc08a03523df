import DeviceSimHAL
import DeviceSimServer

/// One device's side of the ``SimulatedGameServer``: each request crosses the device's
/// ``ServerConnection`` (latency, drops in flight, timeouts) and is handled by the server when it
/// arrives. A lost reply leaves what the server did in place: a retried "objective achieved" carries
/// the same request id and gets the first answer again (the points), never counted twice.
final class GameServerClient: CampusGameBackend {
    let server: SimulatedGameServer
    let connection: ServerConnection

    init(server: SimulatedGameServer, connection: ServerConnection) {
        self.server = server
        self.connection = connection
    }

    func join(_ account: String) async throws(BackendError) -> GameJoin {
        try await connection.send("join") { () throws(BackendError) in try server.serveJoin(account) }
    }

    func todaysGame(for account: String) async throws(BackendError) -> GameOfTheDay {
        try await connection.send("objectives") { () throws(BackendError) in try server.serveTodaysGame(for: account) }
    }

    func achieve(
        objective: String, by account: String, at coordinate: GeoCoordinate, accuracy: Double, in game: String?, requestID: String?
    ) async throws(BackendError) -> ObjectiveOutcome {
        try await connection.send("achieve") { () throws(BackendError) in
            try server.serveAchieve(objective: objective, by: account, at: coordinate, accuracy: accuracy, in: game, requestID: requestID)
        }
    }

    func scoreboard(_ period: ScoreboardPeriod, for account: String) async throws(BackendError) -> Scoreboard {
        try await connection.send("scoreboard") { () throws(BackendError) in try server.serveScoreboard(period, for: account) }
    }
}
