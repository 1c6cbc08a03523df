import Foundation
import Testing

/// `devicesim record` when its file cannot grow: exit 1, the path and the reason.
@Suite struct RecordWriteErrorTests {
    @Test func aRecordingThatCannotBeWrittenExits1NamingThePathAndTheReason() throws {
        let fake = try LiveAgainstMisbehavingGPSDTests.outOfRange()
        defer { fake.stop() }
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let recording = folder.appendingPathComponent("gpsd.json")
        // A file size limit of one block (SIGXFSZ ignored, so the write fails with EFBIG instead).
        let run = try TimedRun([
            "-c", "trap '' XFSZ; ulimit -f 1; exec \"$0\" \"$@\"", CLI.binary.path,
            "record", "--gpsd", "127.0.0.1:\(fake.port)", "--out", recording.path, "--format", "json", "--duration", "10s", "-q",
        ], executable: URL(fileURLWithPath: "/bin/sh"))
        let output = try run.finish(timeout: 60)
        let said = output.standardError.map(\.text)
        #expect(output.status == 1, "\(said)")
        #expect(said.contains("error: cannot write the recording \(recording.path): File too large"), "\(said)")
    }
}
