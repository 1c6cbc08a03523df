import DeviceSimHAL
import DeviceSimScenario
import DeviceSimServer
import DeviceSimSimulated
import DeviceSimTime

/// The dog-walk map app in scenario files. Its user data lives in the device's SQLite database; the
/// scenario's devices share one account server. `user-data:` is what the database holds before the
/// scenario starts (the app was used before); `server-accounts:` are the users the server knows.
///
/// ```yaml
/// app:
///   name: dog-walk
///   settings:
///     update-interval: 5s
///     overlap-distance: 5          # metres: closer records show as one marker, the latest
///     clean-up-message: 5s         # how long "please clean up" shows
///     follow-user: false           # whether each update centers the map on the marker
///     user-data:
///       account: offline
///       dogs: [{ name: Rex, sex: male, date-of-birth: 2020-04-01 }]
///       records: [{ kind: pee, at: [52.52, 13.405], ago: 2h }]
///     server-accounts:
///       - { email: anna@example.org, password: walkies-2026, dogs: [{ name: Bella }] }
/// timeline:
///   - { at: 0s, do: start-app }
///   - { at: 1s, do: start-service }
///   - { at: 10s, do: click-poo }
/// ```
public final class DogWalkScenarioApp: ScenarioApp {
    public struct Settings: Sendable {
        var app = DogWalkApp.Settings()
        var userData: UserData?
        var serverAccounts: [(email: String, password: String, temporary: Bool, data: UserData)] = []
        var latency: Duration = .milliseconds(200)
        var failures: [ServerFailure<SimulatedAccountServer.Operation>] = []
    }

    public enum Action: Sendable {
        case startApp, startService, stopService, centerMap
        case enterCredential(email: String, password: String)
        case signUp(email: String)
        case enterNewPassword(String, confirmation: String)
        case fillDogProfile(name: String?, sex: DogProfile.Sex?, dateOfBirth: String?, clearing: Set<DogProfile.Attribute>)
        case confirmDogProfile, editDogProfile, cancelDogProfile
        case clickMarker, closeMenu
        case place(BusinessRecord.Kind)
        case clickRecord(id: Int64?, near: GeoCoordinate?)
        case openRecordList, closeRecordList, deleteRecord, closeStatistics
        case selectRecord(id: Int64)
    }

    /// What the app's devices keep across app restarts: the e-mail addresses the user reads on the phone.
    final class DeviceMemory {
        var mailboxes: [String: Set<String>] = [:]
    }

    public static let name = "dog-walk"
    public static var serverTables: [String]? { SimulatedAccountServer.tables.keys.sorted() }
    public static var serverTableColumns: [String: [String]]? { SimulatedAccountServer.tables }
    public static let keepsDataOnDevice = true
    /// `<device id>.sqlite`: a `stored:` expectation on a dog-walk device gives no `database:`.
    public static let deviceDatabase: ScenarioAppDatabase? = .unnamed
    public static let settingKeys = [
        "update-interval", "overlap-distance", "clean-up-message", "follow-user", "user-data", "server-accounts", "server-latency", "server-failures",
    ]
    public static let prompts: [String]? = ["sign-in-options", "delete-record"]
    public static let actions: [String: [String]] = [
        "start-app": [], "start-service": [], "stop-service": [], "center-map": [],
        "enter-credential": ["email", "password"], "sign-up": ["email"], "enter-new-password": ["password", "confirm"],
        "fill-dog-profile": ["name", "sex", "date-of-birth", "clear"], "confirm-dog-profile": [], "edit-dog-profile": [], "cancel-dog-profile": [],
        "click-marker": [], "close-menu": [], "click-pee": [], "click-poo": [],
        "click-record": ["record", "near"], "open-record-list": [], "select-record": ["record"], "delete-record": [], "close-record-list": [], "close-statistics": [],
    ]

    let app: DogWalkApp
    private let device: Device
    private let memory: DeviceMemory
    private var mailSubscription: ObservationToken?

