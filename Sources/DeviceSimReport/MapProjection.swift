import DeviceSimScenario
import DeviceSimHAL
import Foundation

/// The map projection of an HTML report: latitude and longitude onto the SVG plane of a scenario's
/// map, as metres east and north of the centre of everything drawn (an equirectangular projection at
/// the centre's latitude: true to within a fraction of a percent across a city), scaled to fit a
/// viewBox ``width`` units wide, north up.
///
/// ```swift
/// let projection = MapProjection(fitting: [library, mensa])
/// let point = projection.project(library)      // (x, y) in viewBox units
/// projection.scaleBar                          // e.g. 200 m, 1,480 units long
/// ```
public struct MapProjection: Sendable, Hashable {
    /// A point on the map, in viewBox units (x to the east, y to the south).
    public struct Point: Sendable, Hashable {
        public var x: Double
        public var y: Double
    }

    /// A scale bar: a round number of metres and its length on the map.
    public struct ScaleBar: Sendable, Hashable {
        /// The distance it stands for (1, 2 or 5 times a power of ten).
        public var metres: Double
        /// Its length in viewBox units.
        public var length: Double
        /// A bar standing for `metres`, `length` units long.
        public init(metres: Double, length: Double) {
            self.metres = metres
            self.length = length
        }

        /// `metres` for people: `500 m`, `2 km`.
        public var label: String {
            metres >= 1000 ? "\(TraceValue.format(metres / 1000)) km" : "\(TraceValue.format(metres)) m"
        }
    }

    /// The viewBox's width.
    public let width: Double
    /// The viewBox's height (from the shape of what is drawn, within 40% and 100% of the width).
    public let height: Double
    /// ViewBox units per metre.
    public let unitsPerMetre: Double
    /// The centre of what is drawn.
    public let center: GeoCoordinate
    private let metresPerDegreeLatitude: Double
    private let metresPerDegreeLongitude: Double

    /// The smallest span shown (metres), so one point or a short walk is not blown up to fill the map.
    public static let minimumSpan = 200.0

    /// A projection that shows every one of `coordinates` inside a margin of `padding` units; the map
    /// spans at least ``minimumSpan`` metres.
    public init(fitting coordinates: [GeoCoordinate], width: Double = 10_000, padding: Double = 400) {
        let valid = coordinates.filter(\.isValid)
        let latitudes = valid.map(\.latitude), longitudes = valid.map(\.longitude)
        let south = latitudes.min() ?? 0, north = latitudes.max() ?? 0
        let west = longitudes.min() ?? 0, east = longitudes.max() ?? 0
        center = GeoCoordinate(latitude: (south + north) / 2, longitude: (west + east) / 2)
        metresPerDegreeLatitude = GeoCoordinate.earthRadius * .pi / 180
        metresPerDegreeLongitude = metresPerDegreeLatitude * max(cos(center.latitude * .pi / 180), 0.01)
        let spanEast = max((east - west) * metresPerDegreeLongitude, Self.minimumSpan)
        let spanNorth = max((north - south) * metresPerDegreeLatitude, Self.minimumSpan)
        self.width = width
        let inner = width - 2 * padding
        height = min(max(spanNorth / spanEast * inner + 2 * padding, width * 0.4), width)
        unitsPerMetre = min(inner / spanEast, (height - 2 * padding) / spanNorth)
    }

    /// The view that shows `coordinates` (with a margin, and at least ``minimumSpan`` metres across)
    /// at the map's shape: its left, top and width in viewBox units; nil when that is the whole map
    /// or nearly (nothing to zoom to).
    ///
    /// ```swift
    /// let projection = MapProjection(fitting: worldAndTracks)
    /// projection.focus(on: tracks)      // [x, y, width]: the report opens there
    /// ```
    public func focus(on coordinates: [GeoCoordinate]) -> [Double]? {
        let points = coordinates.filter(\.isValid).map(project)
        guard let minX = points.map(\.x).min(), let maxX = points.map(\.x).max(),
              let minY = points.map(\.y).min(), let maxY = points.map(\.y).max() else { return nil }
        let margin = 1.15
        let least = length(metres: Self.minimumSpan)
        let viewWidth = min(width, max((maxX - minX) * margin, (maxY - minY) * margin * width / height, least))
        guard viewWidth < width * 0.8 else { return nil }
        let viewHeight = viewWidth * height / width
        return [(minX + maxX - viewWidth) / 2, (minY + maxY - viewHeight) / 2, viewWidth]
    }

    /// Where `coordinate` lies on the map.
    public func project(_ coordinate: GeoCoordinate) -> Point {
        let east = (coordinate.longitude - center.longitude) * metresPerDegreeLongitude
        let north = (coordinate.latitude - center.latitude) * metresPerDegreeLatitude
        return Point(x: width / 2 + east * unitsPerMetre, y: height / 2 - north * unitsPerMetre)
    }

    /// `metres` as a length on the map.
    public func length(metres: Double) -> Double { metres * unitsPerMetre }

    /// The longest round distance (1, 2 or 5 times a power of ten) that fits in a fifth of the width.
    public var scaleBar: ScaleBar {
        let most = width / 5 / unitsPerMetre
        var power = pow(10, floor(log10(most)))
        var best = power
        while power <= most {
            for step in [1.0, 2, 5] where step * power <= most { best = step * power }
            power *= 10
        }
        return ScaleBar(metres: best, length: best * unitsPerMetre)
    }
}
