import DeviceSimHAL
@testable import DeviceSimRoads
import Foundation
import Testing

/// Issue 34: positions join the nearest point of the nearest street; squares are crossed; access,
/// one-way and turn restriction tags are read.
@Suite struct RoadJoinTests {
    let network = Helsinki.network

    /// Two points on the same segment: the route is the distance between them along it, not a
    /// detour through the segment's nodes.
    @Test func pointsOnOneSegmentAreTheirTrueDistanceApart() throws {
        for mode in TravelMode.allCases {
            let index = network.segments(for: mode)
            // The longest segment on the surface the mode may travel both ways (points on a tunnel's
            // segment join the street above it when one is within 100 m: the car's longest is one).
            let both = index.segments.indices.filter {
                index.segments[$0].forward.isFinite && index.segments[$0].backward.isFinite && !index.segments[$0].isOffTheSurface
            }
            let longest = try #require(both.max { network.segmentLength(index.segments[$0]) < network.segmentLength(index.segments[$1]) })
            let segment = index.segments[longest], length = network.segmentLength(segment)
            #expect(length > 50)
            let a = network.coordinates[Int(segment.a)], b = network.coordinates[Int(segment.b)]
            func along(_ fraction: Double) -> GeoCoordinate {
                GeoCoordinate(latitude: a.latitude + (b.latitude - a.latitude) * fraction, longitude: a.longitude + (b.longitude - a.longitude) * fraction)
            }
            var planner = RoutePlanner(network: network, mode: mode)
            let route = try planner.route(from: along(0.2), through: [RouteStop(name: "ahead", coordinate: along(0.8))]).get()
            #expect(abs(route.metres - 0.6 * length) < 0.01, "\(mode): \(route.metres) m for \(0.6 * length) m along the street")
            let back = try planner.route(from: along(0.8), through: [RouteStop(name: "back", coordinate: along(0.2))]).get()
            #expect(abs(back.metres - 0.6 * length) < 0.01)
        }
    }

    /// A route from a place to itself has no length, whatever the mode and however far from the
    /// street the place is.
    @Test func aRouteFromAPlaceToItselfIsZero() throws {
        let places = [GeoCoordinate(latitude: 60.1695, longitude: 24.9523), GeoCoordinate(latitude: 60.1719, longitude: 24.9368), GeoCoordinate(latitude: 60.1700, longitude: 24.9442)]
        for mode in TravelMode.allCases {
            var planner = RoutePlanner(network: network, mode: mode)
            for place in places {
                let route = try planner.route(from: place, through: [RouteStop(name: "here", coordinate: place)]).get()
                #expect(route.metres == 0 && route.seconds == 0, "\(mode) \(place): \(route.metres) m")
            }
        }
    }

    /// A place farther than the limit from every street fails with the reason, instead of a
    /// straight line over the sea.
    @Test func aPlaceFarFromEveryStreetFails() {
        let suomenlinna = RouteStop(name: "Suomenlinna", coordinate: GeoCoordinate(latitude: 60.1454, longitude: 24.9881))
        let station = GeoCoordinate(latitude: 60.1710, longitude: 24.9414)
        for mode in TravelMode.allCases {
            var planner = RoutePlanner(network: network, mode: mode)
            let result = planner.route(from: station, through: [suomenlinna])
            #expect(result == .failure(.noStreetNearby(place: "Suomenlinna", limit: 100, mode: mode)))
            #expect(planner.route(from: suomenlinna.coordinate, through: [RouteStop(name: "station", coordinate: station)]) == .failure(.noStreetNearby(place: "start", limit: 100, mode: mode)))
        }
        #expect(RoutingFailure.noStreetNearby(place: "Suomenlinna", limit: 100, mode: .foot).description == "no street within 100 m of 'Suomenlinna' (for foot)")
    }