    public static func parseSettings(_ settings: YAMLMapping?) throws(ScenarioError) -> Settings {
        var parsed = Settings()
        guard let settings else { return parsed }
        if let interval = settings.optional("update-interval") {
            parsed.app.updateInterval = try interval.duration(what: "an update interval")
            guard parsed.app.updateInterval >= .milliseconds(100) else { throw interval.error("update-interval must be at least 100ms") }
        }
        if let node = settings.optional("overlap-distance") {
            parsed.app.overlapDistance = try node.double(what: "a distance in metres")
            guard parsed.app.overlapDistance >= 0, parsed.app.overlapDistance <= 1_000 else { throw node.error("overlap-distance must be within 0...1000 metres") }
        }
        if let node = settings.optional("clean-up-message") {
            parsed.app.cleanUpMessageDuration = try node.duration(what: "how long the clean-up message shows")
            guard parsed.app.cleanUpMessageDuration > .zero else { throw node.error("clean-up-message must be longer than zero") }
        }
        if let node = settings.optional("follow-user") { parsed.app.followsUser = try node.bool() }
        if let node = settings.optional("server-latency") { parsed.latency = try node.duration(what: "the server's latency") }
        if let node = settings.optional("server-failures") { parsed.failures = try ServerFailure.parseList(node, server: "dog walk server") }
        if let node = settings.optional("user-data") {
            let map = try node.mapping(allowing: ["account", "dogs", "records"], what: "user data")
            let accountNode = try map.required("account")
            let account = try accountNode.string(what: "the account: offline or an e-mail address")
            guard account == "offline" || SimulatedAccountServer.isEmail(account) else {
                throw accountNode.error("user-data's account is 'offline' or the e-mail address of the signed-in account, found '\(MessageText.excerpt(account))'")
            }
            var data = try parseDogsAndRecords(map)
            data.account = account == "offline" ? .offline : UserAccount(email: account, accessToken: "token-stored-\(account)", isOffline: false)
            parsed.userData = data
        }
        if let node = settings.optional("server-accounts") {
            var emails = Set<String>()
            for item in try node.sequence(what: "list of accounts") {
                let map = try item.mapping(allowing: ["email", "password", "temporary", "dogs", "records"], what: "server account")
                let emailNode = try map.required("email")
                let email = try emailNode.string(what: "an e-mail address")
                guard SimulatedAccountServer.isEmail(email) else { throw emailNode.error("expected an e-mail address (name@domain), found '\(MessageText.excerpt(email))'") }
                guard emails.insert(email).inserted else { throw item.error("a second account for \(email)") }
                parsed.serverAccounts.append((email, try map.requiredText("password", what: "a password"),
                                              try map.optional("temporary")?.bool() ?? false, try parseDogsAndRecords(map)))
            }
        }
        return parsed
    }

    /// `dogs:` and `records:` of a user data mapping (dogs get ids 1, 2, ... and uids `seed-d1`, ...;
    /// records uids `seed-r1`, ...: a device's user data and the server's account that list a dog or a
    /// record at the same place in their lists name the same one; a record belongs to the first dog
    /// unless it names one).
    private static func parseDogsAndRecords(_ map: YAMLMapping) throws(ScenarioError) -> UserData {
        var data = UserData(account: .offline)
        for item in try map.optional("dogs")?.sequence(what: "list of dogs") ?? [] {
            let dog = try item.mapping(allowing: ["name", "sex", "date-of-birth"], what: "dog")
            data.dogs.append(DogProfile(
                id: Int64(data.dogs.count + 1), name: try dog.optional("name")?.string(what: "the dog's name"),
                sex: try dog.optional("sex").map { (n) throws(ScenarioError) in DogProfile.Sex(rawValue: try n.choice(["female", "male"], what: "sex"))! },
                dateOfBirth: try dog.optional("date-of-birth").map { (n) throws(ScenarioError) in try parseDate(n) }, uid: "seed-d\(data.dogs.count + 1)"))
        }
        for item in try map.optional("records")?.sequence(what: "list of business records") ?? [] {
            let record = try item.mapping(allowing: ["kind", "at", "ago", "dog"], what: "business record")
            var dogID: Int64 = 1
            if let n = record.optional("dog") {
                let name = try n.string(what: "a dog's name")
                guard let dog = data.dogs.first(where: { $0.name == name }) else { throw n.error("no dog named '\(name)' in dogs:") }
                dogID = dog.id!
            } else if data.dogs.isEmpty {
                throw item.error("a business record belongs to a dog; list one under dogs:")
            }
            let ago = try record.optional("ago")?.duration(what: "how long ago it was placed") ?? .zero
            data.records.append(BusinessRecord(
                dogID: dogID, kind: BusinessRecord.Kind(rawValue: try record.required("kind").choice(["pee", "poo"], what: "record kind"))!,
                coordinate: try record.required("at").coordinate(), placedAt: VirtualInstant(nanoseconds: -ago.wholeNanoseconds), localTime: "",
                uid: "seed-r\(data.records.count + 1)"))
        }
        return data
    }

