import DeviceSimHAL
import DeviceSimServer

/// One device's side of the ``FriendLocatorServer``: each request crosses the device's
/// ``ServerConnection`` (latency, drops in flight, timeouts) and is handled by the server when it
/// arrives. Pings from friends arrive through the server's push service, not the connection.
///
/// ```swift
/// let backend = server.client(connection: simulation.serverConnection(of: device, app: "friend-locator", latency: .milliseconds(200)))
/// ```
final class LocatorServerClient: LocatorBackend {
    let server: FriendLocatorServer
    let connection: ServerConnection

    init(server: FriendLocatorServer, connection: ServerConnection) {
        self.server = server
        self.connection = connection
    }

    func signUp(email: String) async throws(BackendError) -> String {
        try await connection.send("sign-up") { () throws(BackendError) in try server.serveSignUp(email: email) }
    }

    func hotspots() async throws(BackendError) -> [HotspotInfo] {
        try await connection.send("hotspots") { () throws(BackendError) in try server.serveHotspots() }
    }

    func isSharing(_ account: String) async throws(BackendError) -> Bool {
        try await connection.send("sharing") { () throws(BackendError) in try server.serveIsSharing(account) }
    }

    func groups(of account: String) async throws(BackendError) -> [String] {
        try await connection.send("groups") { () throws(BackendError) in try server.serveGroups(of: account) }
    }

    func addFriend(email: String, to account: String) async throws(BackendError) -> String {
        try await connection.send("add-friend") { () throws(BackendError) in try server.serveAddFriend(email: email, to: account) }
    }

    func ping(from account: String, group: String, location: SharedLocation, requestID: String?) async throws(BackendError) -> [String] {
        try await connection.send("ping") { () throws(BackendError) in
            try server.servePing(from: account, group: group, location: location, requestID: requestID)
        }
    }

    func updateLocation(_ location: SharedLocation, requestID: String?) async throws(BackendError) {
        try await connection.send("update-location") { () throws(BackendError) in try server.serveUpdateLocation(location, requestID: requestID) }
    }

    func friendsInArea(of account: String) async throws(BackendError) -> [SharedLocation] {
        try await connection.send("friends-in-area") { () throws(BackendError) in try server.serveFriendsInArea(of: account) }
    }

    func quit(_ account: String) async throws(BackendError) {
        try await connection.send("quit") { () throws(BackendError) in try server.serveQuit(account) }
    }

    func observePings(to account: String, _ observer: @escaping (PingNotice) -> Void) -> ObservationToken {
        server.observePings(to: account, observer)
    }
}
