import DeviceSimTestSupport
import Foundation
import Testing

/// `devicesim live` and `devicesim record` against a gpsd out of reach or misbehaving (a fake in the
/// test's process on 127.0.0.1): what they say, the summary's counts, the exit status, and how often
/// they connect. Every run is bounded by its --duration and by the CLI helper's timeout.
@Suite struct LiveAgainstMisbehavingGPSDTests {
    static let scenario = "Scenarios/dog-walk/walk-2km.yaml"

    /// walk-2km.yaml without its `location.unavailable` `never:`, written in `folder`: live, the app
    /// says the location is unavailable until gpsd's first fix comes, which that expectation rightly
    /// fails (exit 1); tests of what live does with gpsd's fixes need a run whose expectations hold.
    static func scenarioWithoutNever(in folder: URL) throws -> String {
        let text = try String(contentsOfFile: scenario, encoding: .utf8)
        let trimmed = text.replacingOccurrences(of: "  - event: location.unavailable\n    never: true\n", with: "")
        precondition(trimmed != text, "walk-2km.yaml no longer ends with its location.unavailable never")
        let file = folder.appendingPathComponent("walk-2km.yaml")
        try trimmed.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    /// Sends positions out of range, then one in range, twice a second.
    static func outOfRange() throws -> FakeGPSD {
        try FakeGPSD { connection in
            connection.send(FakeGPSD.version + FakeGPSD.devices)
            repeat {
                for (latitude, longitude) in [("1e300", "10"), ("91", "10"), ("-90.0000001", "10"), ("50", "181"), ("50", "540"), ("52.5145", "13.3501")] {
                    guard connection.send(FakeGPSD.tpv(latitude: latitude, longitude: longitude)) else { return }
                }
            } while connection.pause(0.5)
        }
    }

    @Test func withNothingListeningLiveSaysSoAtOnceKeepsRetryingAndExits3() throws {
        let port = try LiveGPSD.freePort()
        let run = try TimedRun(["live", "--gpsd", "127.0.0.1:\(port)", Self.scenario, "--duration", "3s", "-q"])
        let output = try run.finish(timeout: 60)
        let firstLine = try #require(output.standardError.first)
        #expect(firstLine.text.hasPrefix("cannot connect to gpsd at 127.0.0.1:\(port) (Connection refused). Is gpsd running?"), "\(firstLine.text)")
        // Said while the 3 s run goes on, not at its end (a generous bound: the CLI starts up first).
        #expect(firstLine.arrived.timeIntervalSince(run.started) < 2.5, "said \(firstLine.arrived.timeIntervalSince(run.started)) s after the start")
        #expect(output.status == 3, "\(output.standardError.map(\.text))")
        #expect(output.standardError.contains { $0.text.hasPrefix("error: never connected to gpsd at 127.0.0.1:\(port) during the run (") })
        let summary = try #require(output.standardOutput.split(separator: "\n").last)
        // 0.25 + 0.5 + 1 s between attempts: the fourth comes before the 3 s are up.
        #expect(summary.hasPrefix("gpsd: never connected (") && !summary.hasPrefix("gpsd: never connected (1 attempt"), "\(summary)")
    }

    @Test func liveDropsFixesOutOfRangeCountsThemAndKeepsThemOutOfTheTrace() throws {
        let fake = try Self.outOfRange()
        defer { fake.stop() }
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let trace = folder.appendingPathComponent("live.jsonl")
        let output = try CLI.run(["live", "--gpsd", "127.0.0.1:\(fake.port)", try Self.scenarioWithoutNever(in: folder), "--duration", "3s", "-q", "--trace", trace.path], timeout: 60)
        #expect(output.status == 0, "\(output.standardError)\n\(output.standardOutput)")
        let markers = try LiveFiles.traceEvents(trace).filter { ($0["event"] as? String)?.hasPrefix("marker.") == true }
        #expect(!markers.isEmpty)
        for marker in markers {
            #expect(marker["lat"] as? Double == 52.5145 && marker["lon"] as? Double == 13.3501, "\(marker)")
        }
        // The first of each kind is said once; the summary counts them all.
        let said = output.standardError.split(separator: "\n")
        #expect(said.filter { $0.contains("sent a fix with latitude") }.count == 1, "\(output.standardError)")
        #expect(said.filter { $0.contains("sent a fix with longitude") }.count == 1)
        #expect(said.contains { $0 == "gpsd at 127.0.0.1:\(fake.port) sent a fix with latitude 1e+300, outside -90...90 degrees (fix dropped); any more like it are only counted (in the summary at the end)" })
        let summary = try #require(output.standardOutput.split(separator: "\n").last.map(String.init))
        let counts = try #require(Self.counts(in: summary), "\(summary)")
        #expect(Self.countsAreWhole(counts), "\(summary)")
        #expect(summary.hasPrefix("gpsd: 1 connection (1 attempt), "), "\(summary)")
    }

    @Test func recordCountsTheFixesItDroppedAndWhy() throws {
        let fake = try Self.outOfRange()
        defer { fake.stop() }
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let recording = folder.appendingPathComponent("gpsd.json")
        let output = try CLI.run(["record", "--gpsd", "127.0.0.1:\(fake.port)", "--out", recording.path, "--format", "json", "--duration", "2s", "-q"], timeout: 60)
        #expect(output.status == 0, "\(output.standardError)\n\(output.standardOutput)")
        let lines = output.standardError.split(separator: "\n").map(String.init)
        let summary = try #require(lines.last)
        let counts = try #require(LiveAgainstMisbehavingGPSDTests.counts(in: summary), "\(output.standardError)")
        #expect(LiveAgainstMisbehavingGPSDTests.countsAreWhole(counts), "\(summary)")
        #expect(lines.contains { $0.hasPrefix("wrote ") && $0.hasSuffix("(\(counts.used) fixes) to \(recording.path)") }, "\(lines)")
        #expect(lines.filter { $0.contains("sent a fix with latitude") }.count == 1)
    }

    @Test func aFloodingGpsdIsSaidOnceAndConnectedToAHandfulOfTimes() throws {
        let fake = try FakeGPSD { connection in
            connection.send(FakeGPSD.version)
            let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 65_536)
            while connection.send(chunk) {}
        }
        defer { fake.stop() }
        let output = try CLI.run(["live", "--gpsd", "127.0.0.1:\(fake.port)", Self.scenario, "--duration", "4s", "-q"], timeout: 60)
        // No fix ever comes, so the scenario's expectations of its first second fail: exit 1.
        #expect(output.status == 1, "\(output.standardError)")
        #expect(output.standardOutput.contains("  ✗ expected at least 1 'marker.shown' within [0s, 1s]"), "\(output.standardOutput)")
        // 0.25 + 0.5 + 1 + 2 s of waiting: at most five connections in 4 s (thousands before).
        #expect(fake.connections >= 2 && fake.connections <= 6, "\(fake.connections) connections")
        let dropped = output.standardError.split(separator: "\n").filter { $0.contains("dropped the connection to gpsd") }
        #expect(dropped.count == 1, "said once, not per reconnection: \(output.standardError)")
        #expect(dropped.first?.hasPrefix("dropped the connection to gpsd at 127.0.0.1:\(fake.port): it sent a line longer than 65536 bytes") == true)
        let summary = try #require(output.standardOutput.split(separator: "\n").last.map(String.init))
        #expect(summary.contains("dropped for what gpsd sent), 0 fixes used, 0 dropped, lines not used (line longer than 65536 bytes: "), "\(summary)")
    }