    /// A date of `user-data` or `server-accounts` (a setting: validated here, unlike a date typed
    /// into the dog profile dialog, which the app checks).
    private static func parseDate(_ node: YAMLNode) throws(ScenarioError) -> String {
        let text = try node.string(what: "a date, yyyy-MM-dd")
        if let problem = DogProfile.dateOfBirthProblem(text) { throw node.error(problem) }
        return text
    }

    /// The account server every dog-walk device of a scenario shares: the accounts all devices list
    /// (an account listed on several devices must be listed alike) and one latency.
    struct ServerSpec: Sendable {
        var accounts: [(email: String, password: String, temporary: Bool, data: UserData)] = []
        var latency: Duration = .milliseconds(200)
        var failures: [ServerFailure<SimulatedAccountServer.Operation>] = []
    }

    /// Joins every device's `server-accounts` into the one server (before, only the first device's
    /// counted), refusing an account two devices list differently or two latencies.
    public static func parseServer(_ sections: ScenarioServerSections) throws(ScenarioError) -> (any Sendable)? {
        var spec = ServerSpec()
        var listedBy: [String: (device: String, index: Int)] = [:]
        var latencyFrom: String?
        var failuresFrom: String?
        for device in sections.devices where device.app?.name == name {
            guard let settings = device.app?.settings as? Settings else { continue }
            if let other = latencyFrom, settings.latency != spec.latency {
                throw ScenarioError(
                    "device '\(device.id)' gives the dog walk's server another server-latency than device '\(other)'; the server is one for the whole scenario",
                    at: device.location)
            }
            if !settings.failures.isEmpty {
                if let other = failuresFrom, settings.failures != spec.failures {
                    throw ScenarioError(
                        "device '\(device.id)' gives the dog walk's server other server-failures than device '\(other)'; the server is one for the whole scenario: give them on one device, or alike",
                        at: device.location)
                }
                if failuresFrom == nil { failuresFrom = device.id; spec.failures = settings.failures }
            }
            if latencyFrom == nil { latencyFrom = device.id; spec.latency = settings.latency }
            for account in settings.serverAccounts {
                let key = account.email.lowercased()
                if let earlier = listedBy[key] {
                    let known = spec.accounts[earlier.index]
                    guard known.password == account.password, known.temporary == account.temporary, known.data == account.data else {
                        throw ScenarioError(
                            "device '\(device.id)' lists the server account \(account.email), which device '\(earlier.device)' lists differently; the server is one for the whole scenario: list each account once, or alike",
                            at: device.location)
                    }
                    continue
                }
                listedBy[key] = (device.id, spec.accounts.count)
                spec.accounts.append(account)
            }
        }
        try refuseSeedsThatContradictTheServer(spec, sections)
        return spec
    }

