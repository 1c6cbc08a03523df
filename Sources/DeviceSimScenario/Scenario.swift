import DeviceSimHAL
import DeviceSimServer
import DeviceSimSimulated
import DeviceSimStorage
import Foundation

/// A scenario file, parsed and validated: who is where, what they run, what happens when, and what
/// must be observed.
public struct Scenario: Sendable {
    /// The scenario's title.
    public var name: String
    /// What the scenario shows, for people.
    public var description: String?
    /// The file it came from.
    public var file: String
    /// Every other file its parse read (world, OpenStreetMap extract, tracks, game files), as paths.
    public var inputFiles: [String] = []
    /// The root seed of all randomness.
    public var seed: UInt64
    /// UTC time of virtual instant zero.
    public var startDate: Date
    /// The devices' IANA time zone (`time-zone:`, UTC unless set): their civil clock.
    public var timeZone: TimeZone = TimeZone(identifier: "UTC")!
    /// How much virtual time the scenario runs.
    public var duration: Duration
    /// The world the devices share (hotspots, access points, beacons), if the scenario names one.
    public var world: World?
    /// The world file's path (resolved against the scenario's folder), if the scenario names one.
    public var worldFile: String?
    /// The apps' servers' configurations, by app name, as each app read them from the file's top-level
    /// keys (``ScenarioApp/parseServer(_:)``): one server per app, shared by every device.
    public var servers: [String: any Sendable]
    /// The devices.
    public var devices: [DeviceSpec]
    /// What happens, ordered by time (file order among equal times).
    public var timeline: [TimelineStep]
    /// What must be observed.
    public var expectations: [Expectation]
    /// The reads of stored rows that `stored:` and `server:` expectations check.
    public var probes: [StoredProbe] = []
    /// The HTTP servers the devices' `URLSession` requests reach (`http-servers:`).
    public var httpServers: [HTTPServerSpec] = []
}

/// One device of a scenario.
public struct DeviceSpec: Sendable {
    /// The device's name.
    public var id: String
    /// Where it stands at the start.
    public var start: GeoCoordinate
    /// Altitude at the start, metres.
    public var altitude: Double?
    /// Its GPS receiver's settings.
    public var gps: SimulatedGPS.Configuration
    /// Whether the GPS is on at the start.
    public var gpsEnabled: Bool
    /// A route it starts walking at `routeStart`.
    public var route: Route?
    /// When the route starts.
    public var routeStart: Duration
    /// A recorded track it plays instead of a route.
    public var track: TrackSpec?
    /// The app it runs.
    public var app: AppSpec?
    /// The account of the device's user on the apps' servers (the device id unless the file says otherwise).
    public var account: String
    /// Its Wi-Fi radio (used when the scenario has a world).
    public var wifi: SimulatedWiFi.Configuration
    /// Whether Wi-Fi is on at the start.
    public var wifiEnabled: Bool
    /// Its Bluetooth beacon ranging (used when the scenario has a world).
    public var bluetooth: SimulatedBeaconRanging.Configuration
    /// Whether Bluetooth is on at the start.
    public var bluetoothEnabled: Bool
    /// Whether the device is online at the start.
    public var online: Bool
    /// Its geofence monitoring (timing, limits, regions from the start).
    public var geofences = GeofenceSpec()
    /// Where the device was declared.
    public var location: SourceLocation
}

/// A recorded track a device plays: an NMEA log (which replaces the simulated receiver) or a GPX
/// file (which the simulated receiver follows, with its noise and its outages).
public struct TrackSpec: Sendable {
    /// What kind of file.
    public enum Source: Sendable {
        /// An NMEA log, played epoch by epoch.
        case nmea(URL)
        /// A GPX track or route, turned into a route.
        case gpx(URL, Route)
    }

    /// The file and what it holds.
    public var source: Source
    /// Playback rate (2: twice as fast as recorded).
    public var speedFactor: Double
    /// Recorded time skipped at the start.
    public var startOffset: Duration
    /// Start again at the end.
    public var loop: Bool
}

/// An app on a device, with its parsed settings.
public struct AppSpec: Sendable {
    /// The app's name (`dog-walk`, ...).
    public var name: String
    /// The settings, parsed by the app's definition.
    public var settings: any Sendable
}

/// One step of a scenario's timeline.
public struct TimelineStep: Sendable {
    /// When the step happens.
    public var at: Duration
    /// The device it concerns (nil for the whole world).
    public var device: String?
    /// What to do.
    public var action: StepAction
    /// Where the step was written.
    public var location: SourceLocation
    /// The step's own keys with a single value (`email`, `speed`, ...), as written, for its trace event.
    public var keys: [Pair] = []
    /// The step as written, when its values use variables (`${temp}`): it is read again with their
    /// values when its time comes, and ``action`` is only what it reads with placeholders.
    public var template: StepTemplate?

    /// A key of a step and its value as written.
    public struct Pair: Sendable, Hashable {
        public var key: String
        public var value: String
    }
}

