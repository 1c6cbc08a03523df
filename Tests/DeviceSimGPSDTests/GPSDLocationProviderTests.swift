@testable import DeviceSimGPSD
import DeviceSimHAL
import DeviceSimTime
import DeviceSimTestSupport
import Foundation
import Testing

/// The gpsd driver against a real gpsd (served by gpsfake). Serialized: each test owns its gpsd.
@Suite(.serialized, .enabled(if: SlowTests.run, "slow: DEVICESIM_SLOW_TESTS=1 swift test (or .ci/run) runs it"), .enabled(if: GPSFake.shouldRun, "gpsd and gpsfake (Debian gpsd, gpsd-clients) are not installed"))
struct GPSDLocationProviderTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let walk = repository.appendingPathComponent("Simulator/tracks/tiergarten-walk.nmea")

    /// Collects what the provider reports, on the simulation's thread.
    final class Collector {
        var fixes: [LocationFix] = []
        var unavailable: [String] = []
        var connections: [String] = []
        var subscriptions: [ObservationToken] = []
    }

    /// Runs `scheduler` on the wall clock until `done` or `limit`.
    func runLive(_ scheduler: EventScheduler, limit: Duration, until done: @escaping () -> Bool) throws {
        let stop = StopSignal()
        let check = scheduler.repeating(every: .milliseconds(20)) { _ in if done() { stop.raise() } }
        try WallClockDriver().run(scheduler, for: limit, stop: stop)
        check.cancel()
    }

    func makeProvider(port: Int, scheduler: EventScheduler, staleAfter: Duration = .seconds(5)) -> (GPSDLocationProvider, Collector) {
        let provider = GPSDLocationProvider(scheduler: scheduler, endpoint: GPSDEndpoint(host: "127.0.0.1", port: port), staleAfter: staleAfter)
        let collector = Collector()
        collector.subscriptions.append(provider.observe { update in
            switch update {
            case .fix(let fix): collector.fixes.append(fix)
            case .unavailable(let reason): collector.unavailable.append(reason)
            case .satellites: break
            }
        })
        collector.subscriptions.append(provider.observeConnection { event in
            switch event {
            case .connected: collector.connections.append("connected")
            case .connectFailed: collector.connections.append("failed")
            case .disconnected: collector.connections.append("disconnected")
            default: break
            }
        })
        return (provider, collector)
    }

    @Test func fixesMatchWhatGpspipeReports() throws {
        let fake = try GPSFake(log: Self.walk)
        defer { fake.stop() }
        try fake.waitUntilReady()
        let pipe = Process()
        pipe.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        pipe.arguments = ["20", "/usr/bin/gpspipe", "-w", "-n", "150", "127.0.0.1:\(fake.port)"]
        let outputFile = fake.folder.appendingPathComponent("gpspipe.json")
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        let output = try FileHandle(forWritingTo: outputFile)
        pipe.standardOutput = output
        pipe.standardError = FileHandle.nullDevice
        try pipe.run()

        let scheduler = EventScheduler()
        let (provider, collector) = makeProvider(port: fake.port, scheduler: scheduler)
        provider.start()
        try runLive(scheduler, limit: .seconds(30)) { collector.fixes.count >= 25 }
        provider.stop()
        pipe.waitUntilExit()
        try output.close()
        let piped = try Data(contentsOf: outputFile)

        #expect(collector.fixes.count >= 25)
        var gpspipe: [Date: (Double, Double)] = [:]
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        for line in String(decoding: piped, as: UTF8.self).split(whereSeparator: \.isNewline) where line.contains("\"class\":\"TPV\"") {
            guard let json = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any],
                let time = (json["time"] as? String).flatMap(formatter.date(from:)), let lat = json["lat"] as? Double, let lon = json["lon"] as? Double
            else { continue }
            gpspipe[time] = (lat, lon)
        }
        #expect(!gpspipe.isEmpty, "gpspipe exited \(pipe.terminationStatus) (\(pipe.terminationReason == .exit ? "exit" : "signal")) after printing \(piped.count) bytes")
        var compared = 0
        for fix in collector.fixes {
            guard let time = fix.time, let (lat, lon) = gpspipe[time] else { continue }
            #expect(abs(fix.coordinate.latitude - lat) < 1e-9 && abs(fix.coordinate.longitude - lon) < 1e-9, "at \(time)")
            compared += 1
        }
        #expect(compared >= 10, "fixes seen by both clients")
        // The log is a walk along a line of latitude 52.5145 for its first kilometre.
        #expect(collector.fixes.allSatisfy { abs($0.coordinate.latitude - 52.5145) < 0.01 })
        #expect(collector.fixes.filter { $0.mode == .threeDimensional && $0.altitude == 35 && $0.speed != nil }.count >= collector.fixes.count - 2)
    }

    @Test func withoutGpsdTheErrorNamesTheAddressAndTheDriverRetries() throws {
        let port = try GPSFake.freePort()
        let scheduler = EventScheduler()
        let (provider, collector) = makeProvider(port: port, scheduler: scheduler)
        provider.start()
        try runLive(scheduler, limit: .seconds(10)) { collector.connections.count >= 3 }
        provider.stop()
        #expect(collector.connections.prefix(3) == ["failed", "failed", "failed"])
        let reason = try #require(collector.unavailable.first)
        #expect(reason.contains("cannot connect to gpsd at 127.0.0.1:\(port) (Connection refused)"))
        #expect(reason.contains("retrying in 0.25 seconds"))
        #expect(provider.currentFix == nil)
        #expect(GPSDReader.initialBackoff * 16 == GPSDReader.maximumBackoff)
    }

    @Test func whenGpsdDiesLocationIsUnavailableAndTheDriverReconnects() throws {
        let first = try GPSFake(log: Self.walk)
        try first.waitUntilReady()
        let port = first.port
        let scheduler = EventScheduler()
        let (provider, collector) = makeProvider(port: port, scheduler: scheduler)
        provider.start()
        try runLive(scheduler, limit: .seconds(20)) { collector.fixes.count >= 5 }
        #expect(collector.fixes.count >= 5)

        first.stop()
        try runLive(scheduler, limit: .seconds(10)) { !collector.unavailable.isEmpty }
        #expect(collector.connections.contains("disconnected"))
        #expect(provider.currentFix == nil)
        let before = collector.fixes.count

        let second = try GPSFake(log: Self.walk, port: port)
        defer { second.stop() }
        try runLive(scheduler, limit: .seconds(30)) { collector.fixes.count >= before + 5 }
        provider.stop()
        #expect(collector.fixes.count >= before + 5)
        #expect(collector.connections.filter { $0 == "connected" }.count >= 2)
    }

    @Test func endpointsParse() throws {
        #expect(try GPSDEndpoint(parsing: "localhost:2947") == GPSDEndpoint(host: "localhost", port: 2947))
        #expect(try GPSDEndpoint(parsing: "gps.local") == GPSDEndpoint(host: "gps.local", port: 2947))
        #expect(try GPSDEndpoint(parsing: ":3000") == GPSDEndpoint(host: "localhost", port: 3000))
        #expect(try GPSDEndpoint(parsing: "[::1]:2948") == GPSDEndpoint(host: "::1", port: 2948))
        #expect(throws: GPSDError.self) { try GPSDEndpoint(parsing: "host:notaport") }
        #expect(throws: GPSDError.self) { try GPSDEndpoint(parsing: "host:70000") }
    }
}
