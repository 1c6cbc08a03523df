@testable import DeviceSimGPSD
import DeviceSimTestSupport
import Foundation
import Synchronization
import Testing

/// The gpsd client against a gpsd that misbehaves: a fake in the test's process on 127.0.0.1 that
/// stops mid-line, floods, hangs up at once, sends what libgps cannot decode or positions out of
/// range. Every wait is bounded; connection counts are bounded generously, never timed tightly.
@Suite struct MisbehavingGPSDTests {
    /// The events a reader reported, gathered across threads.
    final class Events: Sendable {
        private let list = Mutex<[GPSDReader.Event]>([])

        func append(_ event: GPSDReader.Event) { list.withLock { $0.append(event) } }

        var all: [GPSDReader.Event] { list.withLock { $0 } }

        /// Waits (polling every 20 ms, at most `timeout` seconds) until `condition` holds; whether it did.
        func waitUntil(timeout: Double, _ condition: ([GPSDReader.Event]) -> Bool) -> Bool {
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline {
                if condition(all) { return true }
                Thread.sleep(forTimeInterval: 0.02)
            }
            return condition(all)
        }

        var disconnections: [(GPSDError, Duration)] {
            all.compactMap { if case .disconnected(let error, let retry) = $0 { (error, retry) } else { nil } }
        }

        var unusable: [GPSDUnusableInput] {
            all.compactMap { if case .unusable(let input) = $0 { input } else { nil } }
        }

        var fixes: [GPSDFix] {
            all.compactMap { if case .fix(let fix, _, _) = $0 { fix } else { nil } }
        }
    }

    /// Reads `fake` until `condition` holds of what was read (at most 20 s), then stops reading.
    func read(from fake: FakeGPSD, until condition: @escaping (Events) -> Bool) -> (reader: GPSDReader, events: Events, reached: Bool) {
        let events = Events()
        let reader = GPSDReader(endpoint: GPSDEndpoint(host: "127.0.0.1", port: fake.port)) { events.append($0) }
        reader.start()
        defer { reader.stop() }
        let reached = events.waitUntil(timeout: 20) { _ in condition(events) }
        return (reader, events, reached)
    }

    @Test func halfALineAndThenNothingDropsTheConnectionAfterTheLineDeadline() throws {
        let fake = try FakeGPSD { connection in
            connection.send(FakeGPSD.version)
            connection.send("{\"class\":\"TPV\",\"device\":\"/dev/fake\",\"mo")
            connection.pause(60)
        }
        defer { fake.stop() }
        let (reader, events, dropped) = read(from: fake) { !$0.disconnections.isEmpty }
        #expect(dropped, "no disconnection: the reader waits on the half line forever")
        let (error, retry) = try #require(events.disconnections.first)
        #expect(error == .unusableInput(reader.endpoint, .lineUnfinished(after: GPSDSession.lineDeadline)))
        #expect(retry >= GPSDBackoff.initial)
        #expect("\(error)".contains("part of a line and then nothing for 5 s"), "\(error)")
    }

