import Foundation
import Testing

/// Issue 11, point 12, through the command line: validate takes a world file on its own, and two
/// scenarios with the same file name write two traces.
@Suite struct ValidateWorldAndTraceNameTests {
    @Test func aWorldFileValidatesOnItsOwnWithItsCoverageWarning() throws {
        let output = try CLI.run(["validate", "Simulator/worlds/dahlem.yaml"])
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardOutput.contains("ok     Simulator/worlds/dahlem.yaml — world dahlem (4 hotspots"))
        #expect(output.standardError.contains("Simulator/worlds/dahlem.yaml:32:5: warning: hotspot 'long-hall'"))
        #expect(!output.standardError.contains("unknown key"))
    }

    @Test func twoScenariosWithTheSameNameInTwoFoldersWriteTwoTraces() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for sub in ["a", "b"] {
            try FileManager.default.createDirectory(at: folder.appendingPathComponent(sub), withIntermediateDirectories: true)
            try Data("name: \(sub)\nduration: 1s\ndevices: [{ id: d, at: [0, 0] }]\n".utf8).write(to: folder.appendingPathComponent("\(sub)/same.yaml"))
        }
        let traces = folder.appendingPathComponent("traces")
        let output = try CLI.run(["run", folder.appendingPathComponent("a/same.yaml").path, folder.appendingPathComponent("b/same.yaml").path, "--trace", traces.path])
        #expect(output.status == 0, "\(output.standardError)")
        let written = FileManager.default.enumerator(atPath: traces.path)?.allObjects.compactMap { $0 as? String }.filter { $0.hasSuffix(".jsonl") } ?? []
        #expect(written.count == 2, "\(written)")
    }
}
