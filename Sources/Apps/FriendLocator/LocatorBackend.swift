import DeviceSimHAL
import DeviceSimServer

/// A hotspot as the friend-locator backend describes it to apps: the access points that mark it (seen
/// in Wi-Fi scans) and the beacons of its fence (ranged over Bluetooth).
public struct HotspotInfo: Sendable, Hashable {
    /// The hotspot's name (`library`, `mensa`).
    public var name: String
    /// Where it is (its centre).
    public var center: GeoCoordinate
    /// The ground it covers, when known: with a location fix, the app checks it (see
    /// ``HotspotPresenceDetector`` in DeviceSimFlows).
    public var area: HotspotArea?
    /// BSSIDs of the access points that mark it.
    public var accessPoints: Set<String>
    /// The name of its beacon fence, if it has one.
    public var fence: String?
    /// The beacons of its fence, with their positions (where a device ranging them is).
    public var beacons: [BeaconIdentifier: GeoCoordinate]

    /// Creates a hotspot description.
    public init(
        name: String, center: GeoCoordinate, area: HotspotArea? = nil, accessPoints: Set<String>, fence: String? = nil,
        beacons: [BeaconIdentifier: GeoCoordinate] = [:]
    ) {
        self.name = name
        self.center = center
        self.area = area
        self.accessPoints = accessPoints
        self.fence = fence
        self.beacons = beacons
    }
}

/// How precisely a user's location is known.
public enum LocationPrecision: String, Sendable, Hashable, CaseIterable {
    /// Somewhere in a hotspot (from Wi-Fi).
    case hotspot
    /// At a beacon (from Bluetooth ranging).
    case beacon
    /// Pinned by hand on the map.
    case manual
}

/// A user's last location as the backend keeps it.
public struct SharedLocation: Sendable, Hashable {
    /// The user.
    public var account: String
    /// The hotspot the user is in (nil when outside every hotspot).
    public var hotspot: String?
    /// A precise position, when known.
    public var coordinate: GeoCoordinate?
    /// How precise it is.
    public var precision: LocationPrecision

    /// Creates a location record.
    public init(account: String, hotspot: String?, coordinate: GeoCoordinate?, precision: LocationPrecision) {
        self.account = account
        self.hotspot = hotspot
        self.coordinate = coordinate
        self.precision = precision
    }
}

/// A ping as it reaches a recipient.
public struct PingNotice: Sendable, Hashable {
    /// Who pinged.
    public var from: String
    /// The group it went to.
    public var group: String
    /// Where the sender is.
    public var location: SharedLocation

    /// Creates a ping notice.
    public init(from: String, group: String, location: SharedLocation) {
        self.from = from
        self.group = group
        self.location = location
    }
}

/// The friend-locator app's server, as the app sees it (shared/seeds/friend-locator.md): hotspots,
/// friends and groups, pings, last locations and the "quit" signal.
///
/// DeviceSim's `FriendLocatorServer` implements it in virtual time; a future HTTP adapter would talk to a
/// real server. Every call may fail with a ``BackendError``.
///
/// ```swift
/// let recipients = try await backend.ping(from: "alice", group: "friends", location: here)
/// ```
public protocol LocatorBackend: AnyObject {
    /// Signs a new user up through the federation provider (Keycloak) with their university e-mail
    /// address; returns their account.
    func signUp(email: String) async throws(BackendError) -> String
    /// The hotspots apps detect.
    func hotspots() async throws(BackendError) -> [HotspotInfo]
    /// Whether `account` shares their location (false when the user turned it off): when it does not,
    /// the app sends nothing of the location.
    func isSharing(_ account: String) async throws(BackendError) -> Bool
    /// The names of `account`'s friend groups (the default group `friends` first).
    func groups(of account: String) async throws(BackendError) -> [String]
    /// Adds the user with `email` to `account`'s default friends group; returns the friend's account.
    func addFriend(email: String, to account: String) async throws(BackendError) -> String
    /// Pings every member of `account`'s `group` that `account` is at `location`; returns the recipients.
    /// Refused with ``BackendError/locationOff(_:)`` when `account` does not share their location. A
    /// `requestID` the server has answered before (a retry after a lost reply) gets the same answer
    /// and notifies nobody again.
    func ping(from account: String, group: String, location: SharedLocation, requestID: String?) async throws(BackendError) -> [String]
    /// Stores `account`'s last location; a `requestID` applied before is not applied again.
    func updateLocation(_ location: SharedLocation, requestID: String?) async throws(BackendError)
    /// `account`'s friends who are in a hotspot, share their location, and list `account` among their own
    /// friends (the located user's friends list decides who sees her).
    func friendsInArea(of account: String) async throws(BackendError) -> [SharedLocation]
    /// The "quit" signal: deletes `account`'s last location and denies further location requests.
    func quit(_ account: String) async throws(BackendError)
    /// Delivers the pings sent to `account` (a push notification service).
    func observePings(to account: String, _ observer: @escaping (PingNotice) -> Void) -> ObservationToken
}

extension LocatorBackend {
    /// A ping as a request of its own (no request id).
    public func ping(from account: String, group: String, location: SharedLocation) async throws(BackendError) -> [String] {
        try await ping(from: account, group: group, location: location, requestID: nil)
    }

    /// A location update as a request of its own (no request id).
    public func updateLocation(_ location: SharedLocation) async throws(BackendError) {
        try await updateLocation(location, requestID: nil)
    }
}
