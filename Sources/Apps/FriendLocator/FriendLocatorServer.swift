import DeviceSimHAL
import DeviceSimServer
import DeviceSimTime

/// The friend-locator server in virtual time: accounts, friends and groups, hotspots, pings, each
/// user's last location and sharing state, and the "quit" signal; with a latency on every request and
/// failures injected by operation and time. It also plays the federation provider (Keycloak) that
/// signs users up: it knows every account's university e-mail address.
///
/// Who sees whom: a user's location goes only to the people on her own friends list (her pings go to
/// her own groups; "friends in my area" shows a friend only if that friend lists the asker), and to
/// nobody while she does not share it (pings and location updates are refused).
///
/// Requests run on the simulation's executor (from tasks started with `scheduler.spawn`), take
/// ``Configuration/latency`` of virtual time, and go to the trace as `backend.*` events. Pings reach
/// their recipients through ``observePings(to:_:)`` one latency later, like a push service.
///
/// ```swift
/// let backend = FriendLocatorServer(scheduler: scheduler, events: trace, hotspots: world.hotspotInfos, accounts: [
///     .init(id: "alice", email: "alice@tu-berlin.de", friends: ["bob"]),
///     .init(id: "bob", email: "bob@tu-berlin.de", friends: ["alice"]),
/// ])
/// backend.injectFailure(.quit)                 // the next quit fails
/// ```
public final class FriendLocatorServer: LocatorBackend {
    /// A user account.
    public struct Account: Sendable, Hashable {
        /// The account's id (the device's user in scenarios).
        public var id: String
        /// Its e-mail address, for "add a friend".
        public var email: String
        /// Its friends (the default group `friends`), in the order they were added.
        public var friends: [String]
        /// Further groups, by name, with their members.
        public var groups: [String: [String]]
        /// Whether the user shares their location.
        public var sharing: Bool
        /// Whether every other account of the backend is her friend as well (after ``friends``, in
        /// the order the accounts were given): a rule, not a list, so a crowd of N accounts costs N,
        /// not N².
        public var friendOfEveryone: Bool

        /// Creates an account; without an e-mail address it gets `<id>@example.org`.
        public init(id: String, email: String? = nil, friends: [String] = [], groups: [String: [String]] = [:], sharing: Bool = true, friendOfEveryone: Bool = false) {
            self.id = id
            self.email = email ?? "\(id)@example.org"
            self.friends = friends
            self.groups = groups
            self.sharing = sharing
            self.friendOfEveryone = friendOfEveryone
        }

        /// An account for each of `users` (`<id>@example.org`), each the friend of all the others
        /// (``friendOfEveryone``).
        public static func allFriends(_ users: [String]) -> [Account] {
            users.map { user in Account(id: user, friendOfEveryone: true) }
        }
    }

    /// The backend's requests, as failures name them.
    public enum Operation: String, Sendable, Hashable, CaseIterable {
        case signUp = "sign-up"
        case hotspots, sharing, groups
        case addFriend = "add-friend"
        case ping
        case updateLocation = "update-location"
        case friendsInArea = "friends-in-area"
        case quit
    }

    /// Latency of every request.
    public struct Configuration: Sendable, Hashable {
        /// How long each request takes (and each push delivery).
        public var latency: Duration = .milliseconds(200)

        /// The defaults.
        public init() {}
    }

    /// A failure to inject: requests of `operation` fail from `from` until `until` (nil: for good), or
    /// only the next `count` of them.
    public struct Failure: Sendable, Hashable {
        public var operation: Operation
        public var from: VirtualInstant
        public var until: VirtualInstant?
        public var count: Int?

        /// Creates a failure rule.
        public init(operation: Operation, from: VirtualInstant = .zero, until: VirtualInstant? = nil, count: Int? = nil) {
            self.operation = operation
            self.from = from
            self.until = until
            self.count = count
        }
    }

