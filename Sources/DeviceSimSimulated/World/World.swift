import DeviceSimHAL
import DeviceSimRoads
import Foundation

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
    /// The URL an Eddystone beacon also advertises in Eddystone-URL frames (nil: UID frames only).
    public var url: String?
    /// The time between two advertisements (each frame kind in turn): 100 ms by default, what Apple's
    /// iBeacon guidelines recommend; Bluetooth allows ``advertisingIntervals``.
    public var advertisingInterval: Duration

    /// The advertising intervals Bluetooth allows (Core Specification, advertising events: 20 ms to 10.24 s).
    public static let advertisingIntervals: ClosedRange<Duration> = .milliseconds(20) ... .milliseconds(10_240)

    /// Creates a beacon.
    public init(
        id: BeaconIdentifier, position: GeoCoordinate, measuredPower: Double = -59, fence: String? = nil, url: String? = nil,
        advertisingInterval: Duration = .milliseconds(100)
    ) {
        self.id = id
        self.position = position
        self.measuredPower = measuredPower
        self.fence = fence
        self.url = url
        self.advertisingInterval = advertisingInterval
    }
}

/// How radio signals travel in a world: log-distance path loss (docs/DESIGN.md §5, calibrated in
/// docs/radios.md). Wi-Fi shadowing is Gaussian and correlated over the distance moved and the time
/// passed (``shadowing``, ``shadowingDistance``, ``shadowingTime``), clipped at twice its standard
/// deviation; each beacon advertisement's RSSI spreads around its mean independently (``beaconFading``),
/// clipped at twice that spread. So an access point is never heard beyond ``wifiRange(transmitPower:)``
/// and a beacon never beyond ``beaconRange(measuredPower:)``; ranging smooths the beacon samples.
///
/// The defaults are indoors, ITU-R P.1238's office at 2.4 GHz (distance power loss coefficient N = 30,
/// exponent 3.0, 40 dB at 1 m) for both radios, a phone's BLE receiver sensitivity of -100 dBm and Wi-Fi
/// scan sensitivity of -90 dBm: a default beacon (-59 dBm at 1 m) is heard on average out to 23 m and
/// never beyond 37 m, inside the 53 m at which Android Beacon Library's curve fitted to measured RSSI
/// reaches -100 dBm; a default access point (20 dBm EIRP) is heard on average out to 215 m and never
/// beyond 464 m. Outdoors, line of sight at street level is free space up to a breakpoint and loses
/// 40 dB a decade beyond it (``wifiBreakpoint``, the two-ray model).
///
/// ```swift
/// var radio = RadioEnvironment()
/// radio.beaconExponent = 2.3   // open space: Android Beacon Library's fitted curve
/// radio.beaconRange(measuredPower: -59)  // about 110 m: the farthest any sample is heard
/// radio.wifiExponent = 2.0; radio.wifiBreakpoint = 150  // street level, line of sight
/// radio.wifiRange(transmitPower: 20)  // about 1.2 km: the farthest any scan shows it
/// ```
public struct RadioEnvironment: Sendable, Hashable {
    /// Wi-Fi path loss at 1 m, dB (40 dB at 2.4 GHz; ITU-R P.1238: 20 log10(2400) - 28 = 39.6).
    public var wifiReferenceLoss: Double = 40
    /// Wi-Fi path-loss exponent: 3.0, ITU-R P.1238's office at 2.4 GHz (N = 30; 28 residential); 2.0
    /// line of sight (free space, up to ``wifiBreakpoint`` when one is set).
    public var wifiExponent: Double = 3.0
    /// Where a line-of-sight Wi-Fi path stops losing ``wifiExponent`` and starts losing 40 dB a decade,
    /// metres (the two-ray model's breakpoint `4 h1 h2 / wavelength`: about 150 m at 2.4 GHz between an
    /// access point at 3 m and a phone at 1.5 m). 0: no breakpoint, one exponent all the way (indoors).
    public var wifiBreakpoint: Double = 0
    /// Beacon path-loss exponent (also what distance estimates assume): 3.0, ITU-R P.1238's office at
    /// 2.4 GHz; 2.3 fits Android Beacon Library's measured curve in open space.
    public var beaconExponent: Double = 3.0
    /// Wi-Fi shadowing standard deviation, dB; each scan's deviation is clipped at twice this
    /// (``wifiShadowingBound``).
    public var shadowing: Double = 5
    /// Wi-Fi shadowing decorrelation distance, metres (Gudmundson): two scans this far apart are
    /// correlated by 1/e. 0: every scan draws independent shadowing.
    public var shadowingDistance: Double = 10
    /// Wi-Fi shadowing decorrelation time, seconds: a device standing still sees its fades change on
    /// this scale (people and doors moving). 0: no decorrelation over time (only by moving).
    public var shadowingTime: Double = 1800
    /// The weakest Wi-Fi signal a scan reports, dBm (about -90: a phone's receiver at the lowest
    /// 2.4 GHz rate, through its antenna).
    public var wifiSensitivity: Double = -90
    /// The weakest beacon advertisement a phone receives, dBm (about -100 for a phone's BLE receiver).
    public var beaconSensitivity: Double = -100
    /// The standard deviation of one beacon advertisement's RSSI around the mean at its distance, dB
    /// (multipath and the three advertising channels); each sample's deviation is clipped at twice this.
    public var beaconFading: Double = 3