    /// A signed-in phone's `user-data` and the server's account name their dogs and records by their
    /// place in the lists (`seed-d1`, `seed-r1`, ...): the first dog of both is one dog. Listing two
    /// different ones there would make the phone and the server hold different things under one id,
    /// so it is refused, with how to write it.
    private static func refuseSeedsThatContradictTheServer(_ spec: ServerSpec, _ sections: ScenarioServerSections) throws(ScenarioError) {
        for device in sections.devices where device.app?.name == name {
            guard let settings = device.app?.settings as? Settings, let data = settings.userData, let email = data.account.email,
                  let server = spec.accounts.first(where: { $0.email.lowercased() == email.lowercased() })?.data else { continue }
            func describe(_ dog: DogProfile) -> String {
                [dog.name, dog.sex?.rawValue, dog.dateOfBirth].compactMap { $0 }.joined(separator: ", ").nonEmpty ?? "no attributes"
            }
            func describe(_ record: BusinessRecord) -> String {
                "a \(record.kind.rawValue) at [\(record.coordinate.latitude), \(record.coordinate.longitude)], \(DurationText.format(.zero - record.placedAt.offset)) ago, of dog \(record.dogID)"
            }
            let advice = "a signed-in phone's user-data is the account's data as it was last synced, so its lists start with the server's, in the same order; list the phone's own (not yet synced) ones after them"
            for (index, (mine, theirs)) in zip(data.dogs, server.dogs).enumerated() where mine != theirs {
                throw ScenarioError(
                    "device '\(device.id)': dog \(index + 1) of its user-data (\(describe(mine))) is not dog \(index + 1) of the server's account \(email) (\(describe(theirs))); \(advice)",
                    at: device.location)
            }
            for (index, (mine, theirs)) in zip(data.records, server.records).enumerated() where mine != theirs {
                throw ScenarioError(
                    "device '\(device.id)': record \(index + 1) of its user-data (\(describe(mine))) is not record \(index + 1) of the server's account \(email) (\(describe(theirs))); \(advice)",
                    at: device.location)
            }
        }
    }

    public static func parseAction(_ name: String, step: YAMLMapping) throws(ScenarioError) -> Action {
        func recordID() throws(ScenarioError) -> Int64? {
            guard let node = step.optional("record") else { return nil }
            let id = try node.int(what: "a record id")
            guard id > 0 else { throw node.error("record ids start at 1") }
            return Int64(id)
        }
        switch name {
        case "start-app": return .startApp
        case "start-service": return .startService
        case "stop-service": return .stopService
        case "center-map": return .centerMap
        // What the user types into a form is any text: the app and its server decide.
        case "enter-credential": return .enterCredential(email: try step.typedText("email"), password: try step.typedText("password"))
        case "sign-up": return .signUp(email: try step.typedText("email"))
        case "enter-new-password": return .enterNewPassword(try step.typedText("password"), confirmation: try step.typedText("confirm"))
        case "fill-dog-profile":
            var clearing: Set<DogProfile.Attribute> = []
            for node in try step.optional("clear")?.sequence(what: "a list of attributes to empty: name, sex, date-of-birth") ?? [] {
                let attribute = DogProfile.Attribute(rawValue: try node.choice(DogProfile.Attribute.allCases.map(\.rawValue), what: "a dog profile attribute"))!
                guard step.optional(attribute.rawValue) == nil else {
                    throw node.error("fill-dog-profile both fills and clears '\(attribute.rawValue)'; give it a value or clear it")
                }
                clearing.insert(attribute)
            }
            for attribute in DogProfile.Attribute.allCases {
                guard let node = step.optional(attribute.rawValue), node.isNull else { continue }
                let text = node.scalarText ?? "null"
                throw node.error(
                    "\(attribute.rawValue) is \(text), YAML's empty value; to empty it write clear: [\(attribute.rawValue)], or to mean the text '\(text)' quote it: \(attribute.rawValue): \"\(text)\"")
            }
            return .fillDogProfile(
                name: try step.optionalTypedText("name"),
                sex: try step.optional("sex").map { (n) throws(ScenarioError) in DogProfile.Sex(rawValue: try n.choice(["female", "male"], what: "sex"))! },
                dateOfBirth: try step.optionalTypedText("date-of-birth"), clearing: clearing)
        case "confirm-dog-profile": return .confirmDogProfile
        case "edit-dog-profile": return .editDogProfile
        case "cancel-dog-profile": return .cancelDogProfile
        case "click-marker": return .clickMarker
        case "close-menu": return .closeMenu
        case "click-pee": return .place(.pee)
        case "click-poo": return .place(.poo)
        case "click-record":
            let id = try recordID()
            let near = try step.optional("near")?.coordinate()
            guard (id == nil) != (near == nil) else { throw step.node.error("click-record needs either 'record: <id>' or 'near:' a position ([lat, lon] or a place of the world)") }
            return .clickRecord(id: id, near: near)
        case "open-record-list": return .openRecordList
        case "select-record":
            guard let id = try recordID() else { throw step.node.error("select-record needs 'record: <id>' (an item of the list)") }
            return .selectRecord(id: id)
        case "delete-record": return .deleteRecord
        case "close-record-list": return .closeRecordList
        case "close-statistics": return .closeStatistics
        default: throw step.node.error("unknown dog-walk action '\(name)'")
        }
    }

