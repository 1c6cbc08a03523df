import Foundation

/// Which iBeacons to range: a UUID, optionally a major and a minor (iOS 13).
///
/// ```swift
/// manager.startRangingBeacons(satisfying: CLBeaconIdentityConstraint(uuid: storeUUID, major: 7))
/// ```
open class CLBeaconIdentityConstraint: NSObject, @unchecked Sendable {
    /// The beacons' proximity UUID.
    public let uuid: UUID
    /// The major value, or nil for any.
    public let major: CLBeaconMajorValue?
    /// The minor value, or nil for any.
    public let minor: CLBeaconMinorValue?

    /// Every beacon with `uuid`.
    public convenience init(uuid: UUID) {
        self.init(uuid: uuid, major: nil, minor: nil)
    }

    /// Every beacon with `uuid` and `major`.
    public convenience init(uuid: UUID, major: CLBeaconMajorValue) {
        self.init(uuid: uuid, major: major, minor: nil)
    }

    /// The beacon with `uuid`, `major` and `minor`.
    public convenience init(uuid: UUID, major: CLBeaconMajorValue, minor: CLBeaconMinorValue) {
        self.init(uuid: uuid, major: Optional(major), minor: Optional(minor))
    }

    init(uuid: UUID, major: CLBeaconMajorValue?, minor: CLBeaconMinorValue?) {
        self.uuid = uuid
        self.major = major
        self.minor = minor
    }

    /// Whether a beacon of this identity matches.
    func matches(uuid: UUID, major: CLBeaconMajorValue, minor: CLBeaconMinorValue) -> Bool {
        uuid == self.uuid && (self.major == nil || self.major == major) && (self.minor == nil || self.minor == minor)
    }

    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CLBeaconIdentityConstraint else { return false }
        return other.uuid == uuid && other.major == major && other.minor == minor
    }

    open override var hash: Int {
        var hasher = Hasher()
        hasher.combine(uuid)
        hasher.combine(major)
        hasher.combine(minor)
        return hasher.finalize()
    }

    open override var description: String {
        "CLBeaconIdentityConstraint (uuid:\(uuid.uuidString)" + (major.map { ", major:\($0)" } ?? "") + (minor.map { ", minor:\($0)" } ?? "") + ")"
    }
}