/// What a timeline step does.
public enum StepAction: Sendable {
    /// Switch the GPS on.
    case gpsOn
    /// Switch the GPS off.
    case gpsOff
    /// Lose the sky (a tunnel), for a while or until `signal-restore`.
    case signalLoss(Duration?)
    /// Get the sky back.
    case signalRestore
    /// Start walking a route from where the device is.
    case move(Route.Partial)
    /// Jump to a place and stand there.
    case teleport(GeoCoordinate)
    /// Travel the fastest route on the world's roads through places (see ``FollowRouteSpec``).
    case followRoute(FollowRouteSpec)
    /// Switch Wi-Fi on or off.
    case wifi(Bool)
    /// Switch Bluetooth on or off.
    case bluetooth(Bool)
    /// Go online or offline.
    case connectivity(Bool)
    /// Go online on Wi-Fi or on cellular (`use-wifi`, `use-cellular`): what `NWPathMonitor` reports.
    case network(NetworkInterfaceKind)
    /// Location Services switched on or off for the whole phone (Settings > Privacy): CoreLocation
    /// reports the app's authorization as denied while they are off.
    case locationServices(Bool)
    /// The connection drops for an instant: every request of the device on its way loses its request
    /// or its reply (`lose:`; nil: the seed decides). With the interface down (the default) the
    /// requests fail at once; with it up (`interface: up`, lost in the network) they time out.
    case dropConnection(LostInFlight?, interfaceUp: Bool)
    /// The user answers a prompt (the one showing, or the next of that kind unless `onlyIfShowing`)
    /// after a reaction time.
    case answer(prompt: String, choice: String, after: Duration, onlyIfShowing: Bool)
    /// An action of the device's app, parsed by the app's definition.
    case app(name: String, parsed: any Sendable)
    /// A fault in the device's local storage: for a window (`for:`), for the next `count` operations,
    /// or (corrupt-at-start) a damaged database file that the app finds the next time it opens it.
    case storageFault(StorageFaults.Kind, for: Duration?, count: Int?)
    /// The app is killed: now, or during its next write to the database.
    case killApp(duringNextWrite: Bool)
    /// The app is stopped and booted again (it loads its data from the database again).
    case restartApp

    /// The action's name as written in scenario files.
    public var name: String {
        switch self {
        case .gpsOn: "gps-on"
        case .gpsOff: "gps-off"
        case .signalLoss: "signal-loss"
        case .signalRestore: "signal-restore"
        case .move: "move"
        case .teleport: "teleport"
        case .followRoute: "follow-route"
        case .wifi(let on): on ? "wifi-on" : "wifi-off"
        case .bluetooth(let on): on ? "bluetooth-on" : "bluetooth-off"
        case .connectivity(let on): on ? "go-online" : "go-offline"
        case .network(let interface): interface == .wifi ? "use-wifi" : "use-cellular"
        case .locationServices(let on): on ? "location-services-on" : "location-services-off"
        case .dropConnection: "drop-connection"
        case .answer: "answer"
        case .app(let name, _): name
        case .storageFault: "storage-fault"
        case .killApp: "kill-app"
        case .restartApp: "restart-app"
        }
    }
}

extension Route {
    /// A route whose start point is not known until it begins (wherever the device then is).
    public struct Partial: Sendable, Hashable {
        /// The waypoints.
        public var waypoints: [Route.Waypoint]
        /// The default speed, m/s.
        public var speed: Double

        /// The route from `start`.
        public func from(_ start: GeoCoordinate) -> Route {
            Route(start: start, waypoints: waypoints, speed: speed)
        }
    }
}

/// Something a scenario expects to observe in its trace.
public enum Expectation: Sendable {
    /// Events named `name` (on `device`, within `window`, with matching fields) occur a number of
    /// times within `count`.
    case event(EventExpectation)
    /// The position last reported by `events` (on `device`) at time `at` is within `radius` metres of `near`.
    case position(PositionExpectation)
    /// Events occur in a given order in the trace (`order: [a, b]`), at one instant or across several.
    case order(OrderExpectation)
    /// At least one of several expectations holds (`any-of: [...]`): an either-or outcome.
    case anyOf(AnyOfExpectation)

    /// Where the expectation is written.
    public var location: SourceLocation {
        switch self {
        case .event(let expected): expected.location
        case .position(let expected): expected.location
        case .order(let expected): expected.location
        case .anyOf(let expected): expected.location
        }
    }
}

/// See ``Expectation/event(_:)``.
public struct EventExpectation: Sendable {
    public var name: String
    public var device: String?
    public var window: ClosedRange<Duration>?
    /// The conditions on the event's fields (`where:`), all of which must hold.
    public var fields: [FieldCondition]
    public var minimum: Int
    public var maximum: Int?
    public var location: SourceLocation
    /// The fields of the first matching event kept as variables for later steps (`capture:`).
    public var captures: [Capture] = []
}

/// A field of an event kept as a variable (`capture: { password: temp }`), which steps after it use
/// as `${temp}`.
public struct Capture: Sendable, Hashable {
    /// The event's field.
    public var field: String
    /// The variable's name.
    public var variable: String
}

/// See ``Expectation/order(_:)``: the first event matching each item (on `device`, within `window`)
/// comes after the first event matching the item before it, in trace order (the order in which
/// they happened, also at one instant).
public struct OrderExpectation: Sendable {
    /// One event of the order: its name and the conditions on its fields.
    public struct Item: Sendable {
        public var name: String
        public var fields: [FieldCondition]

        /// Whether `event` is this item.
        func matches(_ event: TraceEvent, variables: [String: String]) -> Bool {
            event.name == name && fields.allSatisfy { $0.matches(event[$0.key], variables: variables) }
        }

        /// The item in words: `sign-up.succeeded` or `notification.posted (notification=mail)`.
        var text: String {
            fields.isEmpty ? "'\(name)'" : "'\(name)' (\(fields.map(\.description).joined(separator: ", ")))"
        }
    }

    /// The events, in the order they must happen.
    public var items: [Item]
    public var device: String?
    public var window: ClosedRange<Duration>?
    public var location: SourceLocation
}

/// See ``Expectation/position(_:)``.
public struct PositionExpectation: Sendable {
    /// What is probed, as written (`marker`, `map-center` or an event name).
    public var probe: String
    /// The event names whose coordinates give the position.
    public var events: [String]
    public var device: String?
    public var at: Duration
    public var near: GeoCoordinate
    public var radius: Double
    public var location: SourceLocation
}
