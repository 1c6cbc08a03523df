import DeviceSimHAL
import DeviceSimSimulated
import Foundation
import Testing

@Suite struct GPXDocumentTests {
    /// Issue 47: a GPX file over the limit is refused by its size, naming the limit (a 64 MiB track
    /// was read as "not well-formed" at its last line: libxml2's 10,000,000-byte limit).
    @Test func aFileOverTheLimitIsRefusedNamingIt() throws {
        let url = URL(fileURLWithPath: NSTemporaryDirectory() + "gpx-over-limit-\(getpid()).gpx")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(count: GPXDocument.maximumFileSize + 1).write(to: url)
        let error = try #require(throws: GPXError.self) { try GPXDocument(contentsOf: url) }
        #expect(error.message == "the file is 4194305 bytes; GPX files are limited to 4194304 bytes (4 MiB)", "\(error)")
    }

    static let track = """
        <?xml version="1.0"?>
        <gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1">
          <trk><trkseg>
            <trkpt lat="0.0" lon="0.0"><ele>10</ele><time>2026-01-01T00:00:00Z</time></trkpt>
            <trkpt lat="0.0" lon="0.001"><ele>12</ele><time>2026-01-01T00:01:00Z</time></trkpt>
            <trkpt lat="0.0" lon="0.001"><time>2026-01-01T00:02:00Z</time></trkpt>
            <trkpt lat="0.0" lon="0.002"><time>2026-01-01T00:02:30.5Z</time></trkpt>
          </trkseg></trk>
        </gpx>
        """

    /// The inputs the fuzzer found crashing the GPX reader (Tests/Fuzz/Regressions/fuzz-gpx) are read
    /// in the ordinary test build too: each is refused with its place, none crashes.
    @Test func theFuzzersCrashInputsAreRefusedNotCrashes() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fuzz/Regressions/fuzz-gpx")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        #expect(files.count >= 6)
        for file in files {
            let data = try Data(contentsOf: folder.appendingPathComponent(file))
            #expect(throws: GPXError.self, "\(file)") { try GPXDocument(data: data, file: file) }
        }
    }

    /// libxml2's warnings (here a relative namespace URI) do not refuse a file; its well-formedness
    /// errors do, even those it recovers from.
    @Test func warningsAreReadButRecoveredErrorsRefuseTheFile() throws {
        let relative = Self.track.replacingOccurrences(of: "http://www.topografix.com/GPX/1/1", with: "gpx-1.1")
        #expect(try GPXDocument(data: Data(relative.utf8), file: "w.gpx").trackSegments.first?.count == 4)
        let broken = Self.track.replacingOccurrences(of: "</trkseg></trk>", with: "</trk></trkseg>")
        #expect(throws: GPXError.self) { try GPXDocument(data: Data(broken.utf8), file: "b.gpx") }
    }

    @Test func aTimedTrackPlaysAtItsRecordedTiming() throws {
        let document = try GPXDocument(data: Data(Self.track.utf8), file: "t.gpx")
        #expect(document.isTimed)
        let timeline = RouteTimeline(try document.route(speed: 1))
        #expect(abs(timeline.duration.inSeconds - 150.5) < 1e-6)
        // Constant velocity within a leg: half way through the first minute, half way along.
        let halfway = timeline.state(at: .seconds(30))
        #expect(abs(halfway.coordinate.longitude - 0.0005) < 1e-9)
        #expect(halfway.altitude == 11)
        // The minute without movement is a stop.
        #expect(timeline.state(at: .seconds(90)).speed == 0)
        #expect(abs(timeline.state(at: .seconds(150.5)).coordinate.longitude - 0.002) < 1e-9)
    }

    @Test func routesWithoutTimesPlayAtTheChosenSpeed() throws {
        let text = """
            <gpx version="1.1"><rte><rtept lat="0" lon="0"/><rtept lat="0" lon="0.01"/></rte></gpx>
            """
        let document = try GPXDocument(data: Data(text.utf8))
        #expect(!document.isTimed)
        let timeline = RouteTimeline(try document.route(speed: SpeedPreset.bike.metresPerSecond))
        #expect(abs(timeline.duration.inSeconds - 1_111.95 / 5) < 0.01)
    }

    @Test func badGPXSaysWhereAndWhat() {
        let badPosition = "<gpx>\n<wpt lat=\"91\" lon=\"0\"/>\n</gpx>"
        #expect(throws: GPXError.self) { try GPXDocument(data: Data(badPosition.utf8), file: "w.gpx") }
        do {
            _ = try GPXDocument(data: Data(badPosition.utf8), file: "w.gpx")
        } catch {
            #expect(error.description.hasPrefix("w.gpx:2:"))
            #expect(error.message.contains("invalid position"))
        }
        do {
            _ = try GPXDocument(data: Data("<gpx><trk><trkseg>\n<trkpt lat=\"1\" lon=\"1\"><time>yesterday</time></trkpt></trkseg></trk></gpx>".utf8), file: "x.gpx")
            Issue.record("a bad time was accepted")
        } catch {
            #expect(error.line == 2)
            #expect(error.message == "<time> is not an ISO 8601 time: 'yesterday'")
        }
        #expect(throws: GPXError.self) { try GPXDocument(data: Data("<gpx><trk>".utf8)) }
        #expect(throws: GPXError.self) { try GPXDocument(data: Data("<kml/>".utf8)) }
    }

    /// Found by the fuzz-gpx target: an element name with a byte that is not UTF-8 made Foundation's
    /// XML parser trap (SIGILL) in `nmea export --gpx` and in scenarios.
    @Test func bytesThatAreNotUTF8AreRefusedWhereTheyAre() throws {
        var bytes = Array(Self.track.utf8)
        let time = try #require(bytes.indices.first { bytes[$0...].starts(with: Array("<time>".utf8)) })
        bytes[time + 1] = 0xFE   // <\u{FE}ime>: not UTF-8
        let error = try #require(throws: GPXError.self) { try GPXDocument(data: Data(bytes), file: "bad.gpx") }
        #expect(error.description.hasPrefix("bad.gpx:4:"), "\(error)")
        #expect(error.message.contains("not UTF-8"))

        // A file that says it is in another encoding is read in it.
        let latin1 = Data("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<gpx version=\"1.1\"><wpt lat=\"1\" lon=\"2\"><name>M".utf8) + Data([0xFC])
            + Data("nchen</name></wpt></gpx>".utf8)
        let document = try GPXDocument(data: latin1, file: "latin1.gpx")
        #expect(document.waypoints.count == 1)
    }

    /// Found by the fuzz-gpx target: a processing instruction with no data made Foundation's XML parser
    /// trap.
    @Test func aProcessingInstructionWithNoDataIsRefused() throws {
        for (text, position) in [("<?xml version=\"1.0\"?>\n<?g?>\n<gpx/>", "2:1"), ("<?xmleom-C?>\n<gpx/>", "1:1")] {
            let error = try #require(throws: GPXError.self) { try GPXDocument(data: Data(text.utf8), file: "pi.gpx") }
            #expect(error.description.hasPrefix("pi.gpx:\(position):"), "\(error)")
            #expect(error.message.contains("processing instruction with no data"))
        }
        _ = try GPXDocument(data: Data("<?xml version=\"1.0\"?>\n<?xml-stylesheet href=\"a.css\"?>\n<gpx version=\"1.1\"/>".utf8), file: "ok.gpx")
    }
}
