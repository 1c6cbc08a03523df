// Times `RoutePlanner.route` against the graph search it runs, on the same queries.
//
// Usage: route-timing EXTRACT.osm.pbf [PAIRS] [SEED] [MODES]   (MODES: foot,bike,car by default)
//   swift build -c release --package-path Benchmarks/routing
//   nice Benchmarks/routing/.build/release/route-timing Simulator/worlds/helsinki.osm.pbf 2000 7
// For each mode, random positions in the extract's box are paired (seeded) and a pair kept when it
// routes. Each kept pair is routed once untimed, then timed 5 times through `RoutePlanner.route` and
// 5 times through the search alone (`HierarchySearch.fastestPath`, the contraction hierarchy's
// query, between the same join points' departures and arrivals), interleaved; the median of each pair's 5 runs is kept. Then
// both positions' joins alone (`RoadNetwork.join`, what route() does before its search), 5 times. Printed: the medians over
// pairs, the median of the per-pair ratio route / search, and the joins' median (part of what route() adds to its search).
import DeviceSimRoads
import Foundation
import RandomPairs

var pairs = RandomPairs.fromArguments(usage: "route-timing EXTRACT.osm.pbf [PAIRS] [SEED] [MODES]", defaultPairCount: 2000, defaultSeed: 7)
let network = pairs.network, pairCount = pairs.pairCount
func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
func microseconds(_ duration: Duration) -> Double { Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) * 1e-12 }

network.buildHierarchies()  // As a prepared file gives them: the planner routes legs through them.
let clock = ContinuousClock()
var modes = [TravelMode.foot, .bike, .car]
if let names = pairs.moreArguments.first {
    modes = names.split(separator: ",").map { name in
        guard let mode = TravelMode(rawValue: String(name)) else {
            FileHandle.standardError.write(Data("MODES is foot, bike or car, comma-separated, not '\(name)'\n".utf8))
            exit(2)
        }
        return mode
    }
}
for mode in modes {
    var planner = RoutePlanner(network: network, mode: mode)
    var search = HierarchySearch(network.graph(for: mode))
    var routeTimes: [Double] = [], searchTimes: [Double] = [], ratios: [Double] = [], joinTimes: [Double] = []
    var attempts = 0
    while routeTimes.count < pairCount, attempts < pairCount * 20 {
        attempts += 1
        let a = pairs.randomPosition()
        let b = pairs.randomPosition()
        let stop = RouteStop(name: "b", coordinate: b)
        guard case .success = planner.route(from: a, through: [stop]),
              let from = network.join(a, for: mode, within: RoutePlanner.maximumJoinDistance),
              let to = network.join(b, for: mode, within: RoutePlanner.maximumJoinDistance), !from.isAtSamePoint(as: to) else { continue }
        let sources = from.departures.map { RouteSearch.Endpoint(node: $0.node, seconds: $0.seconds) }
        let targets = to.arrivals.map { RouteSearch.Endpoint(node: $0.node, seconds: $0.seconds) }
        var route: [Double] = [], alone: [Double] = []
        for _ in 0..<5 {
            var begin = clock.now
            _ = planner.route(from: a, through: [stop])
            route.append(microseconds(begin.duration(to: clock.now)))
            begin = clock.now
            _ = search.fastestPath(from: sources, to: targets)
            alone.append(microseconds(begin.duration(to: clock.now)))
        }
        var joins: [Double] = []
        for _ in 0..<5 {
            let begin = clock.now
            _ = network.join(a, for: mode, within: RoutePlanner.maximumJoinDistance)
            _ = network.join(b, for: mode, within: RoutePlanner.maximumJoinDistance)
            joins.append(microseconds(begin.duration(to: clock.now)))
        }
        joinTimes.append(median(joins))
        routeTimes.append(median(route))
        searchTimes.append(median(alone))
        ratios.append(median(route) / median(alone))
    }
    print("\(mode.rawValue): \(routeTimes.count) pairs; RoutePlanner.route median \(String(format: "%.1f", median(routeTimes))) µs, search alone median \(String(format: "%.1f", median(searchTimes))) µs; route / search: ratio of medians \(String(format: "%.2f", median(routeTimes) / median(searchTimes))), median per-pair ratio \(String(format: "%.2f", median(ratios))); both joins alone median \(String(format: "%.1f", median(joinTimes))) µs")
}
