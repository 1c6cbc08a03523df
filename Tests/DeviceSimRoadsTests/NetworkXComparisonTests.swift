import DeviceSimHAL
import DeviceSimRoads
import DeviceSimTestSupport
import DeviceSimTime
import Foundation
import Testing

/// Whether the networkx comparison runs: it is slow (Python's Dijkstra, 1,000 queries a mode), so with the
/// slow suites only (`DEVICESIM_SLOW_TESTS=1`, or `.ci/run`), where the project's Python (`.venv`, else
/// python3) has networkx, and always on CI (`CI` set), where a missing networkx fails the test instead of skipping it.
private let networkXAvailable: Bool = {
    let process = ProjectPython.process(arguments: ["-c", "import networkx"])
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    guard (try? process.run()) != nil else { return false }
    process.waitUntilExit()
    return process.terminationStatus == 0
}()

@Suite(
    .enabled(if: SlowTests.run, "slow: DEVICESIM_SLOW_TESTS=1 swift test (or .ci/run) runs it"),
    .enabled(if: networkXAvailable || ProcessInfo.processInfo.environment["CI"] != nil, "python3 with networkx is not available (.ci/install-deps puts it in .venv)")
)
struct NetworkXComparisonTests {
    /// 1,000 random queries per travel mode on the Helsinki graph: the same least travel times as
    /// networkx's Dijkstra on the same graph (exported here), to 1e-9 relative, and the same
    /// unreachable pairs.
    @Test(arguments: TravelMode.allCases)
    func travelTimesMatchNetworkX(mode: TravelMode) throws {
        let graph = Helsinki.network.graph(for: mode)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("networkx-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        var edges = ""
        for node in 0..<Int32(graph.nodeCount) {
            for edge in graph.edges(of: node) { edges += "\(node) \(graph.edgeTargets[edge]) \(graph.edgeSeconds[edge])\n" }
        }
        // Queries between nodes that have edges (networkx knows only those), from a fixed seed.
        let nodes = (0..<Int32(graph.nodeCount)).filter { !graph.edges(of: $0).isEmpty }
        try #require(nodes.count > 1_000)
        var random = SeededRandomGenerator(seed: UInt64(mode.rawValue.utf8.reduce(0) { $0 &* 31 &+ UInt64($1) }))
        let queries = (0..<1_000).map { _ in (nodes[Int(random.next() % UInt64(nodes.count))], nodes[Int(random.next() % UInt64(nodes.count))]) }
        let edgesFile = folder.appendingPathComponent("edges.txt"), queriesFile = folder.appendingPathComponent("queries.txt")
        try edges.write(to: edgesFile, atomically: true, encoding: .utf8)
        try queries.map { "\($0.0) \($0.1)\n" }.joined().write(to: queriesFile, atomically: true, encoding: .utf8)

        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/networkx_travel_times.py")
        let process = ProjectPython.process(arguments: [script.path, edgesFile.path, queriesFile.path])
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "python3 with networkx failed (.ci/install-deps puts networkx in .venv)")
        let answers = String(decoding: data, as: UTF8.self).split(separator: "\n")
        try #require(answers.count == queries.count)

        var search = RouteSearch(graph)
        var reachable = 0
        for ((source, target), answer) in zip(queries, answers) {
            let ours = search.fastestTime(from: source, to: target)
            if answer == "unreachable" {
                #expect(ours == nil, "\(mode) \(source) -> \(target): networkx finds no path, we found \(ours!) s")
            } else {
                let theirs = try #require(Double(answer))
                let time = try #require(ours, "\(mode) \(source) -> \(target): networkx finds \(theirs) s, we found no path")
                #expect(abs(time - theirs) <= 1e-9 * max(abs(theirs), 1e-300), "\(mode) \(source) -> \(target): \(time) s, networkx \(theirs) s")
                // The path's edges add up to its time.
                let found = search.fastestPath(from: source, to: target)
                let path = try #require(found)
                let sum = zip(path.nodes, path.nodes.dropFirst()).reduce(0.0) { $0 + graph.seconds(from: $1.0, to: $1.1)! }
                #expect(abs(sum - theirs) <= 1e-9 * max(theirs, 1e-300))
                reachable += 1
            }
        }
        // Most pairs are connected (a test of only unreachable pairs would prove little).
        #expect(reachable > 500)
    }
}
