import DeviceSimHAL
@testable import DeviceSimRoads
import Foundation
import Testing

/// Issue 48, item 5: a position joins a street on the surface before one in a tunnel or on a bridge
/// (GraphHopper's default snap preventions), and a tunnel only when no surface street is within
/// 100 m (docs/road-rules.md, "Layers: tunnels and bridges").
@Suite struct SurfaceJoinTests {
    /// A town with a street on the surface (nodes 1-2, 200 m east) and a footway tunnel three levels
    /// down running north-south 5 m west of the street's west end (nodes 3-4), whose north portal
    /// comes up 400 m north (node 4, a ramp to node 1).
    static let origin = GeoCoordinate(latitude: 60.17, longitude: 24.94)
    static func town(tunnelTags: [String: String] = ["highway": "footway", "tunnel": "yes", "layer": "-3"]) -> RoadNetwork {
        let positions: [Int64: GeoCoordinate] = [
            1: origin, 2: origin.offsetBy(east: 200, north: 0), 3: origin.offsetBy(east: -5, north: -600), 4: origin.offsetBy(east: -5, north: 400),
        ]
        var extract = OSMExtract()
        for (id, position) in positions.sorted(by: { $0.key < $1.key }) { _ = extract.appendNode(id: id, latitude: position.latitude, longitude: position.longitude) }
        extract.highways = [
            .init(id: 10, nodeIDs: [1, 2], tags: ["highway": "footway"]),
            .init(id: 11, nodeIDs: [3, 4], tags: tunnelTags),
            .init(id: 12, nodeIDs: [4, 1], tags: ["highway": "footway"]),
        ]
        extract.finish()
        return RoadNetwork(extract)
    }

    /// 20 m south of the street, 5 m from the tunnel: the walk to 20 m south of the street's other
    /// end is along the street (20 + 200 + 20 m), not down the tunnel and back over the ramp.
    @Test func aPositionAboveATunnelJoinsTheStreetOnTheSurface() throws {
        let start = Self.origin.offsetBy(east: 0, north: -20), end = RouteStop(name: "east", coordinate: Self.origin.offsetBy(east: 200, north: -20))
        var walk = RoutePlanner(network: Self.town(), mode: .foot)
        let route = try walk.route(from: start, through: [end]).get()
        #expect(abs(route.metres - 240) < 0.5, "\(route.metres) m")
        let join = try #require(Self.town().join(start, for: .foot, within: 100))
        #expect(abs(join.distance - 20) < 0.01)
        // The same tunnel without its tunnel tag is the nearest street: joined 5 m away, and the walk
        // goes through it (5 + 420 + 400 + 200 + 20 m).
        let surface = Self.town(tunnelTags: ["highway": "footway", "layer": "-3"])
        #expect(abs(try #require(surface.join(start, for: .foot, within: 100)).distance - 5) < 0.01)
        var under = RoutePlanner(network: surface, mode: .foot)
        #expect(try under.route(from: start, through: [end]).get().metres > 1_000)
    }

    /// In the tunnel, 300 m from every street on the surface: the position joins the tunnel.
    @Test func aPositionWithNoSurfaceStreetWithin100MetresJoinsTheTunnel() throws {
        let network = Self.town()
        let inside = Self.origin.offsetBy(east: -8, north: -300)
        let join = try #require(network.join(inside, for: .foot, within: 100))
        #expect(abs(join.distance - 3) < 0.01)
        #expect(network.segments(for: .foot).segments[join.segment].isOffTheSurface)
    }

    @Test func tunnelsAndBridgesOfAnyKindAreOffTheSurface() {
        for tags in [["tunnel": "yes"], ["tunnel": "building_passage"], ["tunnel": "culvert"], ["bridge": "yes"], ["bridge": "viaduct"], ["tunnel": "yes", "layer": "-3"]] {
            #expect(RoadRules.isOffTheSurface(tags), "\(tags)")
        }
        for tags in [[:], ["tunnel": "no"], ["bridge": "no"], ["layer": "-1"], ["covered": "yes"], ["level": "-2"]] {
            #expect(!RoadRules.isOffTheSurface(tags), "\(tags)")
        }
    }

    /// The corner of Aleksanterinkatu and Mikonkatu in Helsinki lies right above the service tunnel
    /// (`tunnel=yes`, `layer=-4`), whose segment is 4 cm nearer than the street's: the corner joins
    /// the street, and the walk from Aleksanterinkatu is 188.3 m, the independent reference router's
    /// length under the same rule (`Benchmarks/routing/reference.py`; 1,390.3 m through the tunnel
    /// when joining ignored layers). Scenarios/routes/helsinki-search-5-a-place-above-a-tunnel-...
    @Test func helsinkisCornerAboveTheServiceTunnelJoinsTheStreet() throws {
        let network = Helsinki.network
        let corner = GeoCoordinate(latitude: 60.168819, longitude: 24.945647), start = GeoCoordinate(latitude: 60.168950, longitude: 24.949037)
        let index = network.segments(for: .foot)
        let nearest = try #require(index.nearest(to: corner, within: 100))
        #expect(index.segments[nearest.segment].isOffTheSurface)
        let join = try #require(network.join(corner, for: .foot, within: 100))
        #expect(!index.segments[join.segment].isOffTheSurface)
        #expect(join.distance < 0.2)
        var walk = RoutePlanner(network: network, mode: .foot)
        let route = try walk.route(from: start, through: [RouteStop(name: "mikonkatu-corner", coordinate: corner)]).get()
        #expect(abs(route.metres - 188.31) < 0.01, "\(route.metres) m")
    }

    /// The PBF reader keeps `tunnel` and `bridge`: the Helsinki extract's tunnels are off the surface.
    @Test func helsinkisTunnelsAreReadFromTheExtract() {
        #expect(Helsinki.extract.highways.contains { $0.tags["tunnel"] == "yes" })
        #expect(Helsinki.network.segments(for: .foot).segments.contains { $0.isOffTheSurface })
    }
}