    /// Lines no gpsd sends: an endless one, and one nested 100,000 deep. Each drops the connection; the
    /// reconnections wait longer each time, and the kind is counted.
    @Test(arguments: ["flood", "nesting"])
    func aLineTooLongDropsTheConnectionAndReconnectionsBackOff(_ kind: String) throws {
        let fake = try FakeGPSD { connection in
            connection.send(FakeGPSD.version)
            if kind == "flood" {
                let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 65_536)
                while connection.send(chunk) {}
            } else {
                let depth = 100_000
                connection.send("{\"class\":\"TPV\",\"mode\":3,\"lat\":" + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}\r\n")
                connection.pause(60)
            }
        }
        defer { fake.stop() }
        let (reader, events, reached) = read(from: fake) { $0.disconnections.count >= 3 }
        #expect(reached)
        let drops = events.disconnections
        #expect(drops.allSatisfy { $0.0 == .unusableInput(reader.endpoint, .lineTooLong(limit: GPSDSession.maximumLineLength)) }, "\(drops)")
        #expect(drops.prefix(3).map(\.1) == [.milliseconds(250), .milliseconds(500), .seconds(1)])
        // 0.25 + 0.5 s of waiting before the third connection: a handful of connections, not thousands.
        #expect(fake.connections <= 6, "\(fake.connections) connections")
        #expect(reader.statistics.connectionsDropped == drops.count)
        #expect(reader.statistics.linesUnusable == ["line longer than 65536 bytes": drops.count])
    }

    @Test func aGpsdThatHangsUpRightAfterConnectingIsNotReconnectedToInATightLoop() throws {
        let fake = try FakeGPSD { connection in
            connection.send(FakeGPSD.version)
        }
        defer { fake.stop() }
        let (_, events, reached) = read(from: fake) { $0.disconnections.count >= 4 }
        #expect(reached)
        let retries = events.disconnections.prefix(4).map(\.1)
        #expect(retries == [.milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2)])
        #expect(fake.connections <= 8, "\(fake.connections) connections")
    }

    @Test func aSkyReportLibgpsCannotDecodeIsSkippedAndSaidOnceWithoutReconnecting() throws {
        let satellites = (1...500).map { "{\"PRN\":\($0),\"el\":45.0,\"az\":100.0,\"ss\":40.0,\"used\":true}" }.joined(separator: ",")
        let sky = "{\"class\":\"SKY\",\"device\":\"/dev/fake\",\"satellites\":[\(satellites)]}\r\n"
        let fake = try FakeGPSD { connection in
            connection.send(FakeGPSD.version + FakeGPSD.devices + sky + sky)
            connection.send(FakeGPSD.tpv(latitude: "52.5", longitude: "13.4"))
            connection.pause(60)
        }
        defer { fake.stop() }
        let (reader, events, reached) = read(from: fake) { !$0.fixes.isEmpty }
        #expect(reached)
        #expect(fake.connections == 1)
        #expect(events.disconnections.isEmpty)
        #expect(events.unusable.count == 1, "said once: \(events.unusable)")
        guard case .undecodableReport("SKY", let excerpt)? = events.unusable.first else {
            Issue.record("not an undecodable SKY report: \(events.unusable)")
            return
        }
        #expect(excerpt.hasPrefix("{\"class\":\"SKY\"") && excerpt.hasSuffix("… (\(sky.utf8.count - 2) bytes)"), "\(excerpt)")
        #expect(reader.statistics.linesUnusable == ["SKY report libgps could not decode": 2])
        #expect(events.fixes.first?.latitude == 52.5)
    }

    @Test func fixesOutOfRangeAreDroppedCountedAndTheFirstOfEachKindSaid() throws {
        let fake = try FakeGPSD { connection in
            connection.send(FakeGPSD.version + FakeGPSD.devices)
            for (latitude, longitude) in [("1e300", "10"), ("91", "10"), ("-90.0000001", "10"), ("50", "181"), ("50", "540")] {
                connection.send(FakeGPSD.tpv(latitude: latitude, longitude: longitude))
            }
            connection.send(FakeGPSD.tpv(latitude: "-90", longitude: "-180", speed: "-3"))
            connection.send(FakeGPSD.tpv(latitude: "52.5", longitude: "13.4"))
            connection.pause(60)
        }
        defer { fake.stop() }
        let (reader, events, reached) = read(from: fake) { $0.fixes.count >= 2 }
        #expect(reached)
        let fixes = events.fixes
        #expect(fixes.map(\.latitude) == [-90, 52.5], "only the fixes in range reach the flows")
        #expect(fixes.first?.speed == nil, "a negative speed is dropped from the fix")
        #expect(fixes.last?.speed == 1)
        let statistics = reader.statistics
        #expect(statistics.fixesUsed == 2)
        #expect(statistics.fixesDropped == ["latitude out of range": 3, "longitude out of range": 2])
        #expect(statistics.valuesIgnored == ["speed out of range": 1])
        #expect(events.unusable == [
            .positionOutOfRange(field: .latitude, value: 1e300), .positionOutOfRange(field: .longitude, value: 181), .valueOutOfRange(field: .speed, value: -3),
        ])
        #expect("\(statistics)" == "gpsd: 1 connection (1 attempt), 2 fixes used, 5 dropped (latitude out of range: 3, longitude out of range: 2), values ignored (speed out of range: 1)")
    }

    @Test func aLineThatIsNotAReportIsSkippedWithItsBytesEscaped() throws {
        let fake = try FakeGPSD { connection in
            connection.send(FakeGPSD.version)
            connection.send([0x1B, UInt8(ascii: "["), UInt8(ascii: "2"), UInt8(ascii: "J"), 0x00, 0xFF, UInt8(ascii: "\n")])
            connection.send(FakeGPSD.tpv(latitude: "52.5", longitude: "13.4"))
            connection.pause(60)
        }
        defer { fake.stop() }
        let (_, events, reached) = read(from: fake) { !$0.fixes.isEmpty }
        #expect(reached)
        #expect(events.unusable == [.notAReport(excerpt: "\\x1B[2J\\x00\\xFF")])
        #expect(fake.connections == 1)
    }

    @Test func withNothingListeningTheErrorSaysWhyAndTheAttemptsBackOff() throws {
        let port = try GPSFake.freePort()
        let events = Events()
        let reader = GPSDReader(endpoint: GPSDEndpoint(host: "127.0.0.1", port: port)) { events.append($0) }
        reader.start()
        defer { reader.stop() }
        #expect(events.waitUntil(timeout: 20) { $0.count >= 3 })
        reader.stop()
        let failures = events.all.compactMap { if case .connectFailed(let error, let retry) = $0 { ("\(error)", retry) } else { nil } }
        #expect(failures.prefix(3).map(\.1) == [.milliseconds(250), .milliseconds(500), .seconds(1)])
        #expect(failures.first?.0.hasPrefix("cannot connect to gpsd at 127.0.0.1:\(port) (Connection refused). Is gpsd running?") == true, "\(failures)")
        #expect(reader.statistics.connections == 0)
        #expect(reader.statistics.attempts >= 3)
        #expect("\(reader.statistics)".hasPrefix("gpsd: never connected ("))
    }
}
