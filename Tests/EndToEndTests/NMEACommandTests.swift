import Foundation
import Testing

@Suite struct NMEACommandTests {
    @Test func decodeWritesGpsdStyleJSONAndCountsWhatItSkips() throws {
        let log = "Tests/DeviceSimNMEATests/Fixtures/gpsd-nmea/garmin48.log"
        let output = try CLI.run(["nmea", "decode", log, "--stats"])
        #expect(output.status == 0)
        let lines = output.standardOutput.split(separator: "\n")
        let tpv = try #require(lines.first { $0.contains("\"class\":\"TPV\"") && $0.contains("\"lat\"") })
        let json = try #require(try JSONSerialization.jsonObject(with: Data(tpv.utf8)) as? [String: Any])
        #expect(json["mode"] as? Int == 3)
        #expect(abs((json["lat"] as? Double ?? 0) - -45.457633333) < 1e-9)
        #expect(json["time"] as? String == "2001-06-06T22:53:08.000Z")
        #expect(lines.contains { $0.contains("\"class\":\"SKY\"") && $0.contains("\"satellites\"") })
        #expect(output.standardError.contains("bytes read:"))
        #expect(output.standardError.contains("noise bytes:"))
    }

    @Test func decodeReadsStandardInputAndRejectsMissingFiles() throws {
        #expect(try CLI.run(["nmea", "decode", "no/such.log"]).status == 2)
        #expect(try CLI.run(["nmea", "decode"]).status == 2)
        #expect(try CLI.run(["nmea", "decode", "--threads", "0", "-"]).status != 0)
    }

