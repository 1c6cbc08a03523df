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
import DeviceSimHAL
import DeviceSimRoads
import Foundation

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: route-check EXTRACT.osm.pbf [PAIRS] [SEED]\n".utf8))
    exit(2)
}
let pairCount = arguments.count > 2 ? Int(arguments[2])! : 3000
nonisolated(unsafe) var state: UInt64 = arguments.count > 3 ? UInt64(arguments[3])! : 11
@MainActor func nextRandom() -> Double {
    state = state &* 6364136223846793005 &+ 1442695040888963407
    return Double(state >> 11) / Double(1 << 53)
}

let network = try RoadNetwork(contentsOf: arguments[1])
if arguments.count > 4, arguments[4] == "hierarchy" { network.buildHierarchies() }
let latitudes = network.coordinates.map(\.latitude), longitudes = network.coordinates.map(\.longitude)
let box = (latitudes.min()!, latitudes.max()!, longitudes.min()!, longitudes.max()!)
@MainActor func randomPosition() -> GeoCoordinate {
    GeoCoordinate(latitude: box.0 + (box.1 - box.0) * nextRandom(), longitude: box.2 + (box.3 - box.2) * nextRandom())
}
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
    var planner = RoutePlanner(network: network, mode: mode)
    for pair in 0..<pairCount {
        let a = randomPosition()
        var stops = [RouteStop(name: "b", coordinate: randomPosition())]
        output += "\(mode.rawValue) \(pair) \(describe(planner.route(from: a, through: stops)))\n"
        if pair % 10 == 0 {
            stops += ["c", "d", "e"].map { RouteStop(name: $0, coordinate: randomPosition()) }
            output += "\(mode.rawValue) \(pair) fastest \(describe(planner.route(from: a, through: stops, order: .fastest)))\n"
        }
    }
}
FileHandle.standardOutput.write(Data(output.utf8))
