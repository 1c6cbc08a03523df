import DeviceSimHAL
import DeviceSimServer
import DeviceSimTime
import DeviceSimSimulated
import DeviceSimStorage
import Foundation

/// Reads scenario files: YAML in, a validated ``Scenario`` out, or a ``ScenarioError`` at the first
/// problem with its `file:line:column`.
///
/// ```swift
/// let scenario = try ScenarioParser.parse(contentsOf: "Scenarios/dog-walk/walk.yaml")
/// ```
public enum ScenarioParser {
    /// The longest virtual time one scenario may ask for.
    public static let maximumDuration: Duration = .seconds(30 * 86_400)
    /// The largest scenario file accepted: 32 MiB, so that a fleet of 100,000 devices of one line each
    /// (about 28 MB from `Benchmarks/fleet/make-fleet.py`) is still read. Validating 32 MiB of the
    /// smallest expectations takes 2.5 to 3.5 s of CPU (`Benchmarks/limits/validate-at-limits.py
    /// scenario stored`).
    public static let maximumFileSize = 32 << 20

    /// The top-level keys every scenario file may use; registered apps add their servers' keys
    /// (``ScenarioApp/serverKeys``, e.g. the friend locator's `backend`).
    static let frameworkTopLevelKeys = ["name", "description", "seed", "start-time", "time-zone", "duration", "world", "devices", "timeline", "expect", "http-servers"]
    /// The top-level keys a scenario file may use now: the framework's and the registered apps' servers'.
    static var topLevelKeys: [String] {
        var keys = frameworkTopLevelKeys
        for app in ScenarioAppRegistry.apps { keys += app.serverKeys.filter { !keys.contains($0) } }
        return keys
    }
    static let deviceKeys = ["id", "count", "at", "altitude", "gps", "route", "track", "app", "account", "wifi", "bluetooth", "online", "geofences"]
    /// The most devices one entry with `count:` stands for.
    public static let maximumDeviceCount = 1_000_000
    static let wifiKeys = ["enabled", "scan-interval", "throttle"]
    static let bluetoothKeys = ["enabled", "samples-per-cycle", "fence-exit"]
    static let trackKeys = ["file", "speed-factor", "start-offset", "loop", "speed"]
    static let gpsKeys = ["interval", "accuracy", "vertical-accuracy", "noise", "reacquisition", "satellites", "enabled"]
    static let routeKeys = ["start", "speed", "waypoints"]
    static let waypointKeys = ["at", "speed", "pause", "altitude"]
    static let stepKeys = ["at", "device", "do", "for", "to", "speed", "waypoints", "prompt", "choice", "after", "when", "kind", "count", "during", "lose", "interface"] + FollowRouteSpec.ownKeys
    static let deviceActions = [
        "gps-on", "gps-off", "signal-loss", "signal-restore", "move", "teleport", "wifi-on", "wifi-off", "bluetooth-on", "bluetooth-off",
        "go-online", "go-offline", "use-wifi", "use-cellular", "drop-connection", "answer", "follow-route", "storage-fault", "kill-app", "restart-app",
        "location-services-on", "location-services-off",
    ]
    /// The keys of an `any-of:` expectation.
    static let anyOfExpectationKeys = ["any-of"]
    static let eventExpectationKeys = ["event", "device", "within", "where", "count", "at-least", "at-most", "never", "capture"]
    static let orderExpectationKeys = ["order", "device", "within"]
    static let orderItemKeys = ["event", "where"]
    static let fieldConditionKeys = ["approx", "tolerance", "includes"]
    static let positionExpectationKeys = ["position", "device", "at", "near", "radius"]
    static let storedExpectationKeys = ["stored", "device", "database", "at", "rows"]
    static let serverExpectationKeys = ["server", "table", "account", "at", "rows"]
    /// The positions a `position:` expectation names, and the events that give them. `location` is the
    /// device's own GPS fix, read at the expectation's `at` (a `location.read` event), so a device
    /// without an app (a plain walk) is checked too.
    static let positionProbes = ["marker": ["marker.shown", "marker.moved"], "map-center": ["map.shown", "map.centered", "map.followed"], "location": ["location.read"]]

    /// Reads and parses the file at `path`.
    public static func parse(contentsOf path: String) throws(ScenarioError) -> Scenario {
        try parse(readText(of: path, kind: "scenario", limit: maximumFileSize), file: path)
    }

    /// The UTF-8 text of the file at `path`, at most `limit` bytes; `kind` names the file in errors,
    /// which call it `shownAs` (default: `path`, as given).
    ///
    /// ```swift
    /// let text = try ScenarioParser.readText(of: url.path, kind: "game", limit: 8 << 20, shownAs: ShownPath.of(url.path))
    /// ```
    public static func readText(of path: String, kind: String, limit: Int, shownAs shown: String? = nil) throws(ScenarioError) -> String {
        do {
            return try readTextNamingPath(path, kind: kind, limit: limit)
        } catch {
            guard let shown, shown != path else { throw error }
            var named = error
            named.message = named.message.replacingOccurrences(of: path, with: shown)
            if named.location?.file == path { named.location?.file = shown }
            throw named
        }
    }