    /// The Senate Square (a multipolygon `highway=pedestrian`, `area=yes`, with an inner ring) is
    /// crossed straight on foot between the two outline nodes farthest apart that see each other.
    @Test func theSenateSquareIsCrossedStraight() throws {
        let square = try #require(PedestrianAreas.areas(of: Helsinki.extract).first { $0.id == 2_919_121 })
        #expect(square.rings.count >= 1)
        let pairs = PedestrianAreas.edges(of: square, position: Helsinki.extract.coordinate(ofNode:), isEntrance: { _ in false })
        let coordinates = pairs.map { (Helsinki.extract.coordinate(ofNode: $0.0)!, Helsinki.extract.coordinate(ofNode: $0.1)!) }
        let widest = coordinates.max { $0.0.distance(to: $0.1) < $1.0.distance(to: $1.1) }
        let (p, q) = try #require(widest)
        #expect(p.distance(to: q) > 100)
        var walk = RoutePlanner(network: network, mode: .foot)
        let route = try walk.route(from: p, through: [RouteStop(name: "across", coordinate: q)]).get()
        #expect(abs(route.metres - p.distance(to: q)) < 0.01, "\(route.metres) m across \(p.distance(to: q)) m")
        // A bike crosses at walking pace (bicycle=yes on a pedestrian area), or rides round faster.
        var ride = RoutePlanner(network: network, mode: .bike)
        let bike = try ride.route(from: p, through: [RouteStop(name: "across", coordinate: q)]).get()
        #expect(bike.seconds <= p.distance(to: q) / (RoadRules.bikeOnFootwaySpeed / 3.6) + 1e-6)
    }

    /// Aleksanterinkatu between Mannerheimintie and Keskuskatu (way 14601899) is closed to cars both
    /// ways: `motor_vehicle:forward=no` with `oneway:motor_vehicle=yes`.
    @Test func aleksanterinkatuIsClosedToCars() throws {
        let way = try #require(Helsinki.extract.highways.first { $0.id == 14_601_899 })
        #expect(RoadRules.directions(of: .car, tags: way.tags) == .init(forward: false, backward: false))
        #expect(RoadRules.directions(of: .bike, tags: way.tags) == .init(forward: true, backward: true))
        let nodes = way.nodeIDs.compactMap { id in network.osmNodeIDs.firstIndex(of: id).map(Int32.init) }
        #expect(nodes.count == way.nodeIDs.count)
        for (a, b) in zip(nodes, nodes.dropFirst()) {
            #expect(network.car.seconds(from: a, to: b) == nil && network.car.seconds(from: b, to: a) == nil)
            #expect(network.bike.seconds(from: a, to: b) != nil)
        }
    }

    @Test func accessAndOneWayTagsPerMode() {
        func directions(_ mode: TravelMode, _ tags: [String: String]) -> RoadRules.Directions { RoadRules.directions(of: mode, tags: tags) }
        let both = RoadRules.Directions(forward: true, backward: true), forward = RoadRules.Directions(forward: true, backward: false)
        let backward = RoadRules.Directions(forward: false, backward: true), none = RoadRules.Directions(forward: false, backward: false)
        #expect(directions(.car, ["highway": "service", "access": "no", "psv": "yes"]) == none)
        #expect(directions(.car, ["highway": "unclassified", "motor_vehicle": "no", "psv": "yes"]) == none)
        #expect(directions(.car, ["highway": "residential", "oneway": "-1"]) == backward)
        #expect(directions(.bike, ["highway": "residential", "oneway": "yes", "oneway:bicycle": "no"]) == both)
        #expect(directions(.bike, ["highway": "residential", "oneway": "yes", "cycleway": "opposite_lane"]) == both)
        #expect(directions(.car, ["highway": "residential", "oneway": "yes", "oneway:bicycle": "no"]) == forward)
        #expect(directions(.foot, ["highway": "residential", "oneway": "yes"]) == both)
        #expect(directions(.car, ["highway": "service", "motor_vehicle:backward": "no"]) == forward)
        #expect(directions(.car, ["highway": "service", "service": "emergency_access"]) == none)
        #expect(directions(.car, ["highway": "residential", "access": "private"]) == none)
        #expect(directions(.foot, ["highway": "primary", "motorroad": "yes"]) == none)
        #expect(RoadRules.speed(of: .car, tags: ["highway": "service", "service": "parking_aisle"]) == 10)
        #expect(RoadRules.speed(of: .bike, tags: ["highway": "residential", "bicycle": "dismount"]) == 5)
    }

