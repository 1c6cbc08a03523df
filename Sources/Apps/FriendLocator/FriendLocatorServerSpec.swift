import DeviceSimHAL
import DeviceSimScenario
import DeviceSimSimulated
import DeviceSimTime

/// The friend-locator server of a scenario, from the file's top-level `backend:` section: its
/// accounts (with friends, groups and sharing), its latency and the failures to inject. Every device
/// of the scenario talks to this one server.
///
/// ```yaml
/// backend:
///   latency: 300ms
///   accounts:
///     - { id: alice, email: alice@tu-berlin.de, friends: [bob] }
///     - { id: bob, email: bob@tu-berlin.de, friends: [alice], sharing: false }
///     - { id: carol, friends: [alice], location: library }   # a last location already stored
///   failures:
///     - { operation: quit, within: [0s, 10m] }
/// ```
struct FriendLocatorServerSpec: Sendable {
    static let keys = ["latency", "accounts", "failures"]
    static let accountKeys = ["id", "email", "friends", "groups", "sharing", "location"]
    static let failureKeys = ["operation", "within", "count"]

    /// Latency of every request.
    var configuration = FriendLocatorServer.Configuration()
    /// Accounts; when the file lists none, every device's user gets one (`<id>@example.org`), all of
    /// them friends.
    var accounts: [FriendLocatorServer.Account] = []
    /// Failures to inject.
    var failures: [FriendLocatorServer.Failure] = []
    /// The last locations the server holds before the scenario starts (accounts' `location:`).
    var locations: [SharedLocation] = []
    /// Where each `location:` is written, to refuse a hotspot the world does not have.
    private var locationSources: [SourceLocation] = []