    public init(context: ScenarioAppContext, settings: Settings) {
        let simulation = context.simulation
        let device = context.device
        self.device = device
        let server = simulation.sharedService { () -> SimulatedAccountServer in
            let spec = simulation.serverConfiguration(of: Self.name) as? ServerSpec ?? ServerSpec(accounts: settings.serverAccounts, latency: settings.latency, failures: settings.failures)
            let server = SimulatedAccountServer(scheduler: device.scheduler, events: simulation.trace, latency: spec.latency)
            for failure in spec.failures {
                server.injectFailure(failure.operation, from: failure.fromInstant, until: failure.untilInstant, count: failure.count)
            }
            for account in spec.accounts {
                server.addAccount(email: account.email, password: account.password, temporary: account.temporary, data: Self.dated(account.data, on: device.civilClock))
            }
            return server
        }
        simulation.registerInspectableServer(server, for: Self.name)
        memory = simulation.sharedService { DeviceMemory() }
        // The app's database is `<device id>.sqlite` in the run's data folder, kept across restarts.
        let store = simulation.database(on: device, file: ScenarioAppDatabase.unnamed.file(onDevice: device.id), migrations: SQLiteUserDataStore.migrations)
            .map(SQLiteUserDataStore.init(database:))
        // Every request (signing up and in, the download, syncs) crosses the device's own connection:
        // latency, drops in flight, timeouts.
        let client = DogWalkServerClient(server: server, connection: simulation.serverConnection(of: device, app: Self.name, latency: settings.latency))
        app = DogWalkApp(device: device, store: store, settings: settings.app, accounts: client, userDataService: client, sync: client)
        mailSubscription = server.observeMail { [memory, weak device] mail in
            guard let device, memory.mailboxes[device.id]?.contains(mail.to) == true else { return }
            device.notifications?.notify(id: "mail", message: mail.message)
        }
        if context.isRelaunch {
            app.startApp()
        } else if let data = settings.userData, let store {
            // The app was used before the scenario: its database already holds this. A signed-in
            // account's data is queued for the server too (nothing the device had is lost; what the
            // server has already is not added twice).
            if let email = data.account.email, let token = data.account.accessToken { server.acceptToken(token, for: email) }
            do {
                try store.replaceAll(with: Self.dated(data, on: device.civilClock), queued: !data.account.isOffline)
            } catch {
                device.record("user-data.save-failed", [("what", .string("user-data setting")), ("reason", .string(error.description))])
            }
            store.close()
        }
    }

    /// `data` with each record's local time from its instant on `clock`.
    private static func dated(_ data: UserData, on clock: CivilClock) -> UserData {
        var data = data
        for index in data.records.indices { data.records[index].localTime = clock.time(at: data.records[index].placedAt).timestamp }
        return data
    }

