import DeviceSimTestSupport
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `devicesim serve` read by a real gpsd: the loop scenario -> serve -> gpsd -> gpspipe and record ->
/// playback, on free loopback ports, every process stopped by its PID.
@Suite(.serialized, .enabled(if: SlowTests.run, "slow: DEVICESIM_SLOW_TESTS=1 swift test (or .ci/run) runs it"), .enabled(if: LiveGPSD.shouldRun, "gpsd and gpsd-clients (Debian) are not installed"))
struct ServeThroughGPSDTests {
    /// A walk east at 2 m/s from the Tiergarten with a 20-second tunnel at 40 s; the dog-walk app starts
    /// half a second after a fix and moves its marker every 5 seconds (so each marker position is the
    /// fix of a whole second, in the scenario and in a playback shifted by whole seconds).
    static let walk = """
        name: a walk east with a tunnel, served
        seed: 5
        start-time: 2026-05-01T08:00:00Z
        duration: 90s
        devices:
          - id: walker
            at: [52.51450, 13.35010]
            gps: { accuracy: 3, reacquisition: 2s }
            route:
              speed: 2
              waypoints:
                - [52.51450, 13.36500]
            app: { name: dog-walk, settings: { update-interval: 5s } }
        timeline:
          - { at: 10.5s, do: start-service }
          - { at: 40s, do: signal-loss, for: 20s }
        expect:
          - { event: location.unavailable, count: 1, within: [40s, 41s] }
        """

    /// The same app, its location played from `recording`, whose first fix is the scenario's
    /// `skipped` seconds (gpsd may take the first epoch to recognise the receiver): the app starts that
    /// much earlier.
    static func playback(of recording: String, skipped: Int) -> String {
        """
        name: the served walk, recorded through gpsd and played back
        seed: 5
        start-time: 2026-05-01T08:00:00Z
        duration: 90s
        devices:
          - id: walker
            track: { file: \(recording) }
            app: { name: dog-walk, settings: { update-interval: 5s } }
        timeline:
          - { at: \(10.5 - Double(skipped))s, do: start-service }
        """
    }

    @Test func gpsdReadsTheServedReceiverAndARecordingOfItPlaysBackTheSameMarkerPositions() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenario = folder.appendingPathComponent("walk.yaml")
        try Self.walk.write(to: scenario, atomically: true, encoding: .utf8)
        let servePort = try LiveGPSD.freePort()

        // serve waits for gpsd, which connects to it when record asks gpsd for reports.
        let servedTrace = folder.appendingPathComponent("served.jsonl")
        let serve = try CLI.start(["serve", scenario.path, "--nmea-tcp", "127.0.0.1:\(servePort)", "--speed", "10", "--wait-for-client", "-q", "--trace", servedTrace.path])
        try Self.waitUntilListening(servePort)
        let gpsd = try LiveGPSD()
        try gpsd.readNMEA(from: "tcp://127.0.0.1:\(servePort)")
        let recording = folder.appendingPathComponent("served.nmea")
        let record = try CLI.start(["record", "--gpsd", "127.0.0.1:\(gpsd.port)", "--out", recording.path, "--duration", "13s"])
        let reports = folder.appendingPathComponent("gpspipe.json")
        let gpspipe = try Self.gpspipe(port: gpsd.port, seconds: 11, into: reports)

        let served = try serve.finish(timeout: 60)
        #expect(served.status == 0, "\(served.standardError)")
        #expect(served.standardOutput.contains("served 1m30s of the scenario"), "\(served.standardOutput)")
        #expect(served.standardOutput.contains("walker: 91 epochs (70 with a fix)"), "an epoch a second from 0 s to 90 s, none in the 21 s without a fix: \(served.standardOutput)")
        let servedEvents = try LiveFiles.traceEvents(servedTrace)
        #expect(servedEvents.first?["event"] as? String == "scenario.started" && servedEvents.last?["event"] as? String == "scenario.finished")
        #expect(servedEvents.contains { $0["event"] as? String == "location.unavailable" && (40..<41).contains($0["t"] as? Double ?? 0) }, "the tunnel in the served run's trace")
        gpspipe.waitUntilExit()
        let recorded = try record.finish(timeout: 60)
        #expect(recorded.status == 0, "\(recorded.standardError)")
        gpsd.stop()

