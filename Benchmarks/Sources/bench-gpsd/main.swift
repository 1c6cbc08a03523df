// Latency the gpsd driver adds between gpsd's report and the flow's reaction.
//
// A real gpsd (gpsfake) serves an NMEA log fast; the driver reads reports on its thread and hands
// them to the simulation thread, which runs on the wall clock (WallClockDriver), where a flow-side
// observer sees them. For each report: time from gps_read returning to the observer running.
//   swift run -c release --package-path Benchmarks bench-gpsd [LOG] [REPORTS]
import DeviceSim
import DeviceSimGPSD
import Foundation

func freePort() -> Int {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
    _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) } }
    return Int(UInt16(bigEndian: address.sin_port))
}

func main() throws {
    let arguments = CommandLine.arguments.dropFirst()
    let log = arguments.first ?? "../Simulator/tracks/tiergarten-walk.nmea"
    let wanted = arguments.dropFirst().first.flatMap(Int.init) ?? 3_000
    let port = freePort()
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bench-gpsd-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let gpsfake = Process()
    gpsfake.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
    gpsfake.arguments = ["-k", "5", "300", "/usr/bin/gpsfake", "-q", "-P", String(port), "-c", "0.002", log]
    gpsfake.environment = ["TMPDIR": folder.path, "PATH": "/usr/sbin:/usr/bin:/bin"]
    gpsfake.standardOutput = FileHandle.nullDevice
    gpsfake.standardError = FileHandle.nullDevice
    try gpsfake.run()
    defer {
        kill(-gpsfake.processIdentifier, SIGTERM)
        gpsfake.waitUntilExit()
        try? FileManager.default.removeItem(at: folder)
    }

    let scheduler = EventScheduler()
    let provider = GPSDLocationProvider(scheduler: scheduler, endpoint: GPSDEndpoint(host: "127.0.0.1", port: port))
    var latencies: [Double] = []
    latencies.reserveCapacity(wanted)
    let stop = StopSignal()
    let subscription = provider.observeConnection { event in
        guard case .fix(let fix, _, let receivedAt) = event, fix.hasPosition else { return }
        latencies.append(receivedAt.duration(to: .now).inSeconds * 1e6)
        if latencies.count >= wanted { stop.raise() }
    }
    provider.start()
    try WallClockDriver().run(scheduler, for: .seconds(240), stop: stop)
    provider.stop()
    subscription.cancel()
    guard !latencies.isEmpty else { fatalError("no fixes from gpsfake on port \(port)") }
    latencies.sort()
    func percentile(_ p: Double) -> Double { latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))] }
    print("gpsd driver latency over \(latencies.count) reports (gps_read returned -> observer on the simulation thread):")
    print(String(format: "  p50 %.1f µs   p90 %.1f µs   p99 %.1f µs   max %.1f µs", percentile(0.5), percentile(0.9), percentile(0.99), latencies.last!))
}

try main()
