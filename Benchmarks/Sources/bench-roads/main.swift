// Road benchmarks, run in release mode (never as timed tests):
//   swift run -c release --package-path Benchmarks bench-roads [helsinki.osm.pbf]
// 1. Reading the OSM PBF extract into a road network, next to `osmium cat` on the same file
//    (Debian's osmium-tool, `apt-get install osmium-tool`; without it the comparison is skipped).
// 2. 10,000 random route queries on the Helsinki foot graph: the search with landmarks (ALT, as
//    RoutePlanner uses it) and with the straight-line bound only (landmarkCount 0), next to networkx
//    on the same graph and queries (`pip install networkx`; answers compared to 1e-9 relative).
// 3. A generated 1,000,000-node road graph: landmark preprocessing, query times with and without
//    landmarks, and graph memory (landmark tables included).
import DeviceSim
import Foundation

let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let extractPath = CommandLine.arguments.dropFirst().first ?? repository.appendingPathComponent("Simulator/worlds/helsinki.osm.pbf").path
let clock = ContinuousClock()

func milliseconds(_ duration: Duration) -> Double { Double(duration.components.seconds) * 1e3 + Double(duration.components.attoseconds) * 1e-15 }
func percentile(_ values: [Double], _ fraction: Double) -> Double {
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int(fraction * Double(sorted.count)))]
}
func format(_ value: Double, _ digits: Int = 3) -> String { String(format: "%.\(digits)f", value) }
func kilobytes(_ field: String) -> Int {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    for line in status.split(separator: "\n") where line.hasPrefix(field + ":") {
        return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "0") ?? 0
    }
    return 0
}
@discardableResult
func run(_ arguments: [String], output: URL? = nil) -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    process.standardOutput = output.flatMap { try? FileHandle(forWritingTo: $0) } ?? FileHandle.nullDevice
    process.standardError = FileHandle.standardError
    do { try process.run() } catch { return -1 }
    process.waitUntilExit()
    return process.terminationStatus
}

// MARK: 1. Reading the extract

print("== 1. Reading \(extractPath) (\(try FileManager.default.attributesOfItem(atPath: extractPath)[.size] ?? 0) bytes), 21 rounds, medians")
let osmiumAvailable = run(["osmium", "--version"]) == 0
var decodeTimes: [Double] = [], networkTimes: [Double] = [], osmiumTimes: [Double] = []
var network: RoadNetwork!
for round in 0..<21 {
    var begin = clock.now
    let extract = try OSMPBFReader.read(contentsOf: extractPath)
    let decoded = clock.now
    network = RoadNetwork(extract)
    let built = clock.now
    if round > 0 { decodeTimes.append(milliseconds(begin.duration(to: decoded))); networkTimes.append(milliseconds(begin.duration(to: built))) }
    if osmiumAvailable {
        begin = clock.now
        run(["osmium", "cat", extractPath, "-f", "opl", "-o", "/dev/null", "-O", "--no-progress"])
        if round > 0 { osmiumTimes.append(milliseconds(begin.duration(to: clock.now))) }
    }
}
print("  OSMPBFReader.read (decode only)          \(format(percentile(decodeTimes, 0.5))) ms")
print("  RoadNetwork(contentsOf:) (decode+graphs) \(format(percentile(networkTimes, 0.5))) ms  (\(network.coordinates.count) nodes; edges foot \(network.foot.edgeCount), bike \(network.bike.edgeCount), car \(network.car.edgeCount))")
if osmiumAvailable {
    print("  osmium cat -f opl -o /dev/null (process) \(format(percentile(osmiumTimes, 0.5))) ms")
    print("  ratio osmium / RoadNetwork               \(format(percentile(osmiumTimes, 0.5) / percentile(networkTimes, 0.5), 2))x")
} else {
    print("  osmium not installed (Debian osmium-tool): no comparison")
}

// MARK: 2. Helsinki queries against networkx

