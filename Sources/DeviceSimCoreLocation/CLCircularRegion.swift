import Foundation

/// A circle on the Earth's surface to monitor.
///
/// ```swift
/// let cafe = CLCircularRegion(center: CLLocationCoordinate2D(latitude: 52.5145, longitude: 13.3501), radius: 100, identifier: "cafe")
/// manager.startMonitoring(for: cafe)
/// ```
open class CLCircularRegion: CLRegion, @unchecked Sendable {
    /// The centre.
    public let center: CLLocationCoordinate2D
    /// The radius in metres (as given: an invalid one fails when monitored, as on iOS).
    public let radius: CLLocationDistance

    /// A circle of `radius` metres around `center`.
    public init(center: CLLocationCoordinate2D, radius: CLLocationDistance, identifier: String) {
        self.center = center
        self.radius = radius
        super.init(identifier: identifier)
    }

    /// Whether `coordinate` is inside the circle (on its boundary counts).
    public func contains(_ coordinate: CLLocationCoordinate2D) -> Bool {
        coordinate.geo.distance(to: center.geo) <= radius
    }

    open override var description: String {
        "CLCircularRegion (identifier:'\(identifier)', center:<\(center.latitude),\(center.longitude)>, radius:\(radius))"
    }
}