    private let scheduler: EventScheduler
    private let events: any EventSink
    /// The backend's settings.
    public let configuration: Configuration
    private let hotspotList: [HotspotInfo]
    /// The accounts, by id.
    public private(set) var accounts: [String: Account]
    /// Each user's last location (absent: none stored, or deleted by quit).
    public private(set) var lastLocations: [String: SharedLocation] = [:]
    /// Users who sent "quit".
    public private(set) var quitAccounts: Set<String> = []
    /// How many pings were handled (each is in the trace as `backend.ping`; the backend keeps no list
    /// of them, so a long run's memory does not grow with its pings).
    public private(set) var pingCount = 0
    private var failures: [Failure] = []
    /// The recipients of every ping by account and request id (a retry gets them again).
    private var answeredPings: [String: [String]] = [:]
    /// The location updates applied, by account and request id.
    private var appliedUpdates: Set<String> = []
    private var pingObservers: [String: ObserverList<PingNotice>] = [:]
    /// The accounts' ids in the order they were given: the friends of a friend of everyone.
    private let accountOrder: [String]
    /// Each lowercased e-mail address's account id: the smallest id of that address (sign-up and
    /// add-friend look an address up once instead of sorting every account per request).
    private let accountIDByEmail: [String: String]

    /// Creates the backend with its hotspots and accounts.
    public init(scheduler: EventScheduler, events: any EventSink, configuration: Configuration = Configuration(), hotspots: [HotspotInfo], accounts: [Account]) {
        self.scheduler = scheduler
        self.events = events
        self.configuration = configuration
        self.hotspotList = hotspots
        self.accounts = Dictionary(accounts.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var seen = Set<String>()
        self.accountOrder = accounts.map(\.id).filter { seen.insert($0).inserted }
        var byEmail: [String: String] = [:]
        for account in self.accounts.values.sorted(by: { $0.id < $1.id }) where byEmail[account.email.lowercased()] == nil {
            byEmail[account.email.lowercased()] = account.id
        }
        self.accountIDByEmail = byEmail
    }

    /// The account of `email` (compared lowercased; the smallest id when several share it).
    private func account(email: String) -> Account? {
        accountIDByEmail[email.lowercased()].flatMap { accounts[$0] }
    }

    /// `user`'s friends in order: her list, then, for a friend of everyone, every other account.
    public func friends(of user: Account) -> [String] {
        guard user.friendOfEveryone else { return user.friends }
        let listed = Set(user.friends)
        return user.friends + accountOrder.filter { $0 != user.id && !listed.contains($0) }
    }

    /// Whether `friend` is on `user`'s friends list.
    public func isFriend(_ friend: String, of user: Account) -> Bool {
        user.friendOfEveryone ? friend != user.id && accounts[friend] != nil : user.friends.contains(friend)
    }

    /// Stores `location` as its account's last location, as data the server holds before a run
    /// starts: no request, no latency, no event.
    public func preload(location: SharedLocation) {
        lastLocations[location.account] = location
    }

    /// Makes requests fail as `failure` says.
    public func injectFailure(_ failure: Failure) {
        failures.append(failure)
    }

    /// Makes the next request of `operation` fail.
    public func injectFailure(_ operation: Operation) {
        failures.append(Failure(operation: operation, from: scheduler.now, count: 1))
    }

    // MARK: Requests

    public func signUp(email: String) async throws(BackendError) -> String {
        try await travel(.signUp)
        return try serveSignUp(email: email)
    }

    func serveSignUp(email: String) throws(BackendError) -> String {
        try failIfInjected(.signUp, account: nil)
        guard let user = account(email: email) else {
            record("backend.sign-up-refused", account: nil, [("email", .string(email))])
            throw .notFound(email: email)
        }
        record("backend.signed-up", account: user.id, [("email", .string(email))])
        return user.id
    }

    public func hotspots() async throws(BackendError) -> [HotspotInfo] {
        try await travel(.hotspots)
        return try serveHotspots()
    }

    func serveHotspots() throws(BackendError) -> [HotspotInfo] {
        try failIfInjected(.hotspots, account: nil)
        return hotspotList
    }

    public func isSharing(_ account: String) async throws(BackendError) -> Bool {
        try await travel(.sharing)
        return try serveIsSharing(account)
    }

    func serveIsSharing(_ account: String) throws(BackendError) -> Bool {
        try failIfInjected(.sharing, account: account)
        return try self.account(account).sharing
    }

    public func groups(of account: String) async throws(BackendError) -> [String] {
        try await travel(.groups)
        return try serveGroups(of: account)
    }

    func serveGroups(of account: String) throws(BackendError) -> [String] {
        try failIfInjected(.groups, account: account)
        let user = try self.account(account)
        return ["friends"] + user.groups.keys.sorted()
    }

    public func addFriend(email: String, to account: String) async throws(BackendError) -> String {
        try await travel(.addFriend)
        return try serveAddFriend(email: email, to: account)
    }

    func serveAddFriend(email: String, to account: String) throws(BackendError) -> String {
        try failIfInjected(.addFriend, account: account)
        _ = try self.account(account)
        guard let friend = self.account(email: email) else {
            record("backend.friend-not-found", account: account, [("email", .string(email))])
            throw .notFound(email: email)
        }
        if !isFriend(friend.id, of: accounts[account]!), friend.id != account {
            accounts[account]!.friends.append(friend.id)
        }
        record("backend.friend-added", account: account, [("friend", .string(friend.id)), ("group", .string("friends"))])
        return friend.id
    }

    public func ping(from account: String, group: String, location: SharedLocation, requestID: String?) async throws(BackendError) -> [String] {
        try await travel(.ping)
        return try servePing(from: account, group: group, location: location, requestID: requestID)
    }

    /// Handles a ping that has arrived: a request id answered before gets the same recipients again
    /// and notifies nobody a second time (`backend.repeated`).
    func servePing(from account: String, group: String, location: SharedLocation, requestID: String?) throws(BackendError) -> [String] {
        try failIfInjected(.ping, account: account)
        let key = requestID.map { account + "\u{1F}" + $0 }
        if let key, let earlier = answeredPings[key] {
            record("backend.repeated", account: account, [("operation", .string("ping")), ("request", .string(requestID ?? ""))])
            return earlier
        }
        let recipients = try handlePing(from: account, group: group, location: location)
        if let key { answeredPings[key] = recipients }
        return recipients
    }

    private func handlePing(from account: String, group: String, location: SharedLocation) throws(BackendError) -> [String] {
        let user = try self.account(account)
        guard user.sharing else {
            record("backend.ping-refused", account: account, [("reason", .string("location sharing is off"))])
            throw .locationOff(account)
        }
        let members: [String]
        if group == "friends" {
            members = friends(of: user)
        } else if let groupMembers = user.groups[group] {
            members = groupMembers
        } else {
            throw .unknownGroup(group)
        }
        let recipients = members.filter { accounts[$0] != nil }
        let notice = PingNotice(from: account, group: group, location: location)
        pingCount += 1
        record("backend.ping", account: account, [
            ("group", .string(group)), ("recipients", .string(recipients.joined(separator: ","))),
            ("hotspot", location.hotspot.map(TraceValue.string) ?? .null), ("precision", .string(location.precision.rawValue)),
        ])
        scheduler.schedule(after: configuration.latency) { [weak self] in
            for recipient in recipients { self?.pingObservers[recipient]?.send(notice) }
        }
        return recipients
    }

    public func updateLocation(_ location: SharedLocation, requestID: String?) async throws(BackendError) {
        try await travel(.updateLocation)
        try serveUpdateLocation(location, requestID: requestID)
    }

    /// Handles a location update that has arrived: a request id applied before is not applied again
    /// (a retry after a lost reply must not put back a location a later update replaced).
    func serveUpdateLocation(_ location: SharedLocation, requestID: String?) throws(BackendError) {
        try failIfInjected(.updateLocation, account: location.account)
        let key = requestID.map { location.account + "\u{1F}" + $0 }
        if let key, appliedUpdates.contains(key) {
            record("backend.repeated", account: location.account, [("operation", .string("update-location")), ("request", .string(requestID ?? ""))])
            return
        }
        try handleUpdateLocation(location)
        if let key { appliedUpdates.insert(key) }
    }

    private func handleUpdateLocation(_ location: SharedLocation) throws(BackendError) {
        let user = try account(location.account)
        guard user.sharing else { throw .locationOff(location.account) }  // quitting stops sharing for good
        lastLocations[location.account] = location
        record("backend.location-stored", account: location.account, [
            ("hotspot", location.hotspot.map(TraceValue.string) ?? .null), ("precision", .string(location.precision.rawValue)),
        ])
    }

    public func friendsInArea(of account: String) async throws(BackendError) -> [SharedLocation] {
        try await travel(.friendsInArea)
        return try serveFriendsInArea(of: account)
    }

    func serveFriendsInArea(of account: String) throws(BackendError) -> [SharedLocation] {
        try failIfInjected(.friendsInArea, account: account)
        let user = try self.account(account)
        return friends(of: user).compactMap { friend -> SharedLocation? in
            guard let other = accounts[friend], other.sharing, isFriend(account, of: other),
                  let location = lastLocations[friend], location.hotspot != nil else { return nil }
            return location
        }
    }

    public func quit(_ account: String) async throws(BackendError) {
        try await travel(.quit)
        try serveQuit(account)
    }

    func serveQuit(_ account: String) throws(BackendError) {
        try failIfInjected(.quit, account: account)
        _ = try self.account(account)
        lastLocations[account] = nil
        quitAccounts.insert(account)
        accounts[account]!.sharing = false
        record("backend.quit", account: account, [("deleted", .string("last-location"))])
    }

    /// A client of the server for one device: its requests cross `connection` (the device's latency
    /// and connectivity, drops in flight, timeouts) instead of the server's own latency; pings still
    /// arrive through the push service.
    public func client(connection: ServerConnection) -> any LocatorBackend {
        LocatorServerClient(server: self, connection: connection)
    }

    public func observePings(to account: String, _ observer: @escaping (PingNotice) -> Void) -> ObservationToken {
        if pingObservers[account] == nil { pingObservers[account] = ObserverList() }
        return pingObservers[account]!.add(observer)
    }

    // MARK: Internals

    private func account(_ id: String) throws(BackendError) -> Account {
        guard let account = accounts[id] else { throw .unknownAccount(id) }
        return account
    }

    /// The request's way to the server: its latency.
    private func travel(_ operation: Operation) async throws(BackendError) {
        do {
            try await VirtualClock(scheduler).sleep(for: configuration.latency)
        } catch {
            throw .cancelled(operation: operation.rawValue)   // the app was stopped while waiting
        }
    }

    /// The request's injected failure, if one applies.
    private func failIfInjected(_ operation: Operation, account: String?) throws(BackendError) {
        let now = scheduler.now
        if let index = failures.firstIndex(where: { $0.operation == operation && $0.from <= now && ($0.until.map { now < $0 } ?? true) && ($0.count ?? 1) > 0 }) {
            if let count = failures[index].count { failures[index].count = count - 1 }
            record("backend.failed", account: account, [("operation", .string(operation.rawValue))])
            throw .serverError(operation: operation.rawValue)
        }
    }

    private func record(_ name: String, account: String?, _ fields: [(key: String, value: TraceValue)]) {
        events.record(TraceEvent(time: scheduler.now, device: nil, name: name, fields: (account.map { [("account", TraceValue.string($0))] } ?? []) + fields))
    }
}