    /// The defaults of docs/radios.md.
    public init() {}

    /// The most a beacon advertisement's RSSI lies above its mean, dB: twice ``beaconFading``.
    public var beaconFadingBound: Double { 2 * beaconFading }

    /// The most a scan's Wi-Fi shadowing lies above or below the mean, dB: twice ``shadowing``.
    public var wifiShadowingBound: Double { 2 * shadowing }

    /// The farthest an access point of `transmitPower` (dBm EIRP) is ever heard: where its mean RSSI
    /// plus the largest shadowing (``wifiShadowingBound``) meets the sensitivity. Beyond it the
    /// access point is not computed at all.
    public func wifiRange(transmitPower: Double) -> Double {
        wifiDistance(atLoss: transmitPower - wifiSensitivity + wifiShadowingBound)
    }

    /// The distance at which an access point of `transmitPower` is heard on average: where its mean
    /// RSSI meets the sensitivity.
    public func wifiMeanRange(transmitPower: Double) -> Double {
        wifiDistance(atLoss: transmitPower - wifiSensitivity)
    }

    /// The mean Wi-Fi path loss at `distance` metres, dB (distances under 1 m count as 1 m).
    public func wifiPathLoss(distance: Double) -> Double {
        let metres = max(distance, 1)
        guard wifiBreakpoint > 1, metres > wifiBreakpoint else { return wifiReferenceLoss + 10 * wifiExponent * log10(metres) }
        return wifiReferenceLoss + 10 * wifiExponent * log10(wifiBreakpoint) + 40 * log10(metres / wifiBreakpoint)
    }

    /// The distance at which the mean Wi-Fi path loss reaches `loss` dB (the inverse of ``wifiPathLoss(distance:)``).
    public func wifiDistance(atLoss loss: Double) -> Double {
        let beyondReference = loss - wifiReferenceLoss
        let single = RadioModel.distance(atLoss: beyondReference, exponent: wifiExponent)
        guard wifiBreakpoint > 1, single > wifiBreakpoint else { return max(single, 1) }
        let atBreakpoint = 10 * wifiExponent * log10(wifiBreakpoint)
        return wifiBreakpoint * RadioModel.distance(atLoss: beyondReference - atBreakpoint, exponent: 4)
    }

    /// The farthest a beacon of `measuredPower` is ever heard: where its mean RSSI plus the largest
    /// fade (``beaconFadingBound``) meets the sensitivity.
    public func beaconRange(measuredPower: Double) -> Double {
        RadioModel.distance(atLoss: measuredPower - beaconSensitivity + beaconFadingBound, exponent: beaconExponent)
    }

    /// The distance at which a beacon of `measuredPower` is heard on average: where its mean RSSI meets
    /// the sensitivity.
    public func beaconMeanRange(measuredPower: Double) -> Double {
        RadioModel.distance(atLoss: measuredPower - beaconSensitivity, exponent: beaconExponent)
    }
}
