import Foundation

/// The great circle from one coordinate to another, with the trigonometry of its ends worked out
/// once, for taking many points along it (a device walking a route asks for one a second).
///
/// ``point(at:)`` gives exactly (to the bit) what ``GeoCoordinate/interpolated(to:fraction:)`` gives.
///
/// ```swift
/// let segment = GreatCircleSegment(from: gate, to: library)
/// let halfway = segment.point(at: 0.5)
/// ```
public struct GreatCircleSegment: Sendable {
    /// Where it starts.
    public let from: GeoCoordinate
    /// Where it ends.
    public let to: GeoCoordinate
    private let angle: Double, sinAngle: Double
    private let cosφ1: Double, sinφ1: Double, cosλ1: Double, sinλ1: Double
    private let cosφ2: Double, sinφ2: Double, cosλ2: Double, sinλ2: Double

    /// The segment from `from` to `to`.
    public init(from: GeoCoordinate, to: GeoCoordinate) {
        self.from = from
        self.to = to
        let φ1 = from.latitude * .pi / 180, λ1 = from.longitude * .pi / 180
        let φ2 = to.latitude * .pi / 180, λ2 = to.longitude * .pi / 180
        angle = from.distance(to: to) / GeoCoordinate.earthRadius
        sinAngle = sin(angle)
        cosφ1 = cos(φ1)
        sinφ1 = sin(φ1)
        cosλ1 = cos(λ1)
        sinλ1 = sin(λ1)
        cosφ2 = cos(φ2)
        sinφ2 = sin(φ2)
        cosλ2 = cos(λ2)
        sinλ2 = sin(λ2)
    }

    /// The point `fraction` (0...1) of the way along the segment.
    public func point(at fraction: Double) -> GeoCoordinate {
        if fraction <= 0 { return from }
        if fraction >= 1 { return to }
        guard angle > 1e-12 else { return from }
        let a = sin((1 - fraction) * angle) / sinAngle
        let b = sin(fraction * angle) / sinAngle
        let x = a * cosφ1 * cosλ1 + b * cosφ2 * cosλ2
        let y = a * cosφ1 * sinλ1 + b * cosφ2 * sinλ2
        let z = a * sinφ1 + b * sinφ2
        return GeoCoordinate(latitude: atan2(z, (x * x + y * y).squareRoot()) * 180 / .pi, longitude: atan2(y, x) * 180 / .pi)
    }
}
