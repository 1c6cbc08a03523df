// Times the contraction hierarchy's queries (`HierarchySearch`) against A* with landmarks
// (`RouteSearch`) on the same node pairs, checks that both give the same travel time, and writes the
// graph and the pairs for pandana's contraction hierarchy (pandana-compare.py).
//
// Usage: route-hierarchy EXTRACT.osm.pbf [PAIRS] [SEED] [COPIES] [OUT] [MODES]   (MODES: car,foot by default)
//   swift build -c release --package-path Benchmarks/routing
//   nice Benchmarks/routing/.build/release/route-hierarchy Simulator/worlds/helsinki.osm.pbf 2000 5 1 /tmp/ch1
//   nice Benchmarks/routing/.build/release/route-hierarchy Simulator/worlds/helsinki.osm.pbf 2000 5 64 /tmp/ch64
//   python3 Benchmarks/routing/pandana-compare.py /tmp/ch1 /tmp/ch64
// COPIES (a square number: 1, 4, 64 is 8 x 8) lays copies of each mode's graph side by side, each
// joined to its east and north neighbours by two-way links between 8 border nodes (10 m/s): 64
// copies of Helsinki are 474k foot nodes, 477k car nodes (turn copies included). For foot and car,
// random pairs of nodes (nearest nodes of random positions in a random copy) are timed: each query
// once untimed, then 5 times each way interleaved, the median kept; then, as pandana-compare.py times
// pandana, all pairs one after the other (7 rounds; the thread's CPU time over the pair count, the
// median round). OUT gets, per mode,
// MODE-nodes.txt ("x y" a line), MODE-edges.txt ("from to seconds"), MODE-pairs.txt ("from to
// seconds"; seconds as DeviceSim found them).
import DeviceSimHAL
import DeviceSimRoads
import Foundation

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: route-hierarchy EXTRACT.osm.pbf [PAIRS] [SEED] [COPIES] [OUT]\n".utf8))
    exit(2)
}
let pairCount = arguments.count > 2 ? Int(arguments[2])! : 2000
nonisolated(unsafe) var state: UInt64 = arguments.count > 3 ? UInt64(arguments[3])! : 5
let copies = arguments.count > 4 ? Int(arguments[4])! : 1
let output = arguments.count > 5 ? arguments[5] : nil
let side = Int(Double(copies).squareRoot().rounded())
guard side * side == copies else { fatalError("COPIES must be a square number") }
@MainActor func nextRandom() -> Double {
    state = state &* 6364136223846793005 &+ 1442695040888963407
    return Double(state >> 11) / Double(1 << 53)
}
func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
func microseconds(_ duration: Duration) -> Double { Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) * 1e-12 }
func format(_ value: Double) -> String { String(format: "%.1f", value) }
/// The process's CPU time so far (user and system), seconds.
func processorSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}
/// This thread's CPU time so far, seconds (what a query costs, without the time other processes
/// take the processor from it).
func threadProcessorSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

let network = try RoadNetwork(contentsOf: arguments[1])
let latitudes = network.coordinates.map(\.latitude), longitudes = network.coordinates.map(\.longitude)
let box = (south: latitudes.min()!, north: latitudes.max()!, west: longitudes.min()!, east: longitudes.max()!)
let (height, width) = ((box.north - box.south) * 1.02, (box.east - box.west) * 1.02)
let clock = ContinuousClock()

/// `copies` copies of `graph` side by side, joined at their borders.
@MainActor func tiled(_ graph: RoadGraph, mode: TravelMode) -> RoadGraph {
    guard copies > 1 else { return graph }
    let n = graph.nodeCount
    var coordinates: [GeoCoordinate] = [], edges: [RoadGraph.Edge] = []
    coordinates.reserveCapacity(n * copies)
    edges.reserveCapacity((graph.edgeCount + 64) * copies)
    func border(_ positions: [GeoCoordinate]) -> [Int32] { positions.map { network.nearestNode(to: $0, for: mode)!.node } }
    let steps = (0..<8).map { (Double($0) + 0.5) / 8 }
    let east = border(steps.map { GeoCoordinate(latitude: box.south + (box.north - box.south) * $0, longitude: box.east) })
    let west = border(steps.map { GeoCoordinate(latitude: box.south + (box.north - box.south) * $0, longitude: box.west) })
    let north = border(steps.map { GeoCoordinate(latitude: box.north, longitude: box.west + (box.east - box.west) * $0) })
    let south = border(steps.map { GeoCoordinate(latitude: box.south, longitude: box.west + (box.east - box.west) * $0) })
    for row in 0..<side {
        for column in 0..<side {
            let offset = Int32((row * side + column) * n)
            for c in graph.coordinates { coordinates.append(GeoCoordinate(latitude: c.latitude + Double(row) * height, longitude: c.longitude + Double(column) * width)) }
            for node in 0..<Int32(n) {
                for edge in graph.edges(of: node) { edges.append(.init(from: node + offset, to: graph.edgeTargets[edge] + offset, seconds: graph.edgeSeconds[edge])) }
            }
        }
    }
    func link(_ a: Int32, _ b: Int32) {
        let seconds = coordinates[Int(a)].distance(to: coordinates[Int(b)]) / 10
        edges.append(.init(from: a, to: b, seconds: seconds))
        edges.append(.init(from: b, to: a, seconds: seconds))
    }
    for row in 0..<side {
        for column in 0..<side {
            let here = Int32((row * side + column) * n)
            if column + 1 < side { for i in 0..<8 { link(east[i] + here, west[i] + here + Int32(n)) } }
            if row + 1 < side { for i in 0..<8 { link(north[i] + here, south[i] + here + Int32(side * n)) } }
        }
    }
    return RoadGraph(mode: mode, coordinates: coordinates, edges: edges)
}