let queryCount = 10_000
let graph = network.foot
print("\n== 2. \(queryCount) random queries on the Helsinki foot graph (\(graph.nodeCount) nodes, \(graph.edgeCount) edges)")
var random = SeededRandomGenerator(seed: 2026)
let snappable = (0..<Int32(graph.nodeCount)).filter { network.nearestNode(to: graph.coordinates[Int($0)], for: .foot)?.node == $0 }
let pairs = (0..<queryCount).map { _ in (snappable[Int(random.next() % UInt64(snappable.count))], snappable[Int(random.next() % UInt64(snappable.count))]) }
var begin = clock.now
let helsinkiLandmarks = graph.landmarks
print("  landmarks: \(helsinkiLandmarks.count), chosen and timed in \(format(milliseconds(begin.duration(to: clock.now)), 1)) ms, \(format(Double(helsinkiLandmarks.memoryFootprint) / 1024, 1)) KiB")
var graphEdges: [RoadGraph.Edge] = []
for node in 0..<Int32(graph.nodeCount) {
    for edge in graph.edges(of: node) { graphEdges.append(.init(from: node, to: graph.edgeTargets[edge], seconds: graph.edgeSeconds[edge])) }
}
let straightLineGraph = RoadGraph(mode: .foot, coordinates: graph.coordinates, edges: graphEdges, landmarkCount: 0)
func measure(_ graph: RoadGraph) -> (times: [Double], answers: [Double?], settled: [Double]) {
    var search = RouteSearch(graph)
    var times: [Double] = [], answers: [Double?] = [], settled: [Double] = []
    for (source, target) in pairs {
        let begin = clock.now
        let answer = search.fastestTime(from: source, to: target)
        times.append(milliseconds(begin.duration(to: clock.now)) * 1000)
        answers.append(answer)
        settled.append(Double(search.settledCount))
    }
    return (times, answers, settled)
}
let straightLine = measure(straightLineGraph)
let (swiftTimes, answers, settled) = measure(graph)
func differ(_ a: Double?, _ b: Double?) -> Bool {
    switch (a, b) {
    case (nil, nil): false
    case (let a?, let b?): abs(a - b) > 1e-9 * b
    default: true
    }
}
let straightLineMismatches = zip(answers, straightLine.answers).filter { differ($0, $1) }.count
print("  Swift A*, straight-line bound only     median \(format(percentile(straightLine.times, 0.5), 1)) µs  p99 \(format(percentile(straightLine.times, 0.99), 1)) µs  (median \(Int(percentile(straightLine.settled, 0.5))) nodes settled)")
print("  Swift A* with landmarks (ALT)          median \(format(percentile(swiftTimes, 0.5), 1)) µs  p99 \(format(percentile(swiftTimes, 0.99), 1)) µs  (median \(Int(percentile(settled, 0.5))) nodes settled, p99 \(Int(percentile(settled, 0.99))))")
print("  ALT faster than straight-line A*: median \(format(percentile(straightLine.times, 0.5) / percentile(swiftTimes, 0.5), 1))x, p99 \(format(percentile(straightLine.times, 0.99) / percentile(swiftTimes, 0.99), 1))x; answers differing by more than 1e-9 relative: \(straightLineMismatches)")

let folder = FileManager.default.temporaryDirectory.appendingPathComponent("roads-benchmark-\(getpid())")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }
var edgesText = ""
for node in 0..<Int32(graph.nodeCount) {
    for edge in graph.edges(of: node) { edgesText += "\(node) \(graph.edgeTargets[edge]) \(graph.edgeSeconds[edge])\n" }
}
let edgesFile = folder.appendingPathComponent("edges.txt"), queriesFile = folder.appendingPathComponent("queries.txt")
let answersFile = folder.appendingPathComponent("answers.txt"), reportFile = folder.appendingPathComponent("report.txt")
try edgesText.write(to: edgesFile, atomically: true, encoding: .utf8)
try pairs.map { "\($0.0) \($0.1)\n" }.joined().write(to: queriesFile, atomically: true, encoding: .utf8)
guard FileManager.default.createFile(atPath: reportFile.path, contents: nil) else {
    throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: reportFile.path])
}
let script = repository.appendingPathComponent("Benchmarks/Sources/bench-roads/networkx_benchmark.py").path
if run(["python3", script, edgesFile.path, queriesFile.path, answersFile.path], output: reportFile) == 0 {
    let theirs = try String(contentsOf: answersFile, encoding: .utf8).split(separator: "\n").map { Double($0) }
    let mismatches = zip(answers, theirs).filter { differ($0, $1) }.count
    for line in try String(contentsOf: reportFile, encoding: .utf8).split(separator: "\n") {
        let parts = line.split(separator: " ")
        guard parts.count == 3, let median = Double(parts[1]), let p99 = Double(parts[2]) else { continue }
        print("  networkx \(parts[0].padding(toLength: 22, withPad: " ", startingAt: 0)) median \(format(median, 1)) µs  p99 \(format(p99, 1)) µs  -> Swift faster: median \(format(median / percentile(swiftTimes, 0.5), 1))x, p99 \(format(p99 / percentile(swiftTimes, 0.99), 1))x")
    }
    print("  answers differing from networkx's Dijkstra by more than 1e-9 relative: \(mismatches) of \(pairs.count)")
} else {
    print("  python3 with networkx not available (pip install networkx): no comparison")
}

