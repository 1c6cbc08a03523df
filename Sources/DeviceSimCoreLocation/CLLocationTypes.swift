import Foundation

// The scalar types and constants of CLLocation.h, as Swift imports them.

/// A latitude or longitude in degrees (WGS 84): positive north and east. (`typedef double CLLocationDegrees`)
public typealias CLLocationDegrees = Double
/// An accuracy in metres; negative means invalid. (`typedef double CLLocationAccuracy`)
public typealias CLLocationAccuracy = Double
/// A speed in metres per second. (`typedef double CLLocationSpeed`)
public typealias CLLocationSpeed = Double
/// The accuracy of a speed in metres per second. (`typedef double CLLocationSpeedAccuracy`)
public typealias CLLocationSpeedAccuracy = Double
/// A direction in degrees from true north, 0...359.9; negative means invalid. (`typedef double CLLocationDirection`)
public typealias CLLocationDirection = Double
/// The accuracy of a direction in degrees. (`typedef double CLLocationDirectionAccuracy`)
public typealias CLLocationDirectionAccuracy = Double
/// A distance in metres. (`typedef double CLLocationDistance`)
public typealias CLLocationDistance = Double
/// An iBeacon's major value. (`typedef uint16_t CLBeaconMajorValue`)
public typealias CLBeaconMajorValue = UInt16
/// An iBeacon's minor value. (`typedef uint16_t CLBeaconMinorValue`)
public typealias CLBeaconMinorValue = UInt16

/// No minimum movement between updates: every location is delivered (`distanceFilter`'s default).
public let kCLDistanceFilterNone: CLLocationDistance = -1
/// The highest accuracy, for navigation (`desiredAccuracy`).
public let kCLLocationAccuracyBestForNavigation: CLLocationAccuracy = -2
/// The best accuracy available (`desiredAccuracy`'s default).
public let kCLLocationAccuracyBest: CLLocationAccuracy = -1
/// Accurate to within ten metres.
public let kCLLocationAccuracyNearestTenMeters: CLLocationAccuracy = 10
/// Accurate to within one hundred metres.
public let kCLLocationAccuracyHundredMeters: CLLocationAccuracy = 100
/// Accurate to the nearest kilometre.
public let kCLLocationAccuracyKilometer: CLLocationAccuracy = 1000
/// Accurate to the nearest three kilometres.
public let kCLLocationAccuracyThreeKilometers: CLLocationAccuracy = 3000
/// The accuracy an app without precise location gets (iOS 14).
public let kCLLocationAccuracyReduced: CLLocationAccuracy = 3000
/// The largest distance.
public let CLLocationDistanceMax: CLLocationDistance = .greatestFiniteMagnitude
/// The largest time interval.
public let CLTimeIntervalMax: TimeInterval = .greatestFiniteMagnitude
/// An invalid coordinate.
public let kCLLocationCoordinate2DInvalid = CLLocationCoordinate2D(latitude: -180, longitude: -180)
/// The domain of CoreLocation's errors.
public let kCLErrorDomain = "kCLErrorDomain"

/// Whether `coord` is a valid coordinate (latitude -90...90, longitude -180...180).
///
/// ```swift
/// CLLocationCoordinate2DIsValid(CLLocationCoordinate2D(latitude: 91, longitude: 0))   // false
/// ```
public func CLLocationCoordinate2DIsValid(_ coord: CLLocationCoordinate2D) -> Bool {
    coord.latitude.isFinite && coord.longitude.isFinite && abs(coord.latitude) <= 90 && abs(coord.longitude) <= 180
}

/// Makes a coordinate.
public func CLLocationCoordinate2DMake(_ latitude: CLLocationDegrees, _ longitude: CLLocationDegrees) -> CLLocationCoordinate2D {
    CLLocationCoordinate2D(latitude: latitude, longitude: longitude)
}
