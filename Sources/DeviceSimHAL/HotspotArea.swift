#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The ground a hotspot covers: a circle or a polygon on the map.
///
/// ```swift
/// let hall = HotspotArea.polygon([a, b, c, d])
/// hall.contains(here)          // inside?
/// hall.distance(from: here)    // 0 inside, else metres to the nearest edge
/// ```
public enum HotspotArea: Sendable, Hashable {
    /// A circle of `radius` metres.
    case circle(center: GeoCoordinate, radius: Double)
    /// A polygon (at least three corners, in order).
    case polygon([GeoCoordinate])

    /// The centre (of a polygon: the mean of its corners).
    public var center: GeoCoordinate {
        switch self {
        case .circle(let center, _): return center
        case .polygon(let corners):
            let count = Double(corners.count)
            return GeoCoordinate(latitude: corners.map(\.latitude).reduce(0, +) / count, longitude: corners.map(\.longitude).reduce(0, +) / count)
        }
    }

    /// Whether `point` lies inside (ray casting on latitude/longitude, fine at the scale of a hotspot).
    public func contains(_ point: GeoCoordinate) -> Bool {
        switch self {
        case .circle(let center, let radius):
            return center.distance(to: point) <= radius
        case .polygon(let corners):
            var inside = false
            var j = corners.count - 1
            for i in corners.indices {
                let a = corners[i], b = corners[j]
                if (a.latitude > point.latitude) != (b.latitude > point.latitude) {
                    let crossing = (b.longitude - a.longitude) * (point.latitude - a.latitude) / (b.latitude - a.latitude) + a.longitude
                    if point.longitude < crossing { inside.toggle() }
                }
                j = i
            }
            return inside
        }
    }

    /// How far `point` is from the area, metres: 0 inside, else the distance to the nearest edge
    /// (polygons on a local plane around `point`, exact enough at the scale of a hotspot).
    public func distance(from point: GeoCoordinate) -> Double {
        switch self {
        case .circle(let center, let radius):
            // One haversine (`contains` would be a second): inside, the difference is not positive.
            return max(0, center.distance(to: point) - radius)
        case .polygon(let corners):
            if contains(point) { return 0 }
            let metresPerDegreeLatitude = GeoCoordinate.earthRadius * .pi / 180
            let metresPerDegreeLongitude = metresPerDegreeLatitude * cos(point.latitude * .pi / 180)
            func plane(_ c: GeoCoordinate) -> (x: Double, y: Double) {
                ((c.longitude - point.longitude) * metresPerDegreeLongitude, (c.latitude - point.latitude) * metresPerDegreeLatitude)
            }
            var nearest = Double.infinity
            var j = corners.count - 1
            for i in corners.indices {
                let a = plane(corners[j]), b = plane(corners[i])
                let dx = b.x - a.x, dy = b.y - a.y
                let length = dx * dx + dy * dy
                let t = length > 0 ? min(1, max(0, -(a.x * dx + a.y * dy) / length)) : 0
                let x = a.x + t * dx, y = a.y + t * dy
                nearest = min(nearest, (x * x + y * y).squareRoot())
                j = i
            }
            return nearest
        }
    }

    /// Points that outline the area, for coverage checks: a circle's centre and 16 points on its rim;
    /// a polygon's corners, the middles of its edges and its centre.
    public var outline: [GeoCoordinate] {
        switch self {
        case .circle(let center, let radius):
            return [center] + (0..<16).map { center.destination(distance: radius, bearing: Double($0) * 22.5) }
        case .polygon(let corners):
            var points = corners
            var j = corners.count - 1
            for i in corners.indices {
                points.append(corners[j].interpolated(to: corners[i], fraction: 0.5))
                j = i
            }
            return points + [center]
        }
    }
}