    /// Whether the counts are those of whole batches of the fake's six fixes (three latitudes and two
    /// longitudes out of range, then one in range), the last batch perhaps cut short by the run's end.
    static func countsAreWhole(_ counts: (used: Int, latitude: Int, longitude: Int)) -> Bool {
        counts.used >= 2 && (counts.used * 3...(counts.used + 1) * 3).contains(counts.latitude)
            && (counts.used * 2...(counts.used + 1) * 2).contains(counts.longitude)
            && (counts.latitude == (counts.used + 1) * 3 || counts.longitude == counts.used * 2)
    }

    /// Fixes used, and latitudes and longitudes out of range, from a summary line such as
    /// "gpsd: 1 connection (1 attempt), 5 fixes used, 25 dropped (latitude out of range: 15, longitude out of range: 10)".
    static func counts(in summary: String) -> (used: Int, latitude: Int, longitude: Int)? {
        func number(before words: String) -> Int? {
            guard let range = summary.range(of: words) else { return nil }
            return Int(summary[..<range.lowerBound].split(whereSeparator: { !$0.isNumber }).last ?? "")
        }
        func number(after words: String) -> Int? {
            guard let range = summary.range(of: words) else { return nil }
            return Int(summary[range.upperBound...].prefix { $0.isNumber })
        }
        guard let used = number(before: " fixes used"), let latitude = number(after: "latitude out of range: "), let longitude = number(after: "longitude out of range: ") else { return nil }
        return (used, latitude, longitude)
    }
}
