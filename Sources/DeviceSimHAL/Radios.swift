import DeviceSimClock

/// One access point as a Wi-Fi scan reports it.
public struct WiFiScanResult: Sendable, Hashable {
    /// Network name.
    public var ssid: String
    /// Access point MAC address, `aa:bb:cc:dd:ee:ff`.
    public var bssid: String
    /// Received signal strength in dBm.
    public var rssi: Double
    /// Channel number.
    public var channel: Int?

    /// Creates a scan result.
    public init(ssid: String, bssid: String, rssi: Double, channel: Int? = nil) {
        self.ssid = ssid
        self.bssid = bssid
        self.rssi = rssi
        self.channel = channel
    }

    /// Android's signal level, 0...4 bars, from -100 dBm (0) to -55 dBm (4).
    public var signalLevel: Int {
        if rssi <= -100 { return 0 }
        if rssi >= -55 { return 4 }
        return Int((rssi + 100) * 4 / 45)
    }
}

/// One delivered Wi-Fi scan: its results, when the radio measured them, and whether they are new.
///
/// Like Android's `SCAN_RESULTS_AVAILABLE_ACTION` with `EXTRA_RESULTS_UPDATED`: a throttled scan request
/// delivers the previous results again with ``resultsUpdated`` false and the old ``measuredAt``; such a
/// repeat is not a new observation.
///
/// ```swift
/// for await scan in device.wifiScans() where scan.resultsUpdated { presence.update(with: scan) }
/// ```
public struct WiFiScan: Sendable, Hashable {
    /// The access points seen, strongest first.
    public var results: [WiFiScanResult]
    /// When the radio measured them (nil: never, e.g. the radio was switched off).
    public var measuredAt: VirtualInstant?
    /// False when the platform repeated earlier results (a throttled request, or the radio going off).
    public var resultsUpdated: Bool

    /// Creates a delivered scan.
    public init(results: [WiFiScanResult], measuredAt: VirtualInstant?, resultsUpdated: Bool = true) {
        self.results = results
        self.measuredAt = measuredAt
        self.resultsUpdated = resultsUpdated
    }
}

/// The device's Wi-Fi radio: on/off and scans.
public protocol WiFiRadio: AnyObject {
    /// Whether the radio is on.
    var isEnabled: Bool { get set }
    /// The latest scan results (empty while off).
    var lastScan: [WiFiScanResult] { get }
    /// Observes every delivered scan (periodic scans, and the results of ``requestScan()``; a throttled
    /// request delivers the previous results with ``WiFiScan/resultsUpdated`` false).
    func observeScans(_ observer: @escaping (WiFiScan) -> Void) -> ObservationToken
    /// Asks for a scan now. Like Android, the platform may throttle it: a throttled request delivers the
    /// previous results again, marked as not updated. Returns false when the request was throttled or
    /// the radio is off.
    @discardableResult
    func requestScan() -> Bool
}

/// A Bluetooth beacon's identity: iBeacon (UUID, major, minor) or Eddystone-UID (namespace, instance).
public enum BeaconIdentifier: Sendable, Hashable, CustomStringConvertible {
    case iBeacon(uuid: String, major: UInt16, minor: UInt16)
    case eddystone(namespace: String, instance: String)

    public var description: String {
        switch self {
        case .iBeacon(let uuid, let major, let minor): "\(uuid):\(major):\(minor)"
        case .eddystone(let namespace, let instance): "\(namespace):\(instance)"
        }
    }
}

/// How near a ranged beacon is, by CoreLocation's and AltBeacon's classes.
public enum BeaconProximity: String, Sendable, Hashable {
    case unknown, immediate, near, far
}

/// One ranged beacon in a ranging report.
public struct BeaconSighting: Sendable, Hashable {
    /// The beacon.
    public var beacon: BeaconIdentifier
    /// Smoothed RSSI in dBm.
    public var rssi: Double
    /// Estimated distance in metres.
    public var estimatedDistance: Double
    /// Proximity class.
    public var proximity: BeaconProximity

    /// Creates a sighting.
    public init(beacon: BeaconIdentifier, rssi: Double, estimatedDistance: Double, proximity: BeaconProximity) {
        self.beacon = beacon
        self.rssi = rssi
        self.estimatedDistance = estimatedDistance
        self.proximity = proximity
    }
}

