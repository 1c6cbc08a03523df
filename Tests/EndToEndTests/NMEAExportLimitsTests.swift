import Foundation
import Testing

/// `nmea export` writes fixes as it makes them, in constant memory, and refuses a route longer than
/// its documented limit before writing anything (issue 37).
@Suite struct NMEAExportLimitsTests {
    @Test func anExportHalfwayRoundTheWorldIsRefusedBeforeAnythingIsWritten() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("long.nmea")
        let output = try CLI.run(["nmea", "export", "--waypoints", "0,0;0,180", "--out", out.path], timeout: 30)
        #expect(output.status == 2)
        #expect(output.standardError.contains("an export holds at most 2592000 fixes (30 days at 1s)"), "\(output.standardError)")
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test func anExportIsStreamedAndTheSameAsBefore() throws {
        // 2,000 s of walking: several pieces of output, the same bytes on standard output and in a file.
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("walk.nmea")
        let toFile = try CLI.run(["nmea", "export", "--waypoints", "52.5145,13.3501;52.5145,13.3915", "--out", out.path])
        #expect(toFile.status == 0)
        let toStandardOutput = try CLI.run(["nmea", "export", "--waypoints", "52.5145,13.3501;52.5145,13.3915"])
        #expect(toStandardOutput.status == 0)
        let written = try String(contentsOf: out, encoding: .utf8)
        #expect(written == toStandardOutput.standardOutput)
        #expect(written.utf8.filter { $0 == UInt8(ascii: "\n") }.count > 5_000)
        #expect(written.hasPrefix("$GPGGA,000000.00,5230.870000,N,01321.006000,E,1,09,0.9,35.0,M,0.0,M,,*"))
    }
}
