#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A position on the WGS 84 ellipsoid, in decimal degrees.
///
/// Distances and bearings use a sphere of the mean Earth radius (haversine), which is what phones'
/// `distance(from:)` gives to within 0.5 %.
///
/// ```swift
/// let gate = GeoCoordinate(latitude: 52.5163, longitude: 13.3777)
/// let tower = GeoCoordinate(latitude: 52.5208, longitude: 13.4094)
/// gate.distance(to: tower) // ≈ 2,200 m
/// ```
public struct GeoCoordinate: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Latitude in degrees, positive north, -90...90.
    public var latitude: Double
    /// Longitude in degrees, positive east, -180...180.
    public var longitude: Double

    /// Mean Earth radius in metres (IUGG).
    public static let earthRadius = 6_371_008.8

    /// Creates a coordinate.
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Whether latitude and longitude are finite and in range.
    public var isValid: Bool {
        latitude.isFinite && longitude.isFinite && abs(latitude) <= 90 && abs(longitude) <= 180
    }

    /// Great-circle distance in metres.
    public func distance(to other: GeoCoordinate) -> Double {
        let φ1 = latitude.radians, φ2 = other.latitude.radians
        let dφ = φ2 - φ1, dλ = (other.longitude - longitude).radians
        let a = sin(dφ / 2) * sin(dφ / 2) + cos(φ1) * cos(φ2) * sin(dλ / 2) * sin(dλ / 2)
        return 2 * Self.earthRadius * atan2(a.squareRoot(), (1 - a).squareRoot())
    }

    /// Initial bearing towards `other`, in degrees clockwise from true north, 0..<360.
    public func bearing(to other: GeoCoordinate) -> Double {
        let φ1 = latitude.radians, φ2 = other.latitude.radians, dλ = (other.longitude - longitude).radians
        let y = sin(dλ) * cos(φ2)
        let x = cos(φ1) * sin(φ2) - sin(φ1) * cos(φ2) * cos(dλ)
        return (atan2(y, x).degrees + 360).truncatingRemainder(dividingBy: 360)
    }

    /// The point `fraction` (0...1) of the way along the great circle to `other` (for many points
    /// on one segment, make a ``GreatCircleSegment`` once).
    public func interpolated(to other: GeoCoordinate, fraction: Double) -> GeoCoordinate {
        if fraction <= 0 { return self }
        if fraction >= 1 { return other }
        return GreatCircleSegment(from: self, to: other).point(at: fraction)
    }

    /// The point `distance` metres away along the initial `bearing` (degrees).
    public func destination(distance: Double, bearing: Double) -> GeoCoordinate {
        let δ = distance / Self.earthRadius, θ = bearing.radians
        let φ1 = latitude.radians, λ1 = longitude.radians
        let φ2 = asin(sin(φ1) * cos(δ) + cos(φ1) * sin(δ) * cos(θ))
        let λ2 = λ1 + atan2(sin(θ) * sin(δ) * cos(φ1), cos(δ) - sin(φ1) * sin(φ2))
        var longitude = λ2.degrees
        if longitude > 180 { longitude -= 360 } else if longitude < -180 { longitude += 360 }
        return GeoCoordinate(latitude: φ2.degrees, longitude: longitude)
    }

    /// The point offset by `east` and `north` metres (a local flat-Earth step, fine for noise and small offsets).
    public func offsetBy(east: Double, north: Double) -> GeoCoordinate {
        let dLat = north / Self.earthRadius
        let dLon = east / (Self.earthRadius * cos(latitude.radians))
        return GeoCoordinate(latitude: latitude + dLat.degrees, longitude: longitude + dLon.degrees)
    }

    public var description: String { "(\(latitude), \(longitude))" }
}

extension Double {
    @inline(__always) var radians: Double { self * .pi / 180 }
    @inline(__always) var degrees: Double { self * 180 / .pi }
}