    /// The scenario's server: its `backend:` section (or the defaults), with an account for every
    /// device's user.
    static func parse(_ sections: ScenarioServerSections) throws(ScenarioError) -> FriendLocatorServerSpec {
        var spec = try sections.mapping.optional("backend").map { (node) throws(ScenarioError) in try parse(node) } ?? FriendLocatorServerSpec()
        if spec.accounts.isEmpty { spec.accounts = FriendLocatorServer.Account.allFriends(sections.devices.map(\.account)) }
        let hotspots = Set(sections.world?.hotspots.map(\.name) ?? [])
        for (location, source) in zip(spec.locations, spec.locationSources) {
            guard let hotspot = location.hotspot, !hotspots.contains(hotspot) else { continue }
            let known = hotspots.isEmpty ? "the scenario's world has none (name a world with hotspots)" : "its hotspots: \(hotspots.sorted().joined(separator: ", "))"
            throw ScenarioError("unknown hotspot '\(MessageText.excerpt(hotspot))' for a last location; \(known)", at: source)
        }
        let accountIDs = Set(spec.accounts.map(\.id))
        for device in sections.devices where !accountIDs.contains(device.account) {
            throw ScenarioError(
                "device '\(MessageText.excerpt(device.id))' uses the account '\(MessageText.excerpt(device.account))', which the backend does not list",
                at: device.location)
        }
        // The first account of each id, looked up once per device (a scan of the list per device made
        // the check quadratic in the fleet's size).
        let accountByID = Dictionary(spec.accounts.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for device in sections.devices {
            // The group auto-ping informs must be one of the account's groups (every ping would fail).
            guard let settings = device.app?.settings as? FriendLocatorApp.Settings,
                  let account = accountByID[device.account] else { continue }
            let groups = ["friends"] + account.groups.keys.sorted()
            guard !groups.contains(settings.group) else { continue }
            var message = "device '\(MessageText.excerpt(device.id))' has the app setting group: '\(MessageText.excerpt(settings.group))', "
                + "which the account '\(MessageText.excerpt(account.id))' does not have (its groups: \(groups.joined(separator: ", ")))"
            message += NearestWord.didYouMean(settings.group, among: groups)
            throw ScenarioError(message, at: device.location)
        }
        return spec
    }

    static func parse(_ node: YAMLNode) throws(ScenarioError) -> FriendLocatorServerSpec {
        let map = try node.mapping(allowing: keys, what: "backend")
        var spec = FriendLocatorServerSpec()
        if let n = map.optional("latency") { spec.configuration.latency = try n.duration(what: "a request latency") }
        if let accountsNode = map.optional("accounts") {
            var seenAccountIDs = Set<String>()
            for item in try accountsNode.sequence(what: "list of accounts") {
                let account = try item.mapping(allowing: accountKeys, what: "account")
                let id = try account.required("id").string(what: "an account id")
                guard seenAccountIDs.insert(id).inserted else { throw item.error("a second account named '\(MessageText.excerpt(id))'") }
                var parsed = FriendLocatorServer.Account(id: id, email: try account.optional("email")?.string(what: "an e-mail address"))
                if let n = account.optional("friends") { parsed.friends = try n.sequence(what: "list of friends").map { (f) throws(ScenarioError) in try f.string(what: "an account id") } }
                if let groupsNode = account.optional("groups") {
                    let names = (try? groupsNode.fieldNames()) ?? []
                    let groups = try groupsNode.mapping(allowing: names, what: "groups")
                    for name in names {
                        guard name != "friends" else { throw groups.keyNode(name)!.error("'friends' is the default group of all friends; list them under 'friends:'") }
                        guard name != "no" else {
                            throw groups.keyNode(name)!.error("a group cannot be named 'no': it is the inform-group prompt's answer for informing nobody; name it otherwise")
                        }
                        guard !name.trimmingCharacters(in: .whitespaces).isEmpty else { throw groups.keyNode(name)!.error("a group needs a name") }
                        parsed.groups[name] = try groups.required(name).sequence(what: "list of group members").map { (f) throws(ScenarioError) in try f.string(what: "an account id") }
                    }
                }
                if let n = account.optional("sharing") { parsed.sharing = try n.bool() }
                if let n = account.optional("location") {
                    // The last location the server holds: a hotspot, or { hotspot:, precision:, at: [lat, lon] }.
                    var location = SharedLocation(account: id, hotspot: nil, coordinate: nil, precision: .hotspot)
                    if n.isMapping {
                        let map = try n.mapping(allowing: ["hotspot", "precision", "at"], what: "last location")
                        location.hotspot = try map.required("hotspot").string(what: "a hotspot of the world")
                        if let p = map.optional("precision") {
                            location.precision = LocationPrecision(rawValue: try p.choice(LocationPrecision.allCases.map(\.rawValue), what: "a precision"))!
                        }
                        location.coordinate = try map.optional("at")?.coordinate()
                    } else {
                        location.hotspot = try n.string(what: "a hotspot of the world")
                    }
                    spec.locations.append(location)
                    spec.locationSources.append(n.location)
                }
                spec.accounts.append(parsed)
            }
            let ids = Set(spec.accounts.map(\.id))
            for (index, account) in spec.accounts.enumerated() {
                for friend in account.friends + account.groups.values.flatMap({ $0 }) where !ids.contains(friend) {
                    throw try accountsNode.sequence()[index].error("account '\(MessageText.excerpt(account.id))' names '\(MessageText.excerpt(friend))', who has no account")
                }
            }
        }
        if let failuresNode = map.optional("failures") {
            for item in try failuresNode.sequence(what: "list of failures") {
                let failure = try item.mapping(allowing: failureKeys, what: "failure")
                let operation = try failure.required("operation").choice(FriendLocatorServer.Operation.allCases.map(\.rawValue), what: "backend operation")
                var parsed = FriendLocatorServer.Failure(operation: FriendLocatorServer.Operation(rawValue: operation)!)
                if let n = failure.optional("within") {
                    let window = try ScenarioParser.parseFailureWindow(n)
                    parsed.from = VirtualInstant(offset: window.lowerBound)
                    parsed.until = VirtualInstant(offset: window.upperBound)
                }
                if let n = failure.optional("count") {
                    parsed.count = try ScenarioParser.parseFailureCount(n)
                }
                spec.failures.append(parsed)
            }
        }
        return spec
    }
}
