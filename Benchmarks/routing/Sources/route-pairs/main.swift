// Routes pairs of positions with DeviceSim's planner and times each query.
//
// Usage: route-pairs EXTRACT.osm.pbf MODE PAIRS OUT
// PAIRS: "lat1 lon1 lat2 lon2" a line. OUT: one line per pair, "metres seconds microseconds
// on-road-metres" (on-road: without the straight legs to and from the street) or "fail
// microseconds <reason>".
// Each pair is routed once untimed (warm-up: the landmark table is computed on first use) and then
// timed as the median of 5 runs.
import DeviceSimHAL
import DeviceSimRoads
import Foundation

let arguments = CommandLine.arguments
guard arguments.count == 5, let mode = TravelMode(rawValue: arguments[2]) else {
    FileHandle.standardError.write(Data("usage: route-pairs EXTRACT.osm.pbf foot|bike|car PAIRS OUT\n".utf8))
    exit(2)
}
let network = try RoadNetwork(contentsOf: arguments[1])
var planner = RoutePlanner(network: network, mode: mode)
let pairs = try String(contentsOfFile: arguments[3], encoding: .utf8).split(separator: "\n").map { line in
    line.split(separator: " ").map { Double($0)! }
}
let clock = ContinuousClock()
var output = ""
for pair in pairs {
    let start = GeoCoordinate(latitude: pair[0], longitude: pair[1]), stop = RouteStop(name: "b", coordinate: GeoCoordinate(latitude: pair[2], longitude: pair[3]))
    let result = planner.route(from: start, through: [stop])
    var timings: [Double] = []
    for _ in 0..<5 {
        let begin = clock.now
        _ = planner.route(from: start, through: [stop])
        let elapsed = begin.duration(to: clock.now)
        timings.append(Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) * 1e-12)
    }
    let micros = timings.sorted()[2]
    switch result {
    case .success(let route):
        let points = route.points
        let offRoad = points.count >= 4 ? points[0].distance(to: points[1]) + points[points.count - 2].distance(to: points[points.count - 1]) : route.metres
        output += "\(route.metres) \(route.seconds) \(micros) \(route.metres - offRoad)\n"
    case .failure(let failure): output += "fail \(micros) \(failure)\n"
    }
}
try output.write(toFile: arguments[4], atomically: true, encoding: .utf8)
