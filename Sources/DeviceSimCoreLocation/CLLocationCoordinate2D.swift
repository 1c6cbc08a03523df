import DeviceSimHAL

/// A latitude and longitude in degrees (WGS 84), as CLLocation.h's C struct imports into Swift.
///
/// Like Apple's, it is not `Equatable`: compare its fields.
///
/// ```swift
/// let cafe = CLLocationCoordinate2D(latitude: 52.5145, longitude: 13.3501)
/// ```
public struct CLLocationCoordinate2D: Sendable {
    /// The latitude in degrees.
    public var latitude: CLLocationDegrees
    /// The longitude in degrees.
    public var longitude: CLLocationDegrees

    /// The coordinate (0, 0).
    public init() {
        latitude = 0
        longitude = 0
    }

    /// A coordinate.
    public init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// The HAL's coordinate.
    var geo: GeoCoordinate { GeoCoordinate(latitude: latitude, longitude: longitude) }

    init(_ geo: GeoCoordinate) {
        self.init(latitude: geo.latitude, longitude: geo.longitude)
    }
}
