import DeviceSimSimulated

/// The events an app records and their fields, so `devicesim validate` can refuse an expectation on
/// an event the app never records (with the nearest name), a `where:` field the event does not have,
/// and an app's event expected on a device that does not run the app. An app that does not conform
/// is not checked, and while one such app is registered no event name is refused.
///
/// ```swift
/// extension CommuteScenarioApp: ScenarioAppEvents {
///     static let events = ["commute.started": ["from", "to"]]
///     static let serverEvents: [String: [String]] = [:]
/// }
/// ```
public protocol ScenarioAppEvents: ScenarioApp {
    /// The events the app records on its device, each with its fields.
    static var events: [String: [String]] { get }
    /// The world-wide events of the app's server (no device), each with its fields.
    static var serverEvents: [String: [String]] { get }
}

/// Every event a scenario's trace can hold: the runner's and the device's own, and each registered
/// app's (``ScenarioAppEvents``).
package enum EventCatalogue {
    /// Events of every device, whatever it runs (prompts, geofences, steps, the runner's probes).
    static let deviceEvents: [String: [String]] = [
        "step": [],
        // What the Apple-shaped modules (DeviceSimCoreLocation, DeviceSimUserNotifications) record on any
        // device whose app code uses them; their fields are not checked (see `openEvents`).
        "notification.authorization": [],
        "notification.scheduled": [],
        "notification.rejected": [],
        "notification.delivered": [],
        "notification.presented": [],
        "notification.opened": [],
        "notification.removed": [],
        "api.diagnostic": [],
        "location.accuracy": [],
        "location.authorization": [],
        "location.restricted": [],
        "location.services": [],
        "corebluetooth.delegate-method-missing": [],
        "corelocation.authorization-requested": [],
        "corelocation.delegate-method-missing": [],
        "corelocation.error": [],
        "corelocation.invalid-input": [],
        "corelocation.location-requested": [],
        "corelocation.monitor.added": [],
        "corelocation.monitor.event": [],
        "corelocation.monitor.refused": [],
        "corelocation.prompt-unavailable": [],
        "corelocation.ranging.failed": [],
        "corelocation.ranging.started": [],
        "corelocation.region.failed": [],
        "corelocation.region.monitored": [],
        "corelocation.region.state": [],
        "corelocation.significant-changes.started": [],
        "corelocation.updates.started": [],
        "corelocation.updates.stopped": [],

        "step.skipped": [],
        "accounts.add-cancelled": ["account", "method"],
        "accounts.add-opened": ["account", "method"],
        "accounts.added": ["account", "method"],
        "app.killed": ["during", "idle", "write"],
        "app.stopped": ["during", "idle", "write"],
        "beacons.ranged": ["beacons", "count"],
        "fence.entered": ["beacon", "fence", "rssi"],
        "fence.left": ["fence"],
        "geofence.dwelled": ["lat", "lon", "region"],
        "geofence.entered": ["lat", "lon", "region"],
        "geofence.exited": ["lat", "lon", "region"],
        "geofence.small-radius": ["radius", "recommended", "region"],
        "location.read": ["accuracy", "available", "lat", "lon"],
        "notification.posted": ["message", "notification"],
        "prompt.answer-rejected": ["choice", "prompt", "reason"],
        "prompt.answered": ["choice", "prompt", "reason"],
        "prompt.shown": ["choices", "message", "prompt"],
        "prompt.timed-out": ["choice", "prompt", "reason"],
        "prompt.withdrawn": ["choice", "prompt", "reason"],
        "request.lost": ["after", "interface", "lost", "operation", "reply", "request"],
        "request.timed-out": ["after", "lost", "operation", "reply", "request"],
        "route.started": ["length", "waypoints"],
        "stored.rows": ["file", "other-rows", "probe", "rows", "verdict"],
        "wifi.scan": ["aps", "count"],

    ]
    /// World-wide events of the runner.
    static let worldEvents: [String: [String]] = [
        "scenario.finished": ["events"],
        "scenario.started": ["devices", "name", "seed"],
        // An app's `URLSession` requests and the scenario's servers (`http-servers:`; DeviceSimServer.SimulatedHTTPServer).
        "http.request": ["method", "host", "path", "key"],
        "http.arrived": ["method", "host", "path", "applied", "replayed"],
        "http.response": ["method", "host", "path", "status"],
        "http.failed": ["method", "host", "path", "error", "lost"],
        "server.rows": ["file", "other-rows", "probe", "rows", "verdict"],
    ]
    /// Events whose fields are the step's own keys, so any field name is valid.
    static let openEvents: Set<String> = ["step", "step.skipped", "notification.authorization", "notification.scheduled", "notification.rejected", "notification.delivered", "notification.presented", "notification.opened", "notification.removed", "api.diagnostic", "location.accuracy", "location.authorization", "location.restricted", "location.services", "corebluetooth.delegate-method-missing", "corelocation.authorization-requested", "corelocation.delegate-method-missing", "corelocation.error", "corelocation.invalid-input", "corelocation.location-requested", "corelocation.monitor.added", "corelocation.monitor.event", "corelocation.monitor.refused", "corelocation.prompt-unavailable", "corelocation.ranging.failed", "corelocation.ranging.started", "corelocation.region.failed", "corelocation.region.monitored", "corelocation.region.state", "corelocation.significant-changes.started", "corelocation.updates.started", "corelocation.updates.stopped"]

    /// What is known about an event name.
    package enum Entry {
        /// A registered app does not describe its events: no name is checked.
        case unchecked
        /// No one records it.
        case unknown
        /// Its fields (nil: any) and the apps that record it on a device (empty: every device, or the world).
        case known(fields: [String]?, apps: [String])
    }

    /// What is known about the event `name` in a scenario whose devices run `running` (app names):
    /// the events of every device and of the runner, and those of the apps that run.
    package static func lookUp(_ name: String, running: Set<String>) -> Entry {
        Table(running: running).entry(name)
    }

    /// The events a scenario whose devices run a set of apps can record, gathered once so that each
    /// expectation's event is one look-up (gathering them per expectation copied every registered
    /// app's description: a quarter of validating 800,000 expectations).
    ///
    /// ```swift
    /// let table = EventCatalogue.Table(running: ["dog-walk"])
    /// if case .unknown = table.entry("app.strated") { ... }
    /// ```
    struct Table {
        /// A running app does not describe its events: no name is checked.
        private let isUnchecked: Bool
        /// The running apps' events (device and server): their fields, sorted, and the apps that record
        /// each on a device, in registration order.
        private let appEvents: [String: (fields: [String], recorders: [String])]

        init(running: Set<String>) {
            let apps = ScenarioAppRegistry.apps.filter { running.contains($0.name) }
            isUnchecked = !apps.allSatisfy { $0.events != nil }
            var fields: [String: Set<String>] = [:]
            var recorders: [String: [String]] = [:]
            for app in apps {
                for (name, own) in app.events ?? [:] {
                    fields[name, default: []].formUnion(own)
                    recorders[name, default: []].append(app.name)
                }
                for (name, own) in app.serverEvents ?? [:] { fields[name, default: []].formUnion(own) }
            }
            appEvents = fields.reduce(into: [:]) { table, event in table[event.key] = (event.value.sorted(), recorders[event.key] ?? []) }
        }

        /// What is known about the event `name`.
        func entry(_ name: String) -> Entry {
            guard !isUnchecked else { return .unchecked }
            if let fields = deviceEvents[name] ?? worldEvents[name] {
                return .known(fields: openEvents.contains(name) ? nil : fields, apps: [])
            }
            guard let known = appEvents[name] else { return .unknown }
            return .known(fields: known.fields, apps: known.recorders)
        }
    }

    /// The registered apps that record the event `name`, on a device or on their server.
    static func apps(recording name: String) -> [String] {
        ScenarioAppRegistry.apps.filter { $0.events?[name] != nil || $0.serverEvents?[name] != nil }.map(\.name)
    }

    /// Every event name a scenario whose devices run `running` can record, for suggestions.
    static func names(running: Set<String>) -> [String] {
        var names = Set(deviceEvents.keys).union(worldEvents.keys)
        for app in ScenarioAppRegistry.apps where running.contains(app.name) {
            names.formUnion(app.events?.keys ?? [:].keys)
            names.formUnion(app.serverEvents?.keys ?? [:].keys)
        }
        return names.sorted()
    }

    /// Checks the event name of an expectation (at `node`) on `device` (nil: any) of `devices`; the
    /// fields the event has (nil: any), for the expectation's `where:` and `capture:`.
    static func check(_ node: YAMLNode, name: String, device: String?, devices: ScenarioDeviceIndex) throws(ScenarioError) -> [String]? {
        let running = devices.runningApps
        let fields: [String]?, apps: [String]
        switch devices.events.entry(name) {
        case .unchecked: return nil
        case .known(let known, let recorders): (fields, apps) = (known, recorders)
        case .unknown:
            let elsewhere = Self.apps(recording: name)
            if !elsewhere.isEmpty {
                let recorders = elsewhere.count == 1 ? "the \(elsewhere[0]) app" : "the apps \(elsewhere.joined(separator: ", "))"
                throw node.error("'\(name)' is recorded by \(recorders), which no device of this scenario runs")
            }
            var message = "unknown event '\(MessageText.excerpt(name))'"
            message += NearestWord.didYouMean(name, among: names(running: running))
            throw node.error(message + " (Scenarios/README.md lists the events each app records)")
        }
        if let device, !apps.isEmpty, let spec = devices[device], !apps.contains(spec.app?.name ?? "") {
            let runs = spec.app.map { "runs the \($0.name) app" } ?? "runs no app"
            let recorders = apps.count == 1 ? "the \(apps[0]) app" : "the apps \(apps.joined(separator: ", "))"
            throw node.error("'\(name)' is recorded by \(recorders), and the device '\(device)' \(runs)")
        }
        return fields
    }

    /// Checks a field name of `event` against its `fields` (nil: any).
    static func checkField(_ node: YAMLNode, _ field: String, of event: String, fields: [String]?) throws(ScenarioError) {
        guard let fields, !fields.contains(field) else { return }
        var message = "'\(event)' has no field '\(MessageText.excerpt(field))'"
        message += NearestWord.didYouMean(field, among: fields)
        message += fields.isEmpty ? " (it has no fields)" : " (its fields: \(fields.joined(separator: ", ")))"
        throw node.error(message)
    }
}
