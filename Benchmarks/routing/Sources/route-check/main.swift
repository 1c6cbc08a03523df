// Prints every route of random pairs, to check that a change of the planner keeps routes identical.
//
// Usage: route-check EXTRACT.osm.pbf [PAIRS] [SEED] [SEARCH] > routes.txt
//   SEARCH: `astar` (default, as a network built from the extract routes) or `hierarchy` (each
//   mode's contraction hierarchy built first, as a network read from a prepared file routes): both
//   must print the same routes.
//   swift build -c release --package-path Benchmarks/routing
//   Benchmarks/routing/.build/release/route-check Simulator/worlds/helsinki.osm.pbf 3000 11 > after.txt
//   diff before.txt after.txt     # routes printed by the build before the change
// For each mode, random positions in the extract's box are paired (seeded); each pair is routed and
// its length, time and points are printed exactly (shortest round-trip decimal). Every tenth pair
// also routes through three more random stops in the fastest order.
import DeviceSimRoads
import Foundation
import RandomPairs

var pairs = RandomPairs.fromArguments(usage: "route-check EXTRACT.osm.pbf [PAIRS] [SEED]", defaultPairCount: 3000, defaultSeed: 11)
if pairs.moreArguments.first == "hierarchy" { pairs.network.buildHierarchies() }
var output = ""
func describe(_ result: Result<RoadRoute, RoutingFailure>) -> String {
    switch result {
    case .success(let route):
        let points = route.points.map { "\($0.latitude),\($0.longitude)" }.joined(separator: " ")
        return "\(route.metres) \(route.seconds) [\(route.stops.map(\.name).joined(separator: ","))] \(route.speeds.map { "\($0)" }.joined(separator: ",")) \(points)"
    case .failure(let failure): return "fail \(failure)"
    }
}
for mode in [TravelMode.foot, .bike, .car] {
    var planner = RoutePlanner(network: pairs.network, mode: mode)
    for pair in 0..<pairs.pairCount {
        let a = pairs.randomPosition()
        var stops = [RouteStop(name: "b", coordinate: pairs.randomPosition())]
        output += "\(mode.rawValue) \(pair) \(describe(planner.route(from: a, through: stops)))\n"
        if pair % 10 == 0 {
            stops += ["c", "d", "e"].map { RouteStop(name: $0, coordinate: pairs.randomPosition()) }
            output += "\(mode.rawValue) \(pair) fastest \(describe(planner.route(from: a, through: stops, order: .fastest)))\n"
        }
    }
}
FileHandle.standardOutput.write(Data(output.utf8))