/// A beacon fence (a monitored region: the beacons of one place) entered or left.
public struct BeaconFenceEvent: Sendable, Hashable {
    /// The fence's name.
    public var fence: String
    /// True when entered, false when left.
    public var entered: Bool
    /// On entering: the beacon whose advertisement was heard first, and the RSSI heard (dBm), so an
    /// entry caused by a fade shows as a weak RSSI in the trace. Nil on leaving.
    public var beacon: BeaconIdentifier?
    /// See ``beacon``.
    public var rssi: Double?

    /// Creates a fence event.
    public init(fence: String, entered: Bool, beacon: BeaconIdentifier? = nil, rssi: Double? = nil) {
        self.fence = fence
        self.entered = entered
        self.beacon = beacon
        self.rssi = rssi
    }
}

/// The device's Bluetooth beacon ranging and monitoring.
public protocol BeaconRanging: AnyObject {
    /// Whether Bluetooth is on.
    var isEnabled: Bool { get set }
    /// Observes every ranging report (one a second while Bluetooth is on).
    func observeRanging(_ observer: @escaping ([BeaconSighting]) -> Void) -> ObservationToken
    /// Observes beacon fences being entered (a beacon of the fence seen) and left (none seen for the
    /// exit delay, 10 s by default, or Bluetooth switched off).
    func observeFences(_ observer: @escaping (BeaconFenceEvent) -> Void) -> ObservationToken
}

/// Whether the device can reach the network.
public enum ConnectivityState: String, Sendable, Hashable {
    case online, offline
}

/// The kind of network interface that carries the device's connection.
public enum NetworkInterfaceKind: String, Sendable, Hashable, CaseIterable {
    /// A Wi-Fi network (not expensive).
    case wifi
    /// The cellular network (expensive, as iOS counts it).
    case cellular
}

/// The device's network connectivity: whether it is online, and which interface carries the
/// connection (Wi-Fi or cellular).
///
/// ```swift
/// subscription = connectivity.observeInterface { interface in
///     banner = interface == nil ? "Offline" : (interface == .cellular ? "On cellular" : "On Wi-Fi")
/// }
/// ```
public protocol ConnectivityMonitor: AnyObject {
    /// The current state.
    var state: ConnectivityState { get }
    /// Observes changes of ``state``.
    func observe(_ observer: @escaping (ConnectivityState) -> Void) -> ObservationToken
    /// The interface carrying the connection now (nil while offline).
    var interface: NetworkInterfaceKind? { get }
    /// Observes changes of ``interface`` (going offline, online, or from Wi-Fi to cellular and back).
    func observeInterface(_ observer: @escaping (NetworkInterfaceKind?) -> Void) -> ObservationToken
}

extension ConnectivityMonitor {
    /// For a monitor that knows only online and offline: Wi-Fi while online.
    public var interface: NetworkInterfaceKind? { state == .online ? .wifi : nil }

    /// For a monitor that knows only online and offline: follows ``state``.
    public func observeInterface(_ observer: @escaping (NetworkInterfaceKind?) -> Void) -> ObservationToken {
        observe { state in observer(state == .online ? .wifi : nil) }
    }
}

/// A notification or prompt shown to the user, with the choices offered.
public struct UserPrompt: Sendable, Hashable {
    /// Identifies the prompt in scenarios and traces (`hotspot.entered`, `locate.precisely`).
    public var id: String
    /// The text shown.
    public var message: String
    /// The answers offered.
    public var choices: [String]

    /// Creates a prompt.
    public init(id: String, message: String, choices: [String]) {
        self.id = id
        self.message = message
        self.choices = choices
    }
}

/// Takes back a prompt that is still showing (its question no longer applies); does nothing once the
/// prompt was answered, timed out or withdrawn.
public struct PromptWithdrawal {
    private let action: () -> Void

    /// Creates a withdrawal that runs `action`.
    public init(_ action: @escaping () -> Void) {
        self.action = action
    }

    /// Withdraws the prompt: it disappears, and `answer` is not called.
    public func withdraw() { action() }
}

/// Notifications and prompts: the app asks, the user (a scenario, or a person in live mode) answers.
public protocol NotificationPresenting: AnyObject {
    /// Shows `prompt`; `answer` is called once with the chosen answer, or nil if it times out
    /// unanswered. The result takes the prompt back while it is still showing.
    @discardableResult
    func ask(_ prompt: UserPrompt, timeout: Duration?, answer: @escaping (String?) -> Void) -> PromptWithdrawal
    /// Posts a notification that needs no answer.
    func notify(id: String, message: String)
}