let modes = arguments.count > 6 ? arguments[6].split(separator: ",").map { TravelMode(rawValue: String($0))! } : [TravelMode.car, .foot]
for mode in modes {
    let base = network.graph(for: mode)
    let graph = tiled(base, mode: mode)
    var begin = clock.now
    let cpuBefore = processorSeconds()
    let hierarchy = graph.hierarchy
    let buildTime = begin.duration(to: clock.now), buildProcessorTime = processorSeconds() - cpuBefore
    begin = clock.now
    _ = graph.landmarks
    let landmarkTime = begin.duration(to: clock.now)
    var alt = RouteSearch(graph), ch = HierarchySearch(graph: graph, hierarchy: hierarchy)
    var pairs: [(Int32, Int32)] = []
    while pairs.count < pairCount {
        func randomNode() -> Int32 {
            let copy = Int32(Int(nextRandom() * Double(copies)) * base.nodeCount)
            let position = GeoCoordinate(latitude: box.south + (box.north - box.south) * nextRandom(), longitude: box.west + (box.east - box.west) * nextRandom())
            return network.nearestNode(to: position, for: mode)!.node + copy
        }
        let a = randomNode(), b = randomNode()
        if a != b { pairs.append((a, b)) }
    }
    var altTimes: [Double] = [], timeOnly: [Double] = [], withPath: [Double] = [], settledALT: [Double] = [], settledCH: [Double] = []
    var differing = 0, unreachable = 0, lines = ""
    for (a, b) in pairs {
        let exact = alt.fastestPath(from: a, to: b)
        let found = ch.fastestPath(from: [.init(node: a)], to: [.init(node: b)])
        if exact != found { differing += 1 }
        if exact == nil { unreachable += 1 }
        settledALT.append(Double(alt.settledCount))
        settledCH.append(Double(ch.settledCount))
        lines += "\(a) \(b) \(exact?.seconds ?? -1)\n"
        var times: ([Double], [Double], [Double]) = ([], [], [])
        for _ in 0..<5 {
            var start = clock.now
            _ = alt.fastestTime(from: a, to: b)
            times.0.append(microseconds(start.duration(to: clock.now)))
            start = clock.now
            _ = ch.searchedTime(from: [.init(node: a)], to: [.init(node: b)])
            times.1.append(microseconds(start.duration(to: clock.now)))
            start = clock.now
            _ = ch.fastestPath(from: [.init(node: a)], to: [.init(node: b)])
            times.2.append(microseconds(start.duration(to: clock.now)))
        }
        altTimes.append(median(times.0))
        timeOnly.append(median(times.1))
        withPath.append(median(times.2))
    }
    // All pairs one after the other, as pandana answers a list of pairs: CPU µs a query, the median of 7 rounds.
    var inSequence: ([Double], [Double]) = ([], [])
    for _ in 0..<7 {
        var begin = threadProcessorSeconds()
        for (a, b) in pairs { _ = ch.searchedTime(from: [.init(node: a)], to: [.init(node: b)]) }
        inSequence.0.append((threadProcessorSeconds() - begin) * 1e6 / Double(pairs.count))
        begin = threadProcessorSeconds()
        for (a, b) in pairs { _ = ch.fastestPath(from: [.init(node: a)], to: [.init(node: b)]) }
        inSequence.1.append((threadProcessorSeconds() - begin) * 1e6 / Double(pairs.count))
    }
    let mean = { (values: [Double]) in values.reduce(0, +) / Double(values.count) }
    print("\(mode.rawValue) x\(copies): \(graph.nodeCount) nodes, \(graph.edgeCount) edges; hierarchy built in \(format(microseconds(buildTime) / 1000)) ms (\(format(buildProcessorTime * 1000)) ms CPU), \(hierarchy.arcCount) arcs; landmarks \(format(microseconds(landmarkTime) / 1000)) ms")
    print("  \(pairs.count) pairs (\(unreachable) unreachable), \(differing) with another path or time than A*")
    print("  A* with landmarks: median \(format(median(altTimes))) µs, mean \(format(mean(altTimes))) µs, \(format(median(settledALT))) settled at the median")
    print("  hierarchy, time only: median \(format(median(timeOnly))) µs, mean \(format(mean(timeOnly))) µs, \(format(median(settledCH))) settled at the median")
    print("  hierarchy, with the path unpacked: median \(format(median(withPath))) µs, mean \(format(mean(withPath))) µs")
    print("  hierarchy, all pairs in sequence (CPU, median of 7 rounds): time only \(format(median(inSequence.0))) µs a query, with the path \(format(median(inSequence.1))) µs")
    if let output {
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        var nodes = "", edges = ""
        for c in graph.coordinates { nodes += "\(c.longitude) \(c.latitude)\n" }
        for node in 0..<Int32(graph.nodeCount) {
            for edge in graph.edges(of: node) { edges += "\(node) \(graph.edgeTargets[edge]) \(graph.edgeSeconds[edge])\n" }
        }
        try nodes.write(toFile: "\(output)/\(mode.rawValue)-nodes.txt", atomically: true, encoding: .utf8)
        try edges.write(toFile: "\(output)/\(mode.rawValue)-edges.txt", atomically: true, encoding: .utf8)
        try lines.write(toFile: "\(output)/\(mode.rawValue)-pairs.txt", atomically: true, encoding: .utf8)
        try "\(median(timeOnly)) \(mean(timeOnly)) \(median(withPath)) \(mean(withPath)) \(median(altTimes)) \(mean(altTimes)) \(median(inSequence.0)) \(median(inSequence.1))\n".write(toFile: "\(output)/\(mode.rawValue)-swift.txt", atomically: true, encoding: .utf8)
    }
}
