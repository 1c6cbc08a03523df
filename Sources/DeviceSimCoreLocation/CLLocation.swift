import DeviceSimHAL
import Foundation

/// A position with its accuracy, altitude, speed, course and time, as CoreLocation reports it.
///
/// ```swift
/// let here = CLLocation(latitude: 52.5145, longitude: 13.3501)
/// let there = CLLocation(latitude: 52.5163, longitude: 13.3777)
/// here.distance(from: there)   // ≈ 1,880 m
/// ```
open class CLLocation: NSObject, @unchecked Sendable {
    /// The position.
    public let coordinate: CLLocationCoordinate2D
    /// Metres above mean sea level.
    public let altitude: CLLocationDistance
    /// Metres above the WGS 84 ellipsoid (the same as ``altitude`` here: DeviceSim keeps one altitude).
    public let ellipsoidalAltitude: CLLocationDistance
    /// The radius of uncertainty of ``coordinate`` in metres; negative when the coordinate is invalid.
    public let horizontalAccuracy: CLLocationAccuracy
    /// The uncertainty of ``altitude`` in metres; negative when the altitude is invalid.
    public let verticalAccuracy: CLLocationAccuracy
    /// Degrees from true north; negative when unknown.
    public let course: CLLocationDirection
    /// The accuracy of ``course`` in degrees; negative when unknown.
    public let courseAccuracy: CLLocationDirectionAccuracy
    /// Metres per second; negative when unknown.
    public let speed: CLLocationSpeed
    /// The accuracy of ``speed``; negative when unknown.
    public let speedAccuracy: CLLocationSpeedAccuracy
    /// When the location was determined.
    public let timestamp: Date

    /// A location at `latitude`, `longitude`, now (the current device's virtual time; the process's
    /// clock on no device), with no altitude.
    public init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
        coordinate = CLLocationCoordinate2D(latitude: latitude, longitude: longitude)
        altitude = 0
        ellipsoidalAltitude = 0
        horizontalAccuracy = 0
        verticalAccuracy = -1
        course = -1
        courseAccuracy = -1
        speed = -1
        speedAccuracy = -1
        timestamp = DeviceContext.current.map { $0.civilClock.date(of: $0.now) } ?? Date()
    }

    /// A location with accuracies and a time.
    public convenience init(
        coordinate: CLLocationCoordinate2D, altitude: CLLocationDistance, horizontalAccuracy hAccuracy: CLLocationAccuracy,
        verticalAccuracy vAccuracy: CLLocationAccuracy, timestamp: Date
    ) {
        self.init(
            coordinate: coordinate, altitude: altitude, horizontalAccuracy: hAccuracy, verticalAccuracy: vAccuracy,
            course: -1, courseAccuracy: -1, speed: -1, speedAccuracy: -1, timestamp: timestamp)
    }

    /// A location with accuracies, course, speed and a time.
    public convenience init(
        coordinate: CLLocationCoordinate2D, altitude: CLLocationDistance, horizontalAccuracy hAccuracy: CLLocationAccuracy,
        verticalAccuracy vAccuracy: CLLocationAccuracy, course: CLLocationDirection, speed: CLLocationSpeed, timestamp: Date
    ) {
        self.init(
            coordinate: coordinate, altitude: altitude, horizontalAccuracy: hAccuracy, verticalAccuracy: vAccuracy,
            course: course, courseAccuracy: -1, speed: speed, speedAccuracy: -1, timestamp: timestamp)
    }

    /// A location with every accuracy.
    public init(
        coordinate: CLLocationCoordinate2D, altitude: CLLocationDistance, horizontalAccuracy hAccuracy: CLLocationAccuracy,
        verticalAccuracy vAccuracy: CLLocationAccuracy, course: CLLocationDirection, courseAccuracy: CLLocationDirectionAccuracy,
        speed: CLLocationSpeed, speedAccuracy: CLLocationSpeedAccuracy, timestamp: Date
    ) {
        self.coordinate = coordinate
        self.altitude = altitude
        ellipsoidalAltitude = altitude
        horizontalAccuracy = hAccuracy
        verticalAccuracy = vAccuracy
        self.course = course
        self.courseAccuracy = courseAccuracy
        self.speed = speed
        self.speedAccuracy = speedAccuracy
        self.timestamp = timestamp
    }

    /// The distance in metres to `location` along the Earth's surface (altitude ignored).
    public func distance(from location: CLLocation) -> CLLocationDistance {
        coordinate.geo.distance(to: location.coordinate.geo)
    }

    /// The location of a HAL fix, timed by the device's civil clock.
    convenience init(fix: LocationFix, on device: Device) {
        self.init(
            coordinate: CLLocationCoordinate2D(fix.coordinate), altitude: fix.altitude ?? 0,
            horizontalAccuracy: fix.horizontalAccuracy ?? 5, verticalAccuracy: fix.altitude == nil ? -1 : (fix.verticalAccuracy ?? 10),
            course: fix.course ?? -1, courseAccuracy: fix.course == nil ? -1 : 5,
            speed: fix.speed ?? -1, speedAccuracy: fix.speed == nil ? -1 : 0.5,
            timestamp: device.civilClock.date(of: fix.receivedAt))
    }

    open override var description: String {
        "<\(coordinate.latitude),\(coordinate.longitude)> +/- \(horizontalAccuracy)m @ \(timestamp)"
    }
}
