import DeviceSimHAL
import Foundation

/// One iBeacon as a ranging report gives it.
///
/// ```swift
/// for beacon in beacons where beacon.proximity == .immediate { checkIn(beacon.major.intValue) }
/// ```
open class CLBeacon: NSObject, @unchecked Sendable {
    /// When the beacon was observed.
    public let timestamp: Date
    /// The proximity UUID.
    public let uuid: UUID
    /// The major value.
    public let major: NSNumber
    /// The minor value.
    public let minor: NSNumber
    /// How near it is.
    public let proximity: CLProximity
    /// One-sigma distance estimate in metres; negative when the proximity is unknown.
    public let accuracy: CLLocationAccuracy
    /// The averaged signal strength in dBm (0 when unknown).
    public let rssi: Int

    init(uuid: UUID, major: CLBeaconMajorValue, minor: CLBeaconMinorValue, sighting: BeaconSighting, timestamp: Date) {
        self.uuid = uuid
        self.major = NSNumber(value: major)
        self.minor = NSNumber(value: minor)
        self.timestamp = timestamp
        proximity = switch sighting.proximity {
        case .unknown: .unknown
        case .immediate: .immediate
        case .near: .near
        case .far: .far
        }
        let known = proximity != .unknown && sighting.estimatedDistance.isFinite && sighting.estimatedDistance >= 0
        accuracy = known ? sighting.estimatedDistance : -1
        rssi = known && sighting.rssi.isFinite ? Int(sighting.rssi.rounded()) : 0
    }

    open override var description: String {
        "CLBeacon (uuid:\(uuid.uuidString), major:\(major), minor:\(minor), proximity:\(proximity.rawValue) +/- \(accuracy)m, rssi:\(rssi))"
    }
}
