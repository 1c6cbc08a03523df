/// A scenario's devices with the look-ups its steps and expectations make, gathered once: a device by
/// id, the apps the devices run, the databases those apps keep, the events they record, the accounts
/// the devices use. Each step or expectation then costs the same whether the scenario has one device
/// or 100,000 (a scan of the devices for each one made the parse devices × expectations).
///
/// ```swift
/// let index = ScenarioDeviceIndex(devices)
/// let id = try index.deviceID(named: map.required("device"))   // refused like `choice`, nearest id suggested
/// let app = index[id]?.app?.name
/// ```
final class ScenarioDeviceIndex {
    /// The devices, in file order.
    let devices: [DeviceSpec]
    /// Each device's place in ``devices``, by id.
    private let positions: [String: Int]
    /// The names of the apps the devices run.
    let runningApps: Set<String>
    /// The events the devices' apps (and every device, and the runner) record.
    let events: EventCatalogue.Table
    /// The database each running app keeps on its device (nil: it keeps none, or it is not registered).
    private let databases: [String: ScenarioAppDatabase?]
    /// Every device's account and id, gathered when a `server:` expectation first names an account.
    private lazy var accountsAndIDs: Set<String> = devices.reduce(into: Set(minimumCapacity: 2 * devices.count)) { names, device in
        names.insert(device.account)
        names.insert(device.id)
    }

    init(_ devices: [DeviceSpec]) {
        self.devices = devices
        var positions: [String: Int] = [:]
        positions.reserveCapacity(devices.count)
        var runningApps: Set<String> = []
        for (position, device) in devices.enumerated() {
            if positions[device.id] == nil { positions[device.id] = position }
            if let app = device.app?.name { runningApps.insert(app) }
        }
        self.positions = positions
        self.runningApps = runningApps
        events = EventCatalogue.Table(running: runningApps)
        var databases: [String: ScenarioAppDatabase?] = [:]
        for app in ScenarioAppRegistry.apps where runningApps.contains(app.name) && databases[app.name] == nil { databases[app.name] = .some(app.deviceDatabase) }
        self.databases = databases
    }

    /// How many devices there are.
    var count: Int { devices.count }

    /// The id of the only device, when there is exactly one.
    var onlyID: String? { devices.count == 1 ? devices[0].id : nil }

    /// The device named `id`.
    subscript(id: String) -> DeviceSpec? {
        positions[id].map { devices[$0] }
    }

    /// The database the app `app` (one a device runs) keeps on its device; nil when it keeps none.
    func database(ofApp app: String) -> ScenarioAppDatabase? {
        databases[app] ?? ScenarioAppRegistry.app(named: app)?.deviceDatabase
    }

    /// Whether a device uses the account `account`, or has it as its id.
    func hasAccountOrID(_ account: String) -> Bool {
        accountsAndIDs.contains(account)
    }

    /// The device id `node` names, which must be one of the devices' (refused with the message of
    /// ``YAMLNode/choice(_:what:)``: the nearest id, or the list of ids).
    func deviceID(named node: YAMLNode) throws(ScenarioError) -> String {
        if let text = node.scalarText, positions[text] != nil { return text }
        return try node.choice(devices.map(\.id), what: "device")
    }
}