// MARK: 3. A generated 1,000,000-node graph

let side = 1_000
print("\n== 3. A generated \(side)x\(side) street grid (\(side * side) nodes)")
let rssBefore = kilobytes("VmRSS")
func makeGrid(landmarkCount: Int?) -> RoadGraph {
    let origin = GeoCoordinate(latitude: 60.0, longitude: 24.0)
    let spacing = 60.0  // metres between crossings
    var coordinates: [GeoCoordinate] = []
    coordinates.reserveCapacity(side * side)
    for row in 0..<side {
        for column in 0..<side { coordinates.append(origin.offsetBy(east: Double(column) * spacing, north: Double(row) * spacing)) }
    }
    var edges: [RoadGraph.Edge] = []
    edges.reserveCapacity(side * side * 4)
    var random = SeededRandomGenerator(seed: 1)
    for row in 0..<side {
        for column in 0..<side {
            let node = row * side + column
            for (next, arterial) in [(column + 1 < side ? node + 1 : -1, row % 10 == 0), (row + 1 < side ? node + side : -1, column % 10 == 0)] where next >= 0 {
                // Arterials every 10th street at 50-60 km/h, other streets 20-40 km/h; 8% of minor
                // street segments missing, 5% of the rest one-way.
                let roll = random.next() % 100
                if !arterial, roll < 8 { continue }
                let kmh = arterial ? 50 + Double(random.next() % 11) : 20 + Double(random.next() % 21)
                let seconds = coordinates[node].distance(to: coordinates[next]) / (kmh / 3.6)
                edges.append(.init(from: Int32(node), to: Int32(next), seconds: seconds))
                if arterial || roll >= 13 { edges.append(.init(from: Int32(next), to: Int32(node), seconds: seconds)) }
            }
        }
    }
    return RoadGraph(mode: .car, coordinates: coordinates, edges: edges, landmarkCount: landmarkCount)
}
var big: RoadGraph! = makeGrid(landmarkCount: nil)
begin = clock.now
let bigLandmarks = big.landmarks
let preprocessing = milliseconds(begin.duration(to: clock.now))
let rssAfter = kilobytes("VmRSS")
print("  \(big.nodeCount) nodes, \(big.edgeCount) edges; \(bigLandmarks.count) landmarks chosen and timed in \(format(preprocessing / 1000, 2)) s")
print("  graph memory \(format(Double(big.memoryFootprint) / 1_048_576, 1)) MiB (\(format(Double(big.memoryFootprint) / 1e6, 1)) MB), of which landmark tables \(format(Double(bigLandmarks.memoryFootprint) / 1_048_576, 1)) MiB; process RSS +\(format(Double(rssAfter - rssBefore) / 1024, 1)) MiB after building, peak RSS \(format(Double(kilobytes("VmHWM")) / 1024, 1)) MiB")
func measureBig(_ graph: RoadGraph) -> (times: [Double], settled: [Double], answers: [Double?]) {
    var search = RouteSearch(graph)
    var times: [Double] = [], settled: [Double] = [], answers: [Double?] = []
    var random = SeededRandomGenerator(seed: 3)
    for _ in 0..<100 {
        let source = Int32(random.next() % UInt64(graph.nodeCount)), target = Int32(random.next() % UInt64(graph.nodeCount))
        let begin = clock.now
        answers.append(search.fastestTime(from: source, to: target))
        times.append(milliseconds(begin.duration(to: clock.now)))
        settled.append(Double(search.settledCount))
    }
    return (times, settled, answers)
}
let alt = measureBig(big)
print("  search scratch memory: \(format(Double(big.nodeCount * 20) / 1_048_576, 1)) MiB")
big = nil
let straight = measureBig(makeGrid(landmarkCount: 0))
for (name, result) in [("straight-line bound only", straight), ("with landmarks (ALT)    ", alt)] {
    print("  100 random queries, \(name): median \(format(percentile(result.times, 0.5), 1)) ms, p99 \(format(percentile(result.times, 0.99), 1)) ms, max \(format(result.times.max()!, 1)) ms (median \(Int(percentile(result.settled, 0.5))) nodes settled; \(result.answers.filter { $0 == nil }.count) unreachable)")
}
print("  ALT faster: median \(format(percentile(straight.times, 0.5) / percentile(alt.times, 0.5), 1))x, p99 \(format(percentile(straight.times, 0.99) / percentile(alt.times, 0.99), 1))x; answers differing by more than 1e-9 relative: \(zip(alt.answers, straight.answers).filter { differ($0, $1) }.count)")