        // gpspipe's TPV reports: the scenario's clock, the route's positions, the tunnel as mode 1.
        var seen: [(t: Double, mode: Int, lat: Double?, lon: Double?, altitude: Double?)] = []
        // (gpsd ends its lines with CR LF, one Character in Swift.)
        for line in try String(contentsOf: reports, encoding: .utf8).split(whereSeparator: \.isNewline) {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], object["class"] as? String == "TPV",
                let time = object["time"] as? String
            else { continue }
            seen.append((Self.secondsAfterTheStart(time), object["mode"] as? Int ?? 0, object["lat"] as? Double, object["lon"] as? Double, object["altMSL"] as? Double))
        }
        #expect(seen.count >= 60, "gpspipe saw \(seen.count) TPV reports: \((try? String(contentsOf: reports, encoding: .utf8).prefix(2_000)) ?? "no file")")
        #expect(seen.allSatisfy { $0.t >= 0 && $0.t <= 90 && $0.t == $0.t.rounded() }, "whole seconds of the scenario: \(seen.map(\.t))")
        let fixes = seen.filter { $0.mode >= 2 }
        #expect(fixes.contains { $0.t < 40 } && fixes.contains { $0.t > 62 })
        // The scenario gives no altitude: gpsd decodes 3D fixes at the default altitude, as GGA and GSA say.
        #expect(fixes.allSatisfy { $0.mode == 3 && $0.altitude == 0 }, "\(fixes.filter { $0.mode != 3 || $0.altitude != 0 }.prefix(3))")
        let metresPerDegreeLongitude = 111_320 * cos(52.5145 * Double.pi / 180)
        for fix in fixes {
            let expectedLongitude = 13.35010 + 2 * fix.t / metresPerDegreeLongitude
            let east = ((fix.lon ?? 0) - expectedLongitude) * metresPerDegreeLongitude
            let north = ((fix.lat ?? 0) - 52.51450) * 111_320
            #expect((east * east + north * north).squareRoot() < 15, "at \(fix.t) s: \(east) m east, \(north) m north of the route")
            #expect(!(41...61).contains(fix.t), "a fix in the tunnel at \(fix.t) s")
        }
        let withoutFix = seen.filter { $0.mode == 1 }
        #expect(!withoutFix.isEmpty && withoutFix.allSatisfy { (40...62).contains($0.t) }, "mode 1 in the tunnel only: \(withoutFix.map(\.t))")

        // The loop closes: the recording, played back, puts the marker where the scenario itself does.
        let original = folder.appendingPathComponent("original")
        let replayed = folder.appendingPathComponent("replayed")
        let playback = folder.appendingPathComponent("playback.yaml")
        let firstFix = try #require(try LiveFiles.nmeaSentences(recording).first { $0.hasPrefix("$GPGGA,") && $0.split(separator: ",")[6] != "0" })
        let skipped = try #require(Int(firstFix.split(separator: ",")[1].prefix(6))) - 80_000
        #expect((0...3).contains(skipped), "the recording starts \(skipped) s into the scenario")
        try Self.playback(of: recording.lastPathComponent, skipped: skipped).write(to: playback, atomically: true, encoding: .utf8)
        _ = try CLI.run(["run", scenario.path, "--trace", original.path])
        _ = try CLI.run(["run", playback.path, "--trace", replayed.path])
        let markers = try Self.markers(in: original.appendingPathComponent("walk.jsonl"))
        let replayedMarkers = try Self.markers(in: replayed.appendingPathComponent("playback.jsonl"))
        #expect(markers.count >= 10 && replayedMarkers.count >= 10, "\(markers.count) and \(replayedMarkers.count) marker positions")
        var compared = 0
        for (t, position) in markers {
            guard let other = replayedMarkers[t - Double(skipped)] else { continue }
            compared += 1
            let east = (other.lon - position.lon) * metresPerDegreeLongitude, north = (other.lat - position.lat) * 111_320
            #expect((east * east + north * north).squareRoot() < 0.05, "at \(t) s: the replayed marker is \(east) m east, \(north) m north of the scenario's")
        }
        #expect(compared >= 10, "\(compared) instants with a marker in both runs")
    }

    /// A client that never reads does not hold the simulation or the other clients up: its oldest
    /// epochs are dropped and counted, while a reading client gets every epoch. Nothing is lost
    /// uncounted: each client gets every epoch whole except those counted as dropped for it.
    @Test func aClientThatNeverReadsLosesItsOldestEpochsAndHoldsNothingUp() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenario = folder.appendingPathComponent("standing.yaml")
        try """
            name: six hours standing still
            start-time: 2026-05-01T00:00:00Z
            duration: 6h
            devices:
              - { id: phone, at: [52.51450, 13.35010], gps: { accuracy: 3 } }
            """.write(to: scenario, atomically: true, encoding: .utf8)
        let port = try LiveGPSD.freePort()
        let serve = try CLI.start(["serve", scenario.path, "--nmea-tcp", String(port), "--speed", "1000", "--wait-for-client", "-q"])
        try Self.waitUntilListening(port)
        let reader = try TCPReader(port: port)
        let stalled = try TCPReader(port: port, reads: false)
        defer { stalled.close() }
        let served = try serve.finish(timeout: 120)
        #expect(served.status == 0, "\(served.standardError)")
        let received = Self.wholeEpochs(in: reader.everything())
        // What the stalled client's socket still holds (handed to TCP before the server gave up on it).
        let receivedByStalled = Self.wholeEpochs(in: stalled.readToTheEnd())
        // The run starts when the reader connects; the stalled client connects just after, so the first
        // epochs may have gone out before it was there (neither sent to it nor dropped for it).
        let firstForStalled = receivedByStalled.first ?? 0
        let summary = served.standardOutput
        #expect(summary.contains("phone: 21601 epochs"), "an epoch a second for six hours, the end included: \(summary)")
        #expect(summary.contains("2 clients"))
        // Dropped epochs per client, in the order they connected: the reader first, then the stalled one.
        let perClient = summary.range(of: #"\(\d+ \+ \d+ in the order they connected\)"#, options: .regularExpression)
            .map { summary[$0].dropFirst().split(separator: " ").compactMap { Int($0) } } ?? []
        #expect(perClient.count == 2, "\(summary)")
        if perClient.count == 2 {
            // The reader gets every epoch not dropped for it (on a loaded machine it may fall 256 KiB
            // behind for a moment); the stalled client loses its oldest, and holds nobody up; for each,
            // what it got and what was counted as dropped for it make up the whole run.
            #expect(received.first == 0, "the run starts when the reader connects, so it gets the first epoch")
            #expect(received.count + perClient[0] == 21_601, "the reading client got \(received.count) epochs, \(perClient[0]) dropped for it")
            #expect(perClient[0] < 1_000, "the reading client kept up: \(summary)")
            #expect(perClient[1] > 1_000, "the stalled client's oldest epochs dropped: \(summary)")
            #expect(receivedByStalled.count + perClient[1] == 21_601 - firstForStalled, "the stalled client got \(receivedByStalled.count) epochs from epoch \(firstForStalled) on, \(perClient[1]) dropped for it")
        }
    }

    /// How many epochs arrived whole in `bytes` (those whose last sentence, VTG, ended with CR LF), and
    /// the first one's instant in whole seconds of a day that started at midnight (the GGA's time).
    static func wholeEpochs(in bytes: [UInt8]) -> (count: Int, first: Int?) {
        let lines = String(decoding: bytes, as: UTF8.self).components(separatedBy: "\r\n").dropLast()
        let count = lines.filter { $0.hasPrefix("$GPVTG,") }.count
        let first = lines.first { $0.hasPrefix("$GPGGA,") }.flatMap { line -> Int? in
            let time = line.split(separator: ",", omittingEmptySubsequences: false)[1].prefix(6).compactMap(\.wholeNumberValue)
            guard time.count == 6 else { return nil }
            return (time[0] * 10 + time[1]) * 3600 + (time[2] * 10 + time[3]) * 60 + time[4] * 10 + time[5]
        }
        return (count, first)
    }

    /// gpsd on a free port reading NMEA from `source` (a `tcp://` URL), opening it only when a client
    /// asks for reports (no `-n`).
    static func waitUntilListening(_ port: Int, timeout: TimeInterval = 20) throws {
        let hex = String(format: ":%04X ", port)
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            // Looked up in the kernel's table (a test connection would count as serve's first client).
            let table = (try? String(contentsOfFile: "/proc/net/tcp", encoding: .utf8)) ?? ""
            if table.split(separator: "\n").contains(where: { $0.contains(hex) && $0.split(separator: " ").dropFirst(3).first == "0A" }) { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw LiveTestError.timedOut("devicesim serve listening on port \(port)")
    }

    /// Seconds after the scenario's start (2026-05-01T08:00:00Z) of a gpsd time such as
    /// 2026-05-01T08:00:30.000Z; -1 for another day.
    static func secondsAfterTheStart(_ time: String) -> Double {
        guard time.hasPrefix("2026-05-01T"), time.hasSuffix("Z") else { return -1 }
        let clock = time.dropFirst(11).dropLast().split(separator: ":").compactMap { Double($0) }
        guard clock.count == 3 else { return -1 }
        return (clock[0] - 8) * 3600 + clock[1] * 60 + clock[2]
    }

    /// `gpspipe -w` for `seconds`, its reports into `file`.
    static func gpspipe(port: Int, seconds: Int, into file: URL) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = ["-k", "5", String(seconds + 20), "/usr/bin/gpspipe", "-w", "--seconds", String(seconds), "-o", file.path, "127.0.0.1:\(port)"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// The marker's positions by instant (marker.shown and marker.moved) in a trace.
    static func markers(in trace: URL) throws -> [Double: (lat: Double, lon: Double)] {
        var positions: [Double: (lat: Double, lon: Double)] = [:]
        for event in try LiveFiles.traceEvents(trace) {
            guard let name = event["event"] as? String, name == "marker.shown" || name == "marker.moved",
                let t = event["t"] as? Double, let lat = event["lat"] as? Double, let lon = event["lon"] as? Double
            else { continue }
            positions[t] = (lat, lon)
        }
        return positions
    }
}

/// A test's TCP client of `devicesim serve`: reads everything on a thread of its own (or, with
/// `reads: false`, connects and never reads).
final class TCPReader: @unchecked Sendable {
    private let descriptor: Int32
    private let lock = NSLock()
    private var received: [UInt8] = []
    private let done = DispatchSemaphore(value: 0)

    init(port: Int, reads: Bool = true) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = LiveGPSD.loopback(port: port)
        let connected = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        guard descriptor >= 0, connected == 0 else { throw LiveTestError.exited("a connection to port \(port)") }
        guard reads else { return }
        Thread.detachNewThread { [self] in
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count <= 0 { break }
                lock.withLock { received += buffer[0..<count] }
            }
            done.signal()
        }
    }

    /// Everything read until the server closed the connection.
    func everything() -> [UInt8] {
        _ = done.wait(timeout: .now() + 60)
        return lock.withLock { received }
    }

    /// Everything a client that did not read (`reads: false`) finds on its connection, read until the
    /// server's end closes it (or nothing comes for 60 seconds).
    func readToTheEnd() -> [UInt8] {
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var everything: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            everything += buffer[0..<count]
        }
        return everything
    }

    func close() { _ = Glibc.close(descriptor) }
}