    private static func readTextNamingPath(_ path: String, kind: String, limit: Int) throws(ScenarioError) -> String {
        guard let bytes = FileBytes.contents(atPath: path, limit: limit) else {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw ScenarioError("no such \(kind) file", at: nil).prefixed(path)
            }
            guard !isDirectory.boolValue else { throw ScenarioError("this is a folder, not a \(kind) file", at: nil).prefixed(path) }
            if let refusal = InputFile.refusal(atPath: path) { throw ScenarioError("cannot read the \(kind) file: \(refusal)", at: nil).prefixed(path) }
            throw ScenarioError("cannot read the \(kind) file (permission denied, or not a regular file)", at: nil).prefixed(path)
        }
        guard bytes.count <= limit else {
            throw ScenarioError("\(path): the file is more than \(limit) bytes; \(kind) files are limited to \(limit) bytes (\(limit >> 20) MiB)", at: nil)
        }
        // A byte order mark goes through Foundation, which drops it.
        let text = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? String(data: Data(bytes), encoding: .utf8) : String(validating: bytes, as: UTF8.self)
        guard let text else {
            throw ScenarioError("the file is not UTF-8 text", at: SourceLocation(file: path, line: 1, column: 1))
        }
        return text
    }

    /// Parses scenario text; `file` names it in errors. Every other file the parse reads is kept in
    /// ``Scenario/inputFiles``.
    public static func parse(_ text: String, file: String) throws(ScenarioError) -> Scenario {
        let log = InputFileLog()
        var scenario = try InputFileLog.$current.withValue(log) {
            Result { () throws(ScenarioError) in try parseNotingFiles(text, file: file) }
        }.get()
        scenario.inputFiles = log.files
        return scenario
    }

    private static func parseNotingFiles(_ text: String, file: String) throws(ScenarioError) -> Scenario {
        let root = try YAMLNode.parse(text, file: file)
        if let error = root.notAMappingError(in: text, expected: "a scenario with keys \(topLevelKeys.joined(separator: ", "))") { throw error }
        // A world or game file given as a scenario: say what it is instead of listing its keys as unknown.
        if let notAScenario = YAMLFileKind.notAScenario(topLevelKeys: (try? root.fieldNames()) ?? []) { throw root.error(notAScenario) }
        var map = try root.mapping(allowing: topLevelKeys, what: "scenario")
        let name = try map.requiredText("name", what: "a scenario name")
        let description = try map.optional("description")?.string(what: "a description")

        var seed: UInt64 = 1
        if let node = map.optional("seed") {
            guard let text = node.scalarText, let value = UInt64(text) else { throw node.error("expected a seed: a whole number from 0 to 2^64-1") }
            seed = value
        }
        var startDate = Date(timeIntervalSince1970: 1_767_225_600)
        if let node = map.optional("start-time") {
            let text = try node.string(what: "an ISO 8601 UTC time")
            if let problem = ISO8601Time.problem(usualForm: text) {
                throw node.error("start-time '\(MessageText.excerpt(text))' is not a time a run can start at: \(problem)")
            }
            guard let date = ISO8601Time.date(from: text) else {
                throw node.error("expected an ISO 8601 time such as 2026-05-01T08:00:00Z, found '\(MessageText.excerpt(text))'")
            }
            startDate = date
        }
        var timeZone = TimeZone(identifier: "UTC")!
        if let node = map.optional("time-zone") {
            let name = try node.string(what: "an IANA time zone name")
            do { timeZone = try CivilClock(startDate: startDate, timeZone: name).timeZone } catch { throw node.error(error.description) }
        }

        var world: World?
        var worldFile: String?
        if let worldNode = map.optional("world") {
            let url = try readableFile(worldNode, kind: "world", what: "a world file path")
            world = try WorldParser.parse(contentsOf: url.path)
            worldFile = url.path
            if let roadsFile = world?.roadsFile { InputFileLog.note(roadsFile) }
        }
        let places = world?.places ?? [:]
        // Every position of the scenario (a device's, a step's, an app's settings and actions) may name one.
        var placed = root.placing(places)
        if text.utf8.containsASCII(" local") { placed = try LocalClockTimes.resolve(placed, start: startDate, timeZone: timeZone) }
        map = try placed.mapping(allowing: topLevelKeys, what: "scenario")

        let deviceNodes = try map.required("devices").sequence(what: "list of devices")
        guard !deviceNodes.isEmpty else { throw try map.required("devices").error("a scenario needs at least one device") }
        var devices: [DeviceSpec] = []
        var seenDeviceIDs = Set<String>()
        for node in deviceNodes {
            let device = try parseDevice(node, startDate: startDate, places: places)
            // `count: N` makes N devices alike: ids (and accounts) <id>-1 ... <id>-N.
            var copies = [device]
            if let countNode = try node.mapping(allowing: deviceKeys, what: "device").optional("count") {
                let count = try countNode.int(what: "a number of devices")
                guard (1...maximumDeviceCount).contains(count) else {
                    throw countNode.error("count is the number of devices alike, 1 to \(maximumDeviceCount), found \(count)")
                }
                copies = (1...count).map { number in
                    var copy = device
                    copy.id = "\(device.id)-\(number)"
                    copy.account = "\(device.account)-\(number)"
                    return copy
                }
            }
            for copy in copies {
                guard seenDeviceIDs.insert(copy.id).inserted else { throw node.error("a second device named '\(MessageText.excerpt(copy.id))'; device ids must be unique") }
                devices.append(copy)
            }
        }
        // Each app's server, shared by every device: read by the app, for a scenario that runs it or
        // names one of its server keys.
        var servers: [String: any Sendable] = [:]
        let deviceIndex = ScenarioDeviceIndex(devices)
        let appsOnDevices = deviceIndex.runningApps
        let sections = ScenarioServerSections(mapping: map, devices: devices, world: world)
        for app in ScenarioAppRegistry.apps where appsOnDevices.contains(app.name) || app.serverKeys.contains(where: { map.optional($0) != nil }) {
            if let configuration = try app.parseServer(sections) { servers[app.name] = configuration }
        }

        let httpServers = try parseHTTPServers(map.optional("http-servers"))

        let variables = ScenarioVariables.declaredNames(in: map.optional("expect"))
        var timeline: [TimelineStep] = []
        if let node = map.optional("timeline") {
            for stepNode in try node.sequence(what: "list of timeline steps") {
                timeline.append(try parseStep(stepNode, devices: deviceIndex, places: places, world: world, variables: variables))
            }
        }
        timeline = timeline.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.map(\.element)

        var expectations: [Expectation] = []
        var probes: [StoredProbe] = []
        // Read only when a stored: expectation names an account no device has (one pass over the file).
        let scenarioTexts = ScenarioTexts(root: root)
        if let node = map.optional("expect") {
            let expectationNodes = try node.sequence(what: "list of expectations")
            expectations.reserveCapacity(expectationNodes.count)
            for expectationNode in expectationNodes {
                if let http = try parseHTTPExpectation(expectationNode, servers: httpServers, devices: deviceIndex) {
                    expectations += http
                } else if let anyOf = try AnyOfExpectation.parse(expectationNode, probes: &probes, parse: { (node, probes) throws(ScenarioError) in
                    if let (probe, expectation) = try parseStoredExpectation(node, devices: deviceIndex, id: probes.count, scenarioTexts: scenarioTexts) {
                        probes.append(probe)
                        return expectation
                    }
                    return try parseExpectation(node, devices: deviceIndex, places: places, variables: variables)
                }) {
                    expectations.append(.anyOf(anyOf))
                } else if let (probe, expectation) = try parseStoredExpectation(expectationNode, devices: deviceIndex, id: probes.count, scenarioTexts: scenarioTexts) {
                    probes.append(probe)
                    expectations.append(expectation)
                } else {
                    expectations.append(try parseExpectation(expectationNode, devices: deviceIndex, places: places, variables: variables))
                }
            }
        }

        try checkVariables(timeline: timeline, expectations: expectations)

        var latest: Duration = .zero
        var latestLocation: SourceLocation?
        for step in timeline where step.at > latest { (latest, latestLocation) = (step.at, step.location) }
        for expectation in expectations {
            switch expectation {
            case .event(let event): if let window = event.window, window.upperBound > latest { (latest, latestLocation) = (window.upperBound, event.location) }
            case .position(let position): if position.at > latest { (latest, latestLocation) = (position.at, position.location) }
            case .order(let order): if let window = order.window, window.upperBound > latest { (latest, latestLocation) = (window.upperBound, order.location) }
            case .anyOf(let anyOf):
                let until = anyOf.alternatives.map { $0.judgedUntil(.zero) }.max() ?? .zero
                if until > latest { (latest, latestLocation) = (until, anyOf.location) }
            }
        }
        var duration = latest + .seconds(60)
        if map.optional("duration") == nil, duration > maximumDuration, let latestLocation {
            // Without `duration:`, a scenario runs until a minute after its last moment: bounded like an explicit duration.
            throw ScenarioError(
                "this happens at \(DurationText.format(latest)), but a scenario runs at most \(DurationText.format(maximumDuration)) (until a minute after its last step or expectation when it gives no duration)",
                at: latestLocation)
        }
        if let node = map.optional("duration") {
            duration = try node.duration(what: "a scenario duration")
            guard duration > .zero else { throw node.error("duration must be greater than zero") }
            guard duration <= maximumDuration else { throw node.error("duration \(DurationText.format(duration)) is longer than the limit of \(DurationText.format(maximumDuration))") }
            if latest > duration {
                throw node.error("duration \(DurationText.format(duration)) ends before the last step or expectation at \(DurationText.format(latest))")
            }
        }
        var scenario = Scenario(
            name: name, description: description, file: file, seed: seed, startDate: startDate, duration: duration,
            world: world, servers: servers, devices: devices, timeline: timeline, expectations: expectations)
        scenario.timeZone = timeZone
        scenario.probes = probes
        scenario.httpServers = httpServers
        scenario.worldFile = worldFile
        return scenario
    }

    /// The file `path` names in the file `file`: absolute, or relative to `file`'s folder.
    static func resolvedFile(_ path: String, relativeTo file: String) -> URL {
        path.hasPrefix("/") ? URL(fileURLWithPath: path) : URL(fileURLWithPath: file).deletingLastPathComponent().appendingPathComponent(path).standardizedFileURL
    }

    /// The file `node` names (relative to the scenario file's folder), which must be readable.
    /// `kind` names the file in errors ("game", "world"); `what` says what the value should be.
    ///
    /// ```swift
    /// let url = try ScenarioParser.readableFile(settings.required("game"), kind: "game", what: "a game file path")
    /// ```
    public static func readableFile(_ node: YAMLNode, kind: String, what: String) throws(ScenarioError) -> URL {
        let path = try node.string(what: what)
        let url = resolvedFile(path, relativeTo: node.file)
        // Named as the user types paths: relative to the current folder when below it (ShownPath).
        let shown = ShownPath.of(url.path)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw node.error("the \(kind) file \(shown) does not exist (a relative path is relative to this file's folder)")
        }
        guard !isDirectory.boolValue else {
            throw node.error("'\(MessageText.excerpt(path))' names the folder \(shown), not a \(kind) file; give the path of a file")
        }
        if let refusal = InputFile.refusal(atPath: url.path) { throw node.error("cannot read the \(kind) file \(shown): \(ShownPath.replacing(url.path, in: refusal))") }
        if let escape = ContainedPath.linkEscape(of: url.path) { throw node.error("cannot read the \(kind) file: \(ShownPath.replacing(url.path, in: escape))") }
        if let escape = ContainedPath.folderLinkEscape(of: path, from: WritableFile.folderAndName(of: node.file).folder) {
            throw node.error("cannot read the \(kind) file: \(escape)")
        }
        guard FileManager.default.isReadableFile(atPath: url.path) else { throw node.error("cannot read the \(kind) file \(shown): permission denied") }
        InputFileLog.note(url.path)
        return url
    }

    private static func parseDevice(_ node: YAMLNode, startDate: Date, places: [String: GeoCoordinate]) throws(ScenarioError) -> DeviceSpec {
        let map = try node.mapping(allowing: deviceKeys, what: "device")
        let id = try map.required("id").string(what: "a device id")
        guard !id.isEmpty, id.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
            throw try map.required("id").error("a device id is letters, digits, '-' and '_', found '\(MessageText.excerpt(id))'")
        }
        var track: TrackSpec?
        if let trackNode = map.optional("track") {
            if map.optional("route") != nil { throw trackNode.error("a device follows either a route or a track, not both") }
            track = try parseTrack(trackNode)
        }
        let start: GeoCoordinate
        if let atNode = map.optional("at") {
            start = try atNode.coordinate(places: places)
        } else if case .gpx(_, let route)? = track?.source {
            start = route.start
        } else if case .nmea? = track?.source {
            start = GeoCoordinate(latitude: 0, longitude: 0)
        } else {
            throw node.error("missing key 'at' in device (its start position)")
        }
        let altitude = try map.optional("altitude").map { (n) throws(ScenarioError) in try bounded(n, altitudes, what: "altitude", unit: "metres") }
        var gps = SimulatedGPS.Configuration()
        gps.startDate = startDate
        var gpsEnabled = true
        if let gpsNode = map.optional("gps") {
            let gpsMap = try gpsNode.mapping(allowing: gpsKeys, what: "gps settings")
            if let n = gpsMap.optional("interval") {
                gps.interval = try n.duration(what: "a fix interval")
                guard gps.interval >= .milliseconds(10) else { throw n.error("the fix interval must be at least 10ms") }
            }
            if let n = gpsMap.optional("accuracy") { gps.horizontalAccuracy = try bounded(n, accuracies, what: "accuracy", unit: "metres") }
            if let n = gpsMap.optional("vertical-accuracy") { gps.verticalAccuracy = try bounded(n, accuracies, what: "vertical-accuracy", unit: "metres") }
            if let n = gpsMap.optional("noise") { gps.noise = try n.bool() }
            if let n = gpsMap.optional("reacquisition") { gps.reacquisitionDelay = try n.duration(what: "a reacquisition delay") }
            if let n = gpsMap.optional("satellites") {
                gps.satellitesUsed = try n.int(what: "a satellite count")
                guard (0...64).contains(gps.satellitesUsed) else { throw n.error("satellites must be within 0...64, found \(gps.satellitesUsed)") }
            }
            if let n = gpsMap.optional("enabled") { gpsEnabled = try n.bool() }
        }
        var route: Route?
        var routeStart: Duration = .zero
        if let routeNode = map.optional("route") {
            let routeMap = try routeNode.mapping(allowing: routeKeys, what: "route")
            if let n = routeMap.optional("start") { routeStart = try n.duration(what: "a route start time") }
            let partial = try parseWaypoints(routeMap, places: places)
            route = Route(start: start, startAltitude: altitude, waypoints: partial.waypoints, speed: partial.speed)
        }
        var app: AppSpec?
        if let appNode = map.optional("app") {
            let appMap = try appNode.mapping(allowing: ["name", "settings"], what: "app")
            let name = try appMap.required("name").choice(ScenarioAppRegistry.names, what: "app")
            let definition = ScenarioAppRegistry.app(named: name)!
            let settingsMap = try appMap.optional("settings")?.mapping(allowing: definition.settingKeys, what: "\(name) settings")
            do {
                app = AppSpec(name: name, settings: try definition.parseSettings(settingsMap))
            } catch {
                // An app's error about settings it misses (no node to point at) points at the app.
                guard error.location == nil else { throw error }
                throw ScenarioError(error.message, at: appNode.location)
            }
        }
        var wifi = SimulatedWiFi.Configuration()
        var wifiEnabled = true
        if let wifiNode = map.optional("wifi") {
            let wifiMap = try wifiNode.mapping(allowing: wifiKeys, what: "wifi settings")
            if let n = wifiMap.optional("enabled") { wifiEnabled = try n.bool() }
            if let n = wifiMap.optional("scan-interval") {
                wifi.scanInterval = try n.duration(what: "a scan interval")
                guard wifi.scanInterval >= .seconds(1) else { throw n.error("scan-interval must be at least 1s") }
            }
            if let n = wifiMap.optional("throttle") { wifi.throttleWindow = try n.bool() ? .seconds(120) : nil }
        }
        var bluetooth = SimulatedBeaconRanging.Configuration()
        var bluetoothEnabled = true
        if let bluetoothNode = map.optional("bluetooth") {
            let bluetoothMap = try bluetoothNode.mapping(allowing: bluetoothKeys, what: "bluetooth settings")
            if let n = bluetoothMap.optional("enabled") { bluetoothEnabled = try n.bool() }
            if let n = bluetoothMap.optional("samples-per-cycle") {
                bluetooth.samplesPerCycle = try n.int(what: "advertisements per ranging cycle")
                guard (1...100).contains(bluetooth.samplesPerCycle) else { throw n.error("samples-per-cycle must be within 1...100") }
            }
            if let n = bluetoothMap.optional("fence-exit") { bluetooth.fenceExitDelay = try n.duration(what: "a fence exit delay") }
        }
        var account = id
        if let n = map.optional("account") {
            account = try n.string(what: "an account id")
            // A nameless player: refused like an empty name in an app's server settings.
            guard !account.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                throw n.error("a device's account cannot be empty: give the account it uses (account: alice), or leave 'account' out to use the device id '\(MessageText.excerpt(id))'")
            }
        }
        let online = try map.optional("online")?.bool() ?? true
        var geofences = GeofenceSpec()
        if let n = map.optional("geofences") { geofences = try parseGeofences(n, places: places) }
        return DeviceSpec(
            id: id, start: start, altitude: altitude, gps: gps, gpsEnabled: gpsEnabled, route: route,
            routeStart: routeStart, track: track, app: app, account: account, wifi: wifi, wifiEnabled: wifiEnabled,
            bluetooth: bluetooth, bluetoothEnabled: bluetoothEnabled, online: online, geofences: geofences, location: node.location)
    }

    private static func parseTrack(_ node: YAMLNode) throws(ScenarioError) -> TrackSpec {
        let map = try node.mapping(allowing: trackKeys, what: "track")
        let fileNode = try map.required("file")
        let url = try readableFile(fileNode, kind: "track", what: "a file path")
        var speedFactor = 1.0
        if let n = map.optional("speed-factor") {
            speedFactor = try n.double(what: "a playback speed factor")
            guard speedFactor >= 0.001, speedFactor <= 10_000 else { throw n.error("speed-factor must be within 0.001...10000, found \(plain(speedFactor))") }
        }
        let startOffset = try map.optional("start-offset")?.duration(what: "a start offset") ?? .zero
        let loop = try map.optional("loop")?.bool() ?? false
        let speed = try map.optional("speed").map { (n) throws(ScenarioError) in try parseSpeed(n) } ?? SpeedPreset.walk.metresPerSecond
        let source: TrackSpec.Source
        if url.pathExtension.lowercased() == "gpx" {
            do {
                let document = try GPXDocument(contentsOf: url)
                source = .gpx(url, try document.route(speed: speed))
            } catch {
                var error = error
                error.file = ShownPath.of(error.file)
                throw ScenarioError("in the GPX file: \(error)", at: fileNode.location)
            }
        } else {
            if map.optional("speed") != nil { throw map.keyNode("speed")!.error("'speed' applies to GPX routes without times, not to NMEA logs") }
            source = .nmea(url)
        }
        return TrackSpec(source: source, speedFactor: speedFactor, startOffset: startOffset, loop: loop)
    }

    private static func parseSpeed(_ node: YAMLNode) throws(ScenarioError) -> Double {
        if let text = node.scalarText, let preset = SpeedPreset(rawValue: text) { return preset.metresPerSecond }
        let presets = SpeedPreset.allCases.map(\.rawValue).joined(separator: ", ")
        guard let text = node.scalarText, let value = Double(text), (0.01...400).contains(value) else {
            throw node.error("expected a speed: \(presets), or metres per second within 0.01...400")
        }
        return value
    }

    private static func parseWaypoints(_ map: YAMLMapping, places: [String: GeoCoordinate]) throws(ScenarioError) -> Route.Partial {
        let speed = try map.optional("speed").map { (n) throws(ScenarioError) in try parseSpeed(n) } ?? SpeedPreset.walk.metresPerSecond
        let list = try map.required("waypoints").sequence(what: "list of waypoints")
        guard !list.isEmpty else { throw try map.required("waypoints").error("a route needs at least one waypoint") }
        var waypoints: [Route.Waypoint] = []
        var pauses: Duration = .zero
        for item in list {
            if item.isMapping {
                let wp = try item.mapping(allowing: waypointKeys, what: "waypoint")
                var waypoint = Route.Waypoint(try wp.required("at").coordinate(places: places))
                if let n = wp.optional("speed") { waypoint.speed = try parseSpeed(n) }
                if let n = wp.optional("pause") {
                    waypoint.pause = try n.duration(what: "a pause")
                    pauses += waypoint.pause
                    guard pauses <= maximumDuration else {
                        throw n.error("the pauses of this route add up to \(DurationText.format(pauses)) here, more than a scenario runs (at most \(DurationText.format(maximumDuration)))")
                    }
                }
                if let n = wp.optional("altitude") { waypoint.altitude = try bounded(n, altitudes, what: "altitude", unit: "metres") }
                waypoints.append(waypoint)
            } else {
                waypoints.append(Route.Waypoint(try item.coordinate(places: places)))
            }
        }
        return Route.Partial(waypoints: waypoints, speed: speed)
    }

    /// Reads a timeline step. A step whose values use variables (`${temp}`, one of `variables`) is
    /// checked with each variable's name in its place and keeps a ``StepTemplate``, read again with
    /// the values when the step runs (``parseStep(_:values:in:)``).
    static func parseStep(
        _ node: YAMLNode, devices: ScenarioDeviceIndex, places: [String: GeoCoordinate], world: World?, variables: [String]
    ) throws(ScenarioError) -> TimelineStep {
        let references = ScenarioVariables.references(in: node)
        guard !references.isEmpty else { return try parseStepAsWritten(node, devices: devices, places: places, world: world) }
        for (name, location) in references where !variables.contains(name) {
            throw ScenarioError(unknownVariableMessage(name, variables: variables), at: location)
        }
        if node.isMapping, let map = try? node.mapping(allowing: (try? node.fieldNames()) ?? []) {
            for key in ["at", "device", "do"] {
                if let value = map.optional(key), let text = value.scalarText, !ScenarioVariables.references(in: text).isEmpty {
                    throw value.error("a variable stands for a value the step acts with, not for its '\(key)'")
                }
            }
        }
        let names = references.map(\.name).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        let placeholders = Dictionary(uniqueKeysWithValues: names.map { ($0, $0) })
        // The step on its own: the template does not keep the rest of the file alive. (A copy that
        // keeps every scalar is never nil, nor one with every variable given a value.)
        let template = StepTemplate(step: try node.copy(file: node.file, places: nil)!, variables: names)
        var step = try parseStepAsWritten(template.node(file: node.file, values: placeholders, places: node.places)!, devices: devices, places: places, world: world)
        step.template = template
        return step
    }

    /// Why `${name}` is refused, with the nearest of the captured `variables`.
    static func unknownVariableMessage(_ name: String, variables: [String]) -> String {
        var message = "unknown variable ${\(MessageText.excerpt(name))}"
        if let nearest = NearestWord.suggest(for: name, among: variables) {
            message += "; did you mean ${\(nearest)}?"
        } else if variables.isEmpty {
            message += "; a variable is set by 'capture:' of an expectation, e.g. capture: { password: \(MessageText.excerpt(name)) }"
        } else {
            message += "; the expectations capture: \(variables.map { "${\($0)}" }.joined(separator: ", "))"
        }
        return message
    }

    /// The step of `template` with the variables' `values` in place, read for `scenario` when the step
    /// runs; throws when the values do not make a valid step (a value the action refuses).
    static func parseStep(_ template: StepTemplate, values: [String: String], in scenario: Scenario) throws(ScenarioError) -> TimelineStep? {
        guard let node = template.node(file: scenario.file, values: values, places: scenario.world?.places ?? [:]) else { return nil }
        return try parseStepAsWritten(node, devices: ScenarioDeviceIndex(scenario.devices), places: scenario.world?.places ?? [:], world: scenario.world)
    }

    /// Every variable a step uses is captured by one expectation only, whose window does not start
    /// after the step.
    private static func checkVariables(timeline: [TimelineStep], expectations: [Expectation]) throws(ScenarioError) {
        var captured: [String: EventExpectation] = [:]
        for case .event(let expected) in expectations {
            for capture in expected.captures {
                if let earlier = captured[capture.variable] {
                    throw ScenarioError("the variable '\(capture.variable)' is captured twice; the first is at \(earlier.location)", at: expected.location)
                }
                captured[capture.variable] = expected
            }
        }
        for step in timeline {
            for name in step.template?.variables ?? [] {
                guard let expected = captured[name], let window = expected.window, window.lowerBound > step.at else { continue }
                throw ScenarioError(
                    "the step at \(DurationText.format(step.at)) uses ${\(name)}, but the expectation at \(expected.location) captures it within [\(DurationText.format(window.lowerBound)), \(DurationText.format(window.upperBound))], after the step",
                    at: step.location)
            }
        }
    }

    private static func parseStepAsWritten(_ node: YAMLNode, devices: ScenarioDeviceIndex, places: [String: GeoCoordinate], world: World?) throws(ScenarioError) -> TimelineStep {
        var allowed = stepKeys
        // The apps' actions in name order: the list an unknown key's error gives is the same in every run.
        for app in ScenarioAppRegistry.apps {
            for action in app.actions.keys.sorted() { allowed += app.actions[action, default: []].filter { !allowed.contains($0) } }
        }
        let map: YAMLMapping
        do { map = try node.mapping(allowing: allowed, what: "timeline step") } catch { throw unknownStepKeyError(node, allowed: allowed, devices: devices) ?? error }
        let at = try map.required("at").duration(what: "a step time")
        var deviceID: String?
        if let n = map.optional("device") {
            deviceID = try devices.deviceID(named: n)
        } else if let only = devices.onlyID {
            deviceID = only
        } else {
            throw node.error("this scenario has several devices; say which one with 'device:'")
        }
        let device = devices[deviceID!]!
        let actionNode = try map.required("do")
        let appActions = device.app.flatMap { ScenarioAppRegistry.app(named: $0.name) }?.actions ?? [:]
        let name = try actionNode.choice(deviceActions + appActions.keys.sorted(), what: "action")

        let ownKeys: [String]
        let action: StepAction
        switch name {
        case "gps-on": action = .gpsOn; ownKeys = []
        case "gps-off": action = .gpsOff; ownKeys = []
        case "signal-loss":
            action = .signalLoss(try map.optional("for")?.duration(what: "how long the signal is lost")); ownKeys = ["for"]
        case "signal-restore": action = .signalRestore; ownKeys = []
        case "move": action = .move(try parseWaypoints(map, places: places)); ownKeys = ["speed", "waypoints"]
        case "teleport": action = .teleport(try map.required("to").coordinate(places: places)); ownKeys = ["to"]
        case "follow-route": action = .followRoute(try FollowRouteSpec.parse(map, step: node, world: world)); ownKeys = FollowRouteSpec.ownKeys + ["to"]
        case "wifi-on", "wifi-off": action = .wifi(name == "wifi-on"); ownKeys = []
        case "bluetooth-on", "bluetooth-off": action = .bluetooth(name == "bluetooth-on"); ownKeys = []
        case "go-online", "go-offline": action = .connectivity(name == "go-online"); ownKeys = []
        case "use-wifi", "use-cellular": action = .network(name == "use-wifi" ? .wifi : .cellular); ownKeys = []
        case "location-services-on", "location-services-off": action = .locationServices(name == "location-services-on"); ownKeys = []
        case "drop-connection":
            let lose = try map.optional("lose")?.choice(LostInFlight.allCases.map(\.rawValue), what: "what the drop loses")
            let interface = try map.optional("interface")?.choice(["down", "up"], what: "drop interface") ?? "down"
            action = .dropConnection(lose.flatMap(LostInFlight.init(rawValue:)), interfaceUp: interface == "up")
            ownKeys = ["lose", "interface"]
        case "answer":
            let when = try map.optional("when")?.choice(["next", "showing"], what: "answer timing") ?? "next"
            action = .answer(
                prompt: try promptID(map.required("prompt"), device: device), choice: try map.required("choice").string(what: "an answer"),
                after: try map.optional("after")?.duration(what: "a reaction time") ?? .seconds(2), onlyIfShowing: when == "showing")
            ownKeys = ["prompt", "choice", "after", "when"]
        case "storage-fault", "kill-app", "restart-app":
            (action, ownKeys) = try parseStorageStep(name, map, device: device)
        default:
            let app = ScenarioAppRegistry.app(named: device.app!.name)!
            ownKeys = appActions[name] ?? []
            action = .app(name: name, parsed: try app.parseAction(name, map))
        }
        for key in map.keys where !["at", "device", "do"].contains(key) && !ownKeys.contains(key) {
            throw map.keyNode(key)!.error("'\(key)' does not apply to the action '\(name)'")
        }
        let keys = ownKeys.compactMap { key in map.optional(key)?.scalarText.map { TimelineStep.Pair(key: key, value: $0) } }
        return TimelineStep(at: at, device: deviceID, action: action, location: node.location, keys: keys)
    }

    /// `storage-fault` (kind, and for: or count:), `kill-app` (optionally during: next-write) and `restart-app`.
    private static func parseStorageStep(_ name: String, _ map: YAMLMapping, device: DeviceSpec) throws(ScenarioError) -> (StepAction, [String]) {
        if name != "storage-fault" {
            guard let app = device.app.flatMap({ ScenarioAppRegistry.app(named: $0.name) }), app.keepsDataOnDevice else {
                let running = device.app.map { "the \($0.name) app keeps its data in memory" } ?? "the device runs no app"
                let keeping = ScenarioAppRegistry.apps.filter(\.keepsDataOnDevice).map(\.name).sorted().joined(separator: ", ")
                throw try map.required("do").error("'\(name)' needs an app that keeps its data in the device's database (\(keeping)); \(running)")
            }
        }
        switch name {
        case "kill-app":
            let during = try map.optional("during")?.choice(["now", "next-write"], what: "when the app is killed") ?? "now"
            return (.killApp(duringNextWrite: during == "next-write"), ["during"])
        case "restart-app":
            return (.restartApp, [])
        default:
            let kindNode = try map.required("kind")
            let kind = StorageFaults.Kind(rawValue: try kindNode.choice(StorageFaults.Kind.allCases.map(\.rawValue), what: "storage fault kind"))!
            let duration = try map.optional("for")?.duration(what: "how long the fault lasts")
            let count = try map.optional("count").map { (n) throws(ScenarioError) in try nonNegative(n) }
            if kind == .corruptAtStart {
                if duration != nil || count != nil { throw kindNode.error("corrupt-at-start damages the file once; it takes neither for: nor count:") }
            } else {
                guard (duration == nil) != (count == nil) else {
                    let given = duration == nil ? "give one" : "give one, not both"
                    throw kindNode.error("say how long the \(kind.rawValue) fault lasts: 'for: 30s' (a window) or 'count: 1' (the next operations); \(given)")
                }
                if let duration, duration <= .zero { throw try map.required("for").error("for: must be longer than zero") }
                if let count, count < 1 { throw try map.required("count").error("count: must be 1 or more") }
            }
            return (.storageFault(kind, for: duration, count: count), ["kind", "for", "count"])
        }
    }

    /// A time window `[from, to]` of two durations, `from` not after `to`.
    public static func parseWindow(_ node: YAMLNode) throws(ScenarioError) -> ClosedRange<Duration> {
        let items = try node.sequence(what: "time window [from, to]")
        guard items.count == 2 else { throw node.error("expected a time window [from, to], found a list of \(items.count)") }
        let from = try items[0].duration(), to = try items[1].duration()
        guard from <= to else { throw node.error("the window starts after it ends") }
        return from...to
    }

    private static func parseExpectation(_ node: YAMLNode, devices: ScenarioDeviceIndex, places: [String: GeoCoordinate], variables: [String]) throws(ScenarioError) -> Expectation {
        if node.hasKey("order") { return .order(try parseOrderExpectation(node, devices: devices, variables: variables)) }
        let isPosition = node.hasKey("position")
        let map = try node.mapping(allowing: isPosition ? positionExpectationKeys : eventExpectationKeys, what: isPosition ? "position expectation" : "event expectation")
        var device: String?
        // Without `device:`, an event expectation counts the event on any device and world-wide events
        // (the backend's); a position needs a device, which one device implies.
        if let n = map.optional("device") { device = try devices.deviceID(named: n) } else if isPosition, let only = devices.onlyID { device = only }
        if isPosition {
            let probeNode = try map.required("position")
            let probe = try probeNode.string(what: "what to locate: marker, map-center, location (the device's GPS fix) or an event name")
            guard device != nil else { throw node.error("this scenario has several devices; say whose position with 'device:'") }
            let radius = try map.required("radius").double(what: "a radius in metres")
            guard radius > 0 else { throw try map.required("radius").error("radius must be greater than zero") }
            return .position(PositionExpectation(
                probe: probe, events: positionProbes[probe] ?? [probe], device: device, at: try map.required("at").duration(),
                near: try map.required("near").coordinate(places: places), radius: radius, location: node.location))
        }
        let nameNode = try map.required("event")
        let name = try nameNode.string(what: "an event name")
        let known = try EventCatalogue.check(nameNode, name: name, device: device, devices: devices)
        let window = try map.optional("within").map { (n) throws(ScenarioError) in try parseWindow(n) }
        let fields = try map.optional("where").map { (n) throws(ScenarioError) in try parseFieldConditions(n, of: name, fields: known, variables: variables) } ?? []
        var minimum = 1, maximum: Int?
        if let n = map.optional("count") { let c = try nonNegative(n); minimum = c; maximum = c }
        if let n = map.optional("at-least") { minimum = try nonNegative(n) }
        if let n = map.optional("at-most") { maximum = try nonNegative(n); if map.optional("at-least") == nil { minimum = 0 } }
        if let n = map.optional("never"), try n.bool() {
            if map.optional("count") != nil || map.optional("at-least") != nil || map.optional("at-most") != nil {
                throw n.error("'never' cannot be combined with count, at-least or at-most")
            }
            minimum = 0; maximum = 0
        }
        if let maximum, maximum < minimum { throw node.error("at-most \(maximum) is less than at-least \(minimum)") }
        var expectation = EventExpectation(name: name, device: device, window: window, fields: fields, minimum: minimum, maximum: maximum, location: node.location)
        if let captureNode = map.optional("capture") {
            if maximum == 0 { throw captureNode.error("an expectation that no event happens has nothing to capture; drop 'never' or 'capture'") }
            expectation.captures = try ScenarioVariables.parseCaptures(captureNode)
            let fieldNodes = try captureNode.mapping(allowing: expectation.captures.map(\.field), what: "capture")
            for capture in expectation.captures {
                try EventCatalogue.checkField(fieldNodes.keyNode(capture.field)!, capture.field, of: name, fields: known)
            }
        }
        return .event(expectation)
    }

    /// `order: [a, b, ...]` with optional `device:` and `within:`; each item an event name or
    /// `{ event: name, where: {...} }`.
    private static func parseOrderExpectation(_ node: YAMLNode, devices: ScenarioDeviceIndex, variables: [String]) throws(ScenarioError) -> OrderExpectation {
        let map = try node.mapping(allowing: orderExpectationKeys, what: "order expectation")
        let device = try map.optional("device").map { (n) throws(ScenarioError) in try devices.deviceID(named: n) }
        let listNode = try map.required("order")
        var items: [OrderExpectation.Item] = []
        for itemNode in try listNode.sequence(what: "list of events in the order they must happen: [sign-up.succeeded, notification.posted]") {
            if itemNode.isMapping {
                let item = try itemNode.mapping(allowing: orderItemKeys, what: "event of an order")
                let nameNode = try item.required("event")
                let name = try nameNode.string(what: "an event name")
                let known = try EventCatalogue.check(nameNode, name: name, device: device, devices: devices)
                items.append(OrderExpectation.Item(
                    name: name, fields: try item.optional("where").map { (n) throws(ScenarioError) in try parseFieldConditions(n, of: name, fields: known, variables: variables) } ?? []))
            } else {
                let name = try itemNode.string(what: "an event name")
                _ = try EventCatalogue.check(itemNode, name: name, device: device, devices: devices)
                items.append(OrderExpectation.Item(name: name, fields: []))
            }
        }
        guard items.count >= 2 else { throw listNode.error("an order needs two events or more, found \(items.count)") }
        return OrderExpectation(
            items: items, device: device,
            window: try map.optional("within").map { (n) throws(ScenarioError) in try parseWindow(n) }, location: node.location)
    }

    /// The conditions of a `where:` mapping: `field: value` (the text equals), `field: { approx: N,
    /// tolerance: T }` (T a number in the field's unit, or a percentage of N), `field: { includes: X }`
    /// or `{ includes: [X, Y] }` (a list field holds each item).
    /// Each field must be one of `fields` of the event `event` (nil: any field); a value may use the
    /// captured `variables` (`${temp}`), compared with their values as the run goes.
    static func parseFieldConditions(_ whereNode: YAMLNode, of event: String, fields: [String]?, variables: [String] = []) throws(ScenarioError) -> [FieldCondition] {
        guard whereNode.isMapping else { throw whereNode.error("expected a mapping of field: value") }
        let keys = try whereNode.mapping(allowing: (try? whereNode.fieldNames()) ?? [], what: "where").keys
        let whereMap = try whereNode.mapping(allowing: keys, what: "where")
        var conditions: [FieldCondition] = []
        for key in keys {
            try EventCatalogue.checkField(whereMap.keyNode(key)!, key, of: event, fields: fields)
            let valueNode = try whereMap.required(key)
            guard valueNode.isMapping else {
                let text = try valueNode.string(what: "a field value")
                let references = ScenarioVariables.references(in: text).map(\.name)
                if let unknown = references.first(where: { !variables.contains($0) }) {
                    throw valueNode.error(unknownVariableMessage(unknown, variables: variables))
                }
                conditions.append(FieldCondition(key: key, test: references.isEmpty ? .equals(text) : .equalsCaptured(text)))
                continue
            }
            let test = try valueNode.mapping(allowing: fieldConditionKeys, what: "field condition")
            if let includes = test.optional("includes") {
                if let other = test.keys.first(where: { $0 != "includes" }) {
                    throw test.keyNode(other)!.error("'includes' compares a list field; it takes no '\(other)'")
                }
                let items = includes.isSequence
                    ? try includes.sequence(what: "list of items").map { (n) throws(ScenarioError) in try n.string(what: "an item") }
                    : [try includes.string(what: "an item, or a list of items")]
                guard !items.isEmpty else { throw includes.error("'includes' needs at least one item") }
                conditions.append(FieldCondition(key: key, test: .includes(items)))
                continue
            }
            let value = try test.required("approx").double(what: "the number the field is near")
            let toleranceNode = try test.required("tolerance")
            let text = try toleranceNode.string(what: "a tolerance: a number in the field's unit (15) or a percentage (1%)")
            let tolerance: FieldCondition.Tolerance
            if text.hasSuffix("%") {
                guard let percent = Double(text.dropLast().trimmingCharacters(in: .whitespaces)), percent.isFinite, percent >= 0 else {
                    throw toleranceNode.error("expected a percentage such as 1% or 0.5%, found '\(MessageText.excerpt(text))'")
                }
                tolerance = .relative(percent / 100)
            } else {
                guard let amount = Double(text), amount.isFinite, amount >= 0 else {
                    throw toleranceNode.error("expected a tolerance: a number in the field's unit (15) or a percentage (1%), found '\(MessageText.excerpt(text))'")
                }
                tolerance = .absolute(amount)
            }
            conditions.append(FieldCondition(key: key, test: .approximately(value, tolerance: tolerance)))
        }
        return conditions
    }

    /// A `stored:` or `server:` expectation: the read it needs and the event expectation on what the
    /// read finds (nil for any other expectation).
    private static func parseStoredExpectation(_ node: YAMLNode, devices: ScenarioDeviceIndex, id: Int, scenarioTexts: ScenarioTexts) throws(ScenarioError) -> (StoredProbe, Expectation)? {
        let isServer = node.hasKey("server")
        guard isServer || node.hasKey("stored") else { return nil }
        let map = try node.mapping(allowing: (isServer ? serverExpectationKeys : storedExpectationKeys) + RowsCheck.keys, what: isServer ? "server expectation" : "stored expectation")
        let at = try map.required("at").duration(what: "when the rows are read")
        var rows: [[StoredValue]]?
        if let rowsNode = map.optional("rows") { rows = try parseRows(rowsNode) }
        let source: StoredProbe.Source
        let device: String?
        var columns: [Int]?
        if isServer {
            (source, columns) = try parseServerSource(map, devices: devices, scenarioTexts: scenarioTexts)
            device = nil
        } else {
            if let columnsNode = map.keyNode("columns") {
                throw columnsNode.error("columns: picks columns of a server table; a stored: query picks its own in its SELECT")
            }
            let queryNode = try map.required("stored")
            let query = try queryNode.string(what: "a SQL query")
            let firstWord = firstWord(of: query)
            guard firstWord == "SELECT" || firstWord == "WITH" else {
                throw queryNode.error("a stored expectation reads with a SELECT query; found '\(query.prefix(40))'")
            }
            if let second = SQLStatementText.secondStatementOffset(in: query) {
                let (line, column) = SQLStatementText.lineAndColumn(of: second, in: query)
                throw queryNode.error("a stored expectation runs one SELECT, but this query holds a second statement at line \(line), column \(column) of the query: remove everything after the first ';'")
            }
            let id = try map.optional("device").map { (n) throws(ScenarioError) in try devices.deviceID(named: n) } ?? devices.onlyID
            guard let id else { throw node.error("this scenario has several devices; say whose database with 'device:'") }
            let database = try storedDatabase(map, of: devices[id]!, keeping: devices[id]!.app.flatMap { devices.database(ofApp: $0.name) }, expectation: node)
            source = .database(device: id, file: database.file(onDevice: id), query: query)
            device = id
        }
        let check = try parseRowsCheck(map, rows: rows, source: source, node: node, devices: devices, scenarioTexts: scenarioTexts)
        var probe = StoredProbe(source: source, at: at, id: id)
        probe.columns = columns
        probe.check = check
        let expectation = EventExpectation(
            name: isServer ? "server.rows" : "stored.rows", device: device, window: at...at,
            fields: [FieldCondition("probe", equals: String(id)), FieldCondition("verdict", equals: "ok")],
            minimum: 1, maximum: 1, location: node.location)
        return (probe, .event(expectation))
    }

    /// The first word of the SQL `query` (after its leading spaces), in capitals: `SELECT`, `WITH`, ...
    private static func firstWord(of query: String) -> String {
        let bytes = query.utf8
        var start = bytes.startIndex
        // ASCII spaces and letters read as bytes; anything else as characters (the same word).
        while start != bytes.endIndex, bytes[start] == UInt8(ascii: " ") || (0x09...0x0D).contains(bytes[start]) { start = bytes.index(after: start) }
        var end = start
        while end != bytes.endIndex, (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(bytes[end] | 0x20) { end = bytes.index(after: end) }
        guard end == bytes.endIndex || bytes[end] < 0x80 else { return query.drop { $0.isWhitespace }.prefix { $0.isLetter }.uppercased() }
        return String(query[start..<end]).uppercased()
    }

    /// The database a `stored:` expectation reads on `device`, whose app keeps `kept`
    /// (``ScenarioApp/deviceDatabase``), which `database:` must name (or leave out, for the dog walk's
    /// `<device>.sqlite`). A name no app's database has, or another app's, is refused with the one to write.
    private static func storedDatabase(_ map: YAMLMapping, of device: DeviceSpec, keeping kept: ScenarioAppDatabase?, expectation: YAMLNode) throws(ScenarioError) -> ScenarioAppDatabase {
        var keeper: String {
            guard let app = device.app else { return "\(device.id) runs no app, so it has no database" }
            return kept.map { "\(device.id) runs \(app.name), whose database is \($0.file(onDevice: device.id))" }
                ?? "\(device.id) runs \(app.name), which keeps no database on the device"
        }
        guard let nameNode = map.optional("database") else {
            guard let kept, kept == .unnamed else {
                var fix = "; a stored: expectation reads the database of a device whose app keeps one"
                if case .named(let name)? = kept { fix = ": add `database: \(name)`" }
                throw expectation.error("without 'database:', a stored: expectation reads \(device.id).sqlite, but \(keeper)\(fix)")
            }
            return kept
        }
        let name = try nameNode.string(what: "a database name (task-list: <device>.task-list.sqlite)")
        var names: [String] = []
        for app in ScenarioAppRegistry.apps { if case .named(let known)? = app.deviceDatabase, !names.contains(known) { names.append(known) } }
        guard names.contains(name) else {
            var message = "unknown database '\(MessageText.excerpt(name))'"
            let nearest = NearestWord.suggest(for: name, among: names)
            if let nearest {
                message += "; did you mean '\(nearest)'?"
            } else {
                message += "; the databases are named after the apps that keep them: \(names.joined(separator: ", "))"
            }
            if let kept, kept != nearest.map(ScenarioAppDatabase.named) { message += " (\(keeper): \(kept.fix))" }
            throw nameNode.error(message)
        }
        guard let kept, kept == .named(name) else {
            let fix = kept.map { ": \($0.fix)" } ?? "; a stored: expectation reads the database of a device whose app keeps one"
            throw nameNode.error("'database: \(MessageText.excerpt(name))' reads \(device.id).\(name).sqlite, but \(keeper)\(fix)")
        }
        return kept
    }

    /// GPS accuracies accepted, in metres.
    static let accuracies: ClosedRange<Double> = 0...10_000
    /// Altitudes accepted, in metres (the deepest sea to the edge of space).
    static let altitudes: ClosedRange<Double> = -11_000...100_000

    /// The node as a number within `range`; the error names the key and the range.
    private static func bounded(_ node: YAMLNode, _ range: ClosedRange<Double>, what: String, unit: String) throws(ScenarioError) -> Double {
        let value = try node.double(what: "\(what) in \(unit)")
        guard range.contains(value) else { throw node.error("\(what) must be within \(plain(range.lowerBound))...\(plain(range.upperBound)) \(unit), found \(plain(value))") }
        return value
    }

    /// `value` without a needless `.0` (`10000`, `0.5`, `1e+308`).
    static func plain(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : "\(value)"
    }

    /// A whole number that is not negative (a count).
    /// An injected server failure's `within: [from, until]` (an app's `server-failures`, the friend
    /// locator's `backend: failures:`): requests fail from `from` until just before `until`, so a
    /// window that ends where or before it starts would fail nothing and is refused at its line and
    /// column.
    public static func parseFailureWindow(_ node: YAMLNode) throws(ScenarioError) -> Range<Duration> {
        let items = try node.sequence(what: "a failure window [from, until]")
        guard items.count == 2 else { throw node.error("expected a failure window [from, until], e.g. [0s, 10m]; found a list of \(items.count)") }
        let from = try items[0].duration(), until = try items[1].duration()
        guard from < until else {
            let written = "[\(items[0].scalarText ?? ""), \(items[1].scalarText ?? "")]"
            throw node.error(
                from == until
                    ? "the failure window \(written) is empty (requests fail from its start until before its end): give an end after the start, e.g. [\(items[0].scalarText ?? "0s"), 10m]"
                    : "the failure window \(written) ends before it starts: write [from, until] with the earlier time first, e.g. [\(items[1].scalarText ?? "0s"), \(items[0].scalarText ?? "10m")]")
        }
        return from..<until
    }

    /// An injected server failure's `count:`: how many requests fail, at least 1 (refused at its line
    /// and column otherwise: a count of 0 or less would fail nothing).
    public static func parseFailureCount(_ node: YAMLNode) throws(ScenarioError) -> Int {
        let value = try node.int(what: "a number of requests that fail")
        guard value >= 1 else {
            throw node.error("a failure's count is how many requests fail, at least 1; found \(value) (leave 'count' out to fail every request in the window)")
        }
        return value
    }

    public static func nonNegative(_ node: YAMLNode) throws(ScenarioError) -> Int {
        let value = try node.int(what: "a count")
        guard value >= 0 else { throw node.error("a count cannot be negative") }
        return value
    }
}

extension YAMLNode {
    /// The keys of a mapping node, whatever they are.
    public func fieldNames() throws -> [String] {
        pairs?.compactMap { $0.key.scalarText } ?? []
    }
}

extension ScenarioError {
    func prefixed(_ path: String) -> ScenarioError {
        ScenarioError("\(path): \(message)", at: location)
    }
}
