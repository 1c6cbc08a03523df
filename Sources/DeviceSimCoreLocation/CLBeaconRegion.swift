import Foundation

/// A region defined by nearby iBeacons: inside while a beacon of its identity is heard.
///
/// ```swift
/// let store = CLBeaconRegion(uuid: storeUUID, major: 7, identifier: "store-7")
/// manager.startMonitoring(for: store)
/// ```
open class CLBeaconRegion: CLRegion, @unchecked Sendable {
    /// The identity the region's beacons match.
    public let beaconIdentityConstraint: CLBeaconIdentityConstraint
    /// Whether the app is told the state when the screen comes on (stored; DeviceSim has no screen).
    open var notifyEntryStateOnDisplay = false

    /// Beacons with `uuid`.
    public convenience init(uuid: UUID, identifier: String) {
        self.init(beaconIdentityConstraint: CLBeaconIdentityConstraint(uuid: uuid), identifier: identifier)
    }

    /// Beacons with `uuid` and `major`.
    public convenience init(uuid: UUID, major: CLBeaconMajorValue, identifier: String) {
        self.init(beaconIdentityConstraint: CLBeaconIdentityConstraint(uuid: uuid, major: major), identifier: identifier)
    }

    /// The beacon with `uuid`, `major` and `minor`.
    public convenience init(uuid: UUID, major: CLBeaconMajorValue, minor: CLBeaconMinorValue, identifier: String) {
        self.init(beaconIdentityConstraint: CLBeaconIdentityConstraint(uuid: uuid, major: major, minor: minor), identifier: identifier)
    }

    /// Beacons of `beaconIdentityConstraint`.
    public init(beaconIdentityConstraint: CLBeaconIdentityConstraint, identifier: String) {
        self.beaconIdentityConstraint = beaconIdentityConstraint
        super.init(identifier: identifier)
    }

    /// The proximity UUID.
    public var uuid: UUID { beaconIdentityConstraint.uuid }
    /// The major value, or nil for any.
    public var major: NSNumber? { beaconIdentityConstraint.major.map { NSNumber(value: $0) } }
    /// The minor value, or nil for any.
    public var minor: NSNumber? { beaconIdentityConstraint.minor.map { NSNumber(value: $0) } }
}
