import DeviceSimHAL
import DeviceSimRoads

/// What the simulated world is made of: named places, hotspots marked by Wi-Fi access points, and
/// Bluetooth beacons grouped in fences; plus the radio settings that say how far signals carry.
///
/// Worlds are values; ``WorldIndex`` puts one in spatial grids for the radio drivers.
///
/// ```swift
/// let world = World(
///     hotspots: [Hotspot(name: "library", area: .circle(center: library, radius: 40),
///                        accessPoints: [AccessPoint(ssid: "eduroam", bssid: "02:00:00:00:00:01", position: library)])],
///     beacons: [Beacon(id: .iBeacon(uuid: uuid, major: 1, minor: 1), position: desk, fence: "library")])
/// ```
public struct World: Sendable {
    /// The world's name.
    public var name: String
    /// Named places, for scenario files (`at: library`).
    public var places: [String: GeoCoordinate]
    /// The hotspots.
    public var hotspots: [Hotspot]
    /// The beacons.
    public var beacons: [Beacon]
    /// How radio signals travel here.
    public var radio: RadioEnvironment
    /// The roads, from an OpenStreetMap extract (world files' `roads: { osm: file.osm.pbf }`).
    public var roads: RoadNetwork?
    /// The OpenStreetMap extract the roads were read from (nil without roads).
    public var roadsFile: String?

    /// Creates a world.
    public init(name: String = "world", places: [String: GeoCoordinate] = [:], hotspots: [Hotspot] = [], beacons: [Beacon] = [], radio: RadioEnvironment = RadioEnvironment()) {
        self.name = name
        self.places = places
        self.hotspots = hotspots
        self.beacons = beacons
        self.radio = radio
    }

    /// Every access point of every hotspot.
    public var accessPoints: [AccessPoint] { hotspots.flatMap(\.accessPoints) }
}

/// A place where friends meet, marked by Wi-Fi access points; optionally with a beacon fence inside.
public struct Hotspot: Sendable, Hashable {
    /// The hotspot's name.
    public var name: String
    /// The area it covers.
    public var area: HotspotArea
    /// The access points that mark it.
    public var accessPoints: [AccessPoint]
    /// The beacon fence inside it, by name.
    public var fence: String?

    /// Creates a hotspot.
    public init(name: String, area: HotspotArea, accessPoints: [AccessPoint], fence: String? = nil) {
        self.name = name
        self.area = area
        self.accessPoints = accessPoints
        self.fence = fence
    }
}

/// A Wi-Fi access point.
public struct AccessPoint: Sendable, Hashable {
    /// Network name.
    public var ssid: String
    /// MAC address, `aa:bb:cc:dd:ee:ff` (lower case).
    public var bssid: String
    /// Where it stands.
    public var position: GeoCoordinate
    /// Transmit power, dBm (20 dBm is the usual 2.4 GHz maximum).
    public var transmitPower: Double
    /// Channel.
    public var channel: Int

    /// Creates an access point.
    public init(ssid: String, bssid: String, position: GeoCoordinate, transmitPower: Double = 20, channel: Int = 6) {
        self.ssid = ssid
        self.bssid = bssid
        self.position = position
        self.transmitPower = transmitPower
        self.channel = channel
    }
}

/// A Bluetooth beacon.
public struct Beacon: Sendable, Hashable {
    /// Its identity (iBeacon or Eddystone-UID).
    public var id: BeaconIdentifier
    /// Where it is.
    public var position: GeoCoordinate
    /// RSSI measured at 1 m, dBm (iBeacon's "measured power"; -59 is typical).
    public var measuredPower: Double
    /// The fence (region) it belongs to.
    public var fence: String?

    /// Creates a beacon.
    public init(id: BeaconIdentifier, position: GeoCoordinate, measuredPower: Double = -59, fence: String? = nil) {
        self.id = id
        self.position = position
        self.measuredPower = measuredPower
        self.fence = fence
    }
}

/// How radio signals travel in a world: log-distance path loss with Gaussian shadowing (docs/DESIGN.md §5);
/// Wi-Fi shadowing is correlated over the distance moved and the time passed (``shadowingDistance``,
/// ``shadowingTime``); beacon advertisements fluctuate independently and are smoothed by ranging.
public struct RadioEnvironment: Sendable, Hashable {
    /// Wi-Fi path loss at 1 m, dB (40 dB at 2.4 GHz).
    public var wifiReferenceLoss: Double = 40
    /// Wi-Fi path-loss exponent (2.7 indoors, 2.0 line of sight).
    public var wifiExponent: Double = 2.7
    /// Beacon path-loss exponent (also what distance estimates assume).
    public var beaconExponent: Double = 2.0
    /// Shadowing standard deviation, dB.
    public var shadowing: Double = 5
    /// Wi-Fi shadowing decorrelation distance, metres (Gudmundson): two scans this far apart are
    /// correlated by 1/e. 0: every scan draws independent shadowing.
    public var shadowingDistance: Double = 10
    /// Wi-Fi shadowing decorrelation time, seconds: a device standing still sees its fades change on
    /// this scale (people and doors moving). 0: no decorrelation over time (only by moving).
    public var shadowingTime: Double = 1800
    /// The weakest Wi-Fi signal a scan reports, dBm.
    public var wifiSensitivity: Double = -90
    /// The weakest beacon advertisement a phone receives, dBm.
    public var beaconSensitivity: Double = -95

    /// The defaults of docs/DESIGN.md §5.
    public init() {}

    /// Beyond this distance an access point is not computed at all: even shadowing of four standard
    /// deviations (odds about 3 in 100,000) would leave it below the sensitivity.
    public func wifiRange(transmitPower: Double) -> Double {
        RadioModel.distance(atLoss: transmitPower - wifiReferenceLoss - wifiSensitivity + 4 * shadowing, exponent: wifiExponent)
    }

    /// Like ``wifiRange(transmitPower:)``, for beacons.
    public func beaconRange(measuredPower: Double) -> Double {
        RadioModel.distance(atLoss: measuredPower - beaconSensitivity + 4 * shadowing, exponent: beaconExponent)
    }
}