    /// A small town: a T junction where turning left from the west arm into the north arm is
    /// forbidden, and a loop from the south arm to the north arm. Cars take the loop; people walk
    /// straight.
    @Test func turnRestrictionsApplyToCars() throws {
        let origin = GeoCoordinate(latitude: 60.17, longitude: 24.94)
        let positions: [Int64: GeoCoordinate] = [
            1: origin, 2: origin.offsetBy(east: 200, north: 0), 3: origin.offsetBy(east: 200, north: 200),
            4: origin.offsetBy(east: 200, north: -200), 5: origin.offsetBy(east: 400, north: -200), 6: origin.offsetBy(east: 400, north: 200),
        ]
        func town(restricted: Bool) -> RoadNetwork {
            var extract = OSMExtract()
            for (id, position) in positions.sorted(by: { $0.key < $1.key }) { extract.appendNode(id: id, latitude: position.latitude, longitude: position.longitude) }
            let street = ["highway": "residential"]
            extract.highways = [
                .init(id: 10, nodeIDs: [1, 2], tags: street), .init(id: 11, nodeIDs: [2, 3], tags: street), .init(id: 12, nodeIDs: [2, 4], tags: street),
                .init(id: 13, nodeIDs: [4, 5, 6, 3], tags: street),
            ]
            if restricted {
                extract.restrictionRelations = [.init(id: 99, tags: ["restriction": "no_left_turn"], members: [
                    .init(kind: .way, id: 10, role: "from"), .init(kind: .node, id: 2, role: "via"), .init(kind: .way, id: 11, role: "to"),
                ])]
            }
            extract.finish()
            return RoadNetwork(extract)
        }
        let start = positions[1]!, end = RouteStop(name: "north", coordinate: positions[3]!)
        var free = RoutePlanner(network: town(restricted: false), mode: .car)
        #expect(abs(try free.route(from: start, through: [end]).get().metres - 400) < 0.5)
        let network = town(restricted: true)
        #expect(network.turnRestrictionCount == 1)
        var car = RoutePlanner(network: network, mode: .car)
        let detour = try car.route(from: start, through: [end]).get()
        // Not left at the junction: on south, a U-turn at the next junction (U-turns are allowed where
        // no restriction forbids them), back north through the junction (straight on) to the end.
        #expect(abs(detour.metres - 800) < 1, "\(detour.metres) m")
        var foot = RoutePlanner(network: network, mode: .foot)
        #expect(abs(try foot.route(from: start, through: [end]).get().metres - 400) < 0.5)
        // Going the other way (north arm to west arm) is a right turn, not restricted.
        var back = RoutePlanner(network: network, mode: .car)
        #expect(abs(try back.route(from: positions[3]!, through: [RouteStop(name: "west", coordinate: start)]).get().metres - 400) < 0.5)
    }

    /// A join reads its segment's length from the graph's edge along it (from the first node when
    /// the mode may go that way, else from the last): the same bits as the haversine between the
    /// segment's nodes, for every segment of every mode, one-way ones included.
    @Test(arguments: [TravelMode.foot, .bike, .car])
    func aSegmentsLengthIsTheHaversineBetweenItsNodes(mode: TravelMode) {
        let index = network.segments(for: mode), graph = network.graph(for: mode), splits = network.splits(for: mode)
        var different = 0, withoutEdge = 0, oneWayBackward = 0
        for segment in index.segments {
            let haversine = network.segmentLength(segment)
            let length = RoadNetwork.length(of: segment, coordinates: index.coordinates, graph: graph, splits: splits)
            if length.bitPattern != haversine.bitPattern { different += 1 }
            let edge = segment.forward.isFinite ? graph.edge(from: segment.a, to: splits.entry(to: segment.b, from: segment.a))
                : graph.edge(from: segment.b, to: splits.entry(to: segment.a, from: segment.b))
            if edge == nil { withoutEdge += 1 }
            if !segment.forward.isFinite { oneWayBackward += 1 }
        }
        #expect(different == 0, "\(mode): \(different) of \(index.segments.count) segments")
        #expect(withoutEdge == 0, "\(mode): \(withoutEdge) segments without an edge along them")
        // Streets one-way from the last node to the first are read from that edge: cars and bikes have some.
        if mode != .foot { #expect(oneWayBackward > 0) }
    }
}

extension RoadNetwork {
    func segmentLength(_ segment: SegmentIndex.Segment) -> Double { coordinates[Int(segment.a)].distance(to: coordinates[Int(segment.b)]) }
}
