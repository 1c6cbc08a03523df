import DeviceSimHAL
import DeviceSimRoads
import Foundation

/// The streets of a report: one ``StreetLayer`` per road network, cut to the box that all the maps
/// drawn on that network show (each with a margin), so a sweep of a hundred runs on one city carries
/// its streets once. A map places the shared layer with a transform of its own (``placement(of:on:)``).
///
/// ```swift
/// var streets = ReportStreets()
/// let layer = streets.use(roads, covering: coordinates)      // 0, and its origin
/// streets.json()                                             // [{"roads":"M…","paths":"M…"}]
/// ```
struct ReportStreets {
    private struct Entry {
        var fingerprint: [Int64]
        var network: RoadNetwork
        var origin: GeoCoordinate
        var south: Double, west: Double, north: Double, east: Double
    }

    private var entries: [Entry] = []

    /// The most points one network's layer has.
    var maximumPoints = 25_000

    /// Whether no map has streets.
    var isEmpty: Bool { entries.isEmpty }

    /// The layer of `network` (numbered in order of first use), its box widened to take in
    /// `coordinates` with a margin (a quarter of their span and 200 m), and the origin of its units.
    mutating func use(_ network: RoadNetwork, covering coordinates: [GeoCoordinate]) -> (index: Int, origin: GeoCoordinate)? {
        let valid = coordinates.filter(\.isValid)
        guard !valid.isEmpty, !network.coordinates.isEmpty else { return nil }
        var south = valid.map(\.latitude).min()!, north = valid.map(\.latitude).max()!
        var west = valid.map(\.longitude).min()!, east = valid.map(\.longitude).max()!
        let metresPerDegree = GeoCoordinate.earthRadius * .pi / 180
        let northSouthMargin = (north - south) / 4 + 200 / metresPerDegree
        let eastWestMargin = (east - west) / 4 + 200 / (metresPerDegree * max(cos((south + north) / 2 * .pi / 180), 0.01))
        south -= northSouthMargin; north += northSouthMargin
        west -= eastWestMargin; east += eastWestMargin
        let ids = network.osmNodeIDs
        let fingerprint: [Int64] = [Int64(ids.count), ids.first ?? 0, ids[ids.count / 2], ids.last ?? 0]
        if let index = entries.firstIndex(where: { $0.fingerprint == fingerprint }) {
            entries[index].south = min(entries[index].south, south)
            entries[index].west = min(entries[index].west, west)
            entries[index].north = max(entries[index].north, north)
            entries[index].east = max(entries[index].east, east)
            return (index, entries[index].origin)
        }
        // The network's south-west corner, in whole units: every layer coordinate is positive and small.
        let units = StreetLayer.unitsPerDegree
        let origin = GeoCoordinate(
            latitude: (network.coordinates.map(\.latitude).min()! * units).rounded(.down) / units,
            longitude: (network.coordinates.map(\.longitude).min()! * units).rounded(.down) / units)
        entries.append(Entry(fingerprint: fingerprint, network: network, origin: origin, south: south, west: west, north: north, east: east))
        return (entries.count - 1, origin)
    }

    /// Where a layer whose units count from `origin` lies on a map of `projection`: the SVG matrix
    /// `a 0 0 d e f` (x = a·u + e, y = d·v + f for the layer's units u east and v south).
    static func placement(of origin: GeoCoordinate, on projection: MapProjection) -> (a: Double, d: Double, e: Double, f: Double) {
        let step = 0.01
        let zero = projection.project(origin)
        let east = projection.project(GeoCoordinate(latitude: origin.latitude, longitude: origin.longitude + step))
        let north = projection.project(GeoCoordinate(latitude: origin.latitude + step, longitude: origin.longitude))
        let units = step * StreetLayer.unitsPerDegree
        return ((east.x - zero.x) / units, (zero.y - north.y) / units, zero.x, zero.y)
    }

    /// Every layer's path data, as the report's JSON array (`[{"roads":…,"paths":…}]`).
    func json() -> String {
        var out = ReportJSON()
        out.array(entries) { out, entry in
            let layer = StreetLayer(network: entry.network, origin: entry.origin, south: entry.south, west: entry.west, north: entry.north, east: entry.east, maximumPoints: maximumPoints)
            out.raw("{\"roads\":"); out.string(layer.roads)
            out.raw(",\"paths\":"); out.string(layer.paths)
            out.raw(",\"points\":\(layer.pointCount),\"tolerance\":"); out.raw(TraceValue.format(layer.tolerance)); out.raw("}")
        }
        return out.text
    }
}