    public func perform(_ action: Action) {
        switch action {
        case .startApp: app.startApp()
        case .startService: app.startService()
        case .stopService: app.stopService()
        case .centerMap: app.centerMap()
        case .enterCredential(let email, let password): app.enterCredential(email: email, password: password)
        case .signUp(let email):
            memory.mailboxes[device.id, default: []].insert(email)
            app.signUp(email: email)
        case .enterNewPassword(let password, let confirmation): app.enterNewPassword(password, confirmation: confirmation)
        case .fillDogProfile(let name, let sex, let dateOfBirth, let clearing): app.fillDogProfile(name: name, sex: sex, dateOfBirth: dateOfBirth, clearing: clearing)
        case .confirmDogProfile: app.confirmDogProfile()
        case .editDogProfile: app.editDogProfile()
        case .cancelDogProfile: app.cancelDogProfile()
        case .clickMarker: app.clickLocationMarker()
        case .closeMenu: app.closeBusinessMenu()
        case .place(let kind): app.placeRecord(kind)
        case .clickRecord(let id, let near): app.clickRecord(id: id, near: near)
        case .openRecordList: app.openRecordList()
        case .selectRecord(let id): app.selectListItem(id: id)
        case .deleteRecord: app.deleteSelectedRecord()
        case .closeRecordList: app.closeRecordList()
        case .closeStatistics: app.closeStatistics()
        }
    }

    public func stop() {
        app.stop()
        mailSubscription?.cancel()
        mailSubscription = nil
    }
}

/// One device's side of the dog walk's server: each request (sign-up, sign-in, new password, the
/// download, a sync) crosses the device's ``ServerConnection`` (latency, drops in flight, timeouts)
/// and is handled by the account server when it arrives.
final class DogWalkServerClient: UserDataSyncService, AccountService, UserDataService {
    let server: SimulatedAccountServer
    let connection: ServerConnection

    init(server: SimulatedAccountServer, connection: ServerConnection) {
        self.server = server
        self.connection = connection
    }

    /// Sends `operation`, handled by `serve` on arrival (unless an injected failure fails it);
    /// offline, no answer and a server error become the app's errors.
    private func send<Reply>(_ operation: SimulatedAccountServer.Operation, _ serve: () -> Result<Reply, AccountError>) async throws(AccountError) -> Reply {
        let answer: Result<Reply, AccountError>
        do {
            answer = try await connection.send(operation.rawValue) { () throws(BackendError) in
                try server.failIfInjected(operation)
                return serve()
            }
        } catch .unreachable {
            throw .unreachable
        } catch .serverError(let operation) {
            throw .serverError(operation: operation)
        } catch {
            throw .noAnswer
        }
        return try answer.get()
    }

    func signUp(email: String) async throws(AccountError) {
        try await send(.signUp) { server.serveSignUp(email: email) }
    }

    func signIn(email: String, password: String) async throws(AccountError) -> SignInOutcome {
        try await send(.signIn) { server.serveSignIn(email: email, password: password) }
    }

    func setNewPassword(email: String, session: String, newPassword: String) async throws(AccountError) -> String {
        try await send(.newPassword) { server.serveNewPassword(email: email, session: session, newPassword: newPassword) }
    }

    func userData(accessToken: String) async throws(AccountError) -> UserData {
        try await send(.userData) { server.serveUserData(accessToken: accessToken) }
    }

    func sync(accessToken: String, changes: [UserDataChange], requestID: String) async throws(UserDataSyncError) -> UserDataSyncReply {
        let answer: Result<UserDataSyncReply, AccountError>
        do {
            answer = try await connection.send("sync") { () throws(BackendError) in
                try server.failIfInjected(.sync)
                return server.serveSync(accessToken: accessToken, changes: changes, requestID: requestID)
            }
        } catch {
            throw .backend(error)
        }
        switch answer {
        case .success(let reply): return reply
        case .failure: throw .signedOut
        }
    }
}

private extension String {
    /// The text, or nil when it is empty.
    var nonEmpty: String? { isEmpty ? nil : self }
}