    @Test func decodeGivesTheSameOutputOnAnyNumberOfThreadsAndFromAPipe() throws {
        // Every corpus log, binary noise included: several pieces of a megabyte.
        let folder = CLI.repositoryRoot.appendingPathComponent("Tests/DeviceSimNMEATests/Fixtures/gpsd-nmea")
        var corpus = Data()
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() where name.hasSuffix(".log") {
            corpus += try Data(contentsOf: folder.appendingPathComponent(name))
        }
        #expect(corpus.count > 2_000_000)
        let temporary = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: temporary) }
        let log = temporary.appendingPathComponent("corpus.log")
        try corpus.write(to: log)
        let one = try CLI.run(["nmea", "decode", "--stats", "--threads", "1", log.path])
        #expect(one.status == 0)
        #expect(one.standardOutput.count > 1_000_000)
        let four = try CLI.run(["nmea", "decode", "--stats", "--threads", "4", log.path])
        #expect(four.standardOutput == one.standardOutput)
        #expect(four.standardError == one.standardError)
        let piped = try CLI.run(["nmea", "decode", "--stats", "-"], input: corpus, inputPieceSize: 1_500)
        #expect(piped.standardOutput == one.standardOutput)
        #expect(piped.standardError == one.standardError)
    }

    /// One thread decodes a file from memory maps of 8 MB at a time: a log of three times the corpus
    /// (9.3 MB), with a sentence across the windows' boundary, decodes as the same bytes from a pipe
    /// (read, not mapped) do, counts included.
    @Test func aFileLongerThanOneMappedWindowDecodesAsFromAPipe() throws {
        let folder = CLI.repositoryRoot.appendingPathComponent("Tests/DeviceSimNMEATests/Fixtures/gpsd-nmea")
        var corpus = Data()
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() where name.hasSuffix(".log") {
            corpus += try Data(contentsOf: folder.appendingPathComponent(name))
        }
        var log = corpus + corpus + corpus
        let sentence = Data("\n$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47\r\n".utf8)
        log.insert(contentsOf: sentence, at: (1 << 23) - 30)
        let temporary = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: temporary) }
        let file = temporary.appendingPathComponent("long.log")
        try log.write(to: file)
        let mapped = try CLI.run(["nmea", "decode", "--stats", "--threads", "1", file.path])
        #expect(mapped.status == 0)
        let piped = try CLI.run(["nmea", "decode", "--stats", "--threads", "1", "-"], input: log, inputPieceSize: 65_536)
        #expect(piped.status == 0)
        #expect(mapped.standardOutput == piped.standardOutput)
        #expect(mapped.standardError == piped.standardError)
        #expect(mapped.standardError.contains("bytes read: \(log.count)\n"))
    }

    @Test func exportWritesALogThatDecodesBackToTheRoute() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = folder.appendingPathComponent("walk.nmea").path
        let export = try CLI.run(["nmea", "export", "--waypoints", "10,10;10,10.01", "--speed", "bike", "--start", "2026-03-01T10:00:00Z", "--out", log])
        #expect(export.status == 0, "\(export.standardError)")
        let decode = try CLI.run(["nmea", "decode", log, "--stats", "--no-sky"])
        let fixes = decode.standardOutput.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        // 1,095 m at 5 m/s take 219.02 s: fixes at 0...219 s on the way and one at 220 s at the end point.
        #expect(fixes.count == 221)
        #expect(fixes.first?["time"] as? String == "2026-03-01T10:00:00.000Z")
        #expect(abs((fixes.last?["lon"] as? Double ?? 0) - 10.01) < 1e-6)
        #expect(decode.standardError.contains("bad checksums: 0"))
        #expect(decode.standardError.contains("bytes skipped: 0"))
    }

    /// `--start` and `serve --start-time` take only the years RMC's two-digit year reads back as
    /// (2100 decoded as 2000, 2099 as 1999, 1970 as 2070; serve took 1969-12-31T23:59:59Z).
    @Test func exportAndServeDateLogsOnlyWhereTheirYearsReadBack() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = folder.appendingPathComponent("walk.nmea").path
        let range = "from 2000-01-01T00:00:00Z to 2079-12-31T23:59:59Z"
        for start in ["2100-01-01T00:00:00Z", "2099-06-01T00:00:00Z", "1970-01-01T00:00:00Z", "1999-12-31T23:59:59Z"] {
            let export = try CLI.run(["nmea", "export", "--waypoints", "10,10;10,10.01", "--start", start, "--out", log])
            #expect(export.status == 2, "\(start)")
            #expect(export.standardError.contains("--start must be an ISO 8601 UTC time \(range)"), "\(export.standardError)")
        }
        // A start within the range whose walk runs past 2079 is refused too, before anything is written.
        let late = try CLI.run(["nmea", "export", "--waypoints", "10,10;10,10.01", "--start", "2079-12-31T23:59:00Z", "--out", log])
        #expect(late.status == 2)
        #expect(late.standardError.contains("the log would be dated from --start 2079-12-31T23:59:00Z to 2080-01-01T00:"), "\(late.standardError)")
        #expect(!FileManager.default.fileExists(atPath: log))
        for start in ["2000-01-01T00:00:00Z", "2079-12-31T23:00:00Z"] {
            let export = try CLI.run(["nmea", "export", "--waypoints", "10,10;10,10.01", "--start", start, "--out", log])
            #expect(export.status == 0, "\(export.standardError)")
            let decode = try CLI.run(["nmea", "decode", log])
            #expect(decode.standardOutput.contains(#""time":"\#(start.prefix(10))"#), "\(start)")
        }
        let scenario = CLI.repositoryRoot.appendingPathComponent("Scenarios/dog-walk/tunnel.yaml").path
        let serve = try CLI.run(["serve", scenario, "--nmea-tcp", "0", "--start-time", "1969-12-31T23:59:59Z"])
        #expect(serve.status == 2)
        #expect(serve.standardError.contains("--start-time must be 'now' or an ISO 8601 date and time \(range)"), "\(serve.standardError)")
        let lateServe = try CLI.run(["serve", scenario, "--nmea-tcp", "0", "--start-time", "2079-12-31T23:55:00Z"])
        #expect(lateServe.status == 2)
        #expect(lateServe.standardError.contains("the sentences would be dated from --start-time 2079-12-31T23:55:00Z to 2080-01-01T00:05:00Z"), "\(lateServe.standardError)")
    }

    @Test func exportNeedsExactlyOneSource() throws {
        #expect(try CLI.run(["nmea", "export"]).status == 2)
        #expect(try CLI.run(["nmea", "export", "--waypoints", "1,1;2,2", "--gpx", "x.gpx"]).status == 2)
        #expect(try CLI.run(["nmea", "export", "--waypoints", "1,1"]).status == 2)
        #expect(try CLI.run(["nmea", "export", "--waypoints", "1,1;2,2", "--speed", "warp"]).status == 2)
    }

    @Test func liveAndRecordExplainThemselvesAndRejectBadAddresses() throws {
        for command in ["live", "record", "nmea"] {
            let help = try CLI.run([command, "--help"])
            #expect(help.status == 0)
            #expect(help.standardOutput.contains("USAGE: devicesim \(command)"))
        }
        #expect(try CLI.run(["record", "--gpsd", "host:notaport", "--out", "/tmp/x.nmea"]).status == 2)
        #expect(try CLI.run(["live", "--gpsd", "localhost:99999", "Scenarios/dog-walk/walk-2km.yaml"]).status == 2)
    }
}
