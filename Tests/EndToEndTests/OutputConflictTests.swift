import Foundation
import Testing

/// An output that is one of a command's inputs, or the same file as another output, is refused
/// before anything is written (exit 2, naming both), whichever path leads to it; and outputs that
/// cannot be written exit by one rule: 2 when one cannot be created before the run, 1 when a write
/// fails during or after it (the summary still printed first).
@Suite struct OutputConflictTests {
    static let scenario = "Scenarios/dog-walk/01-starting-the-app.yaml"

    /// A folder holding a copy of the bundled scenario as `same.yaml`, and a link `link.yaml` to it.
    static func folderWithScenario() throws -> (folder: URL, scenario: URL, text: String) {
        let text = try String(contentsOf: CLI.repositoryRoot.appendingPathComponent(scenario), encoding: .utf8)
        let folder = try CLI.folder(["same.yaml": text])
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("link.yaml").path, withDestinationPath: "same.yaml")
        return (folder, folder.appendingPathComponent("same.yaml"), text)
    }

    /// `arguments` exits 2 saying `message`, and `file` still holds `text`.
    static func expectRefused(_ arguments: [String], saying message: String, keeps file: URL, _ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let output = try CLI.run(arguments, timeout: 60)
        #expect(output.status == 2, "\(arguments): \(output.standardOutput)\(output.standardError)", sourceLocation: sourceLocation)
        #expect(output.standardError.contains(message), "\(arguments): \(output.standardError)", sourceLocation: sourceLocation)
        #expect(try String(contentsOf: file, encoding: .utf8) == text, "\(arguments) changed \(file.path)", sourceLocation: sourceLocation)
    }

    @Test func runRefusesAnOutputThatIsAScenarioFileByAnyPath() throws {
        let (folder, scenario, text) = try Self.folderWithScenario()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = scenario.path
        try Self.expectRefused(["run", path, "--results", path], saying: "error: --results \(path) is the scenario file \(path)", keeps: scenario, text)
        try Self.expectRefused(["run", path, "--junit", folder.path + "/./link.yaml"], saying: "--junit \(folder.path)/./link.yaml is the scenario file \(path)", keeps: scenario, text)
        try Self.expectRefused(["run", path, "--report", folder.path + "/no-such-folder/../same.yaml"], saying: "is the scenario file", keeps: scenario, text)
        // A scenario found in a folder given as input.
        try Self.expectRefused(["run", folder.path, "--junit", path], saying: "--junit \(path) is the scenario file", keeps: scenario, text)
        // A hard link is the same file too.
        let hard = folder.appendingPathComponent("hard.txt")
        try FileManager.default.linkItem(at: scenario, to: hard)
        try Self.expectRefused(["run", path, "--results", hard.path], saying: "--results \(hard.path) is the scenario file \(path)", keeps: scenario, text)
    }

    @Test func runRefusesTwoOutputsInOneFileAndAnOutputOverATraceItWrites() throws {
        let (folder, scenario, text) = try Self.folderWithScenario()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out").path
        let junit = try CLI.run(["run", scenario.path, "--junit", out + "/a.xml", "--results", out + "/../out/a.xml"])
        #expect(junit.status == 2)
        #expect(junit.standardError.contains("--results \(out)/../out/a.xml and --junit \(out)/a.xml are the same file: give each output its own path"), "\(junit.standardError)")
        let overTrace = try CLI.run(["run", scenario.path, "--trace", out, "--results", out + "/same.jsonl"])
        #expect(overTrace.status == 2)
        #expect(overTrace.standardError.contains("--results \(out)/same.jsonl is the trace of \(scenario.path), which --trace \(out) writes"), "\(overTrace.standardError)")
        #expect(!FileManager.default.fileExists(atPath: out), "nothing is written before the refusal")
        #expect(try String(contentsOf: scenario, encoding: .utf8) == text)
        // Devices are written in place, never destroyed: two outputs may both be /dev/null.
        let discarded = try CLI.run(["run", scenario.path, "--junit", "/dev/null", "--results", "/dev/null"])
        #expect(discarded.status == 0, "\(discarded.standardError)")
    }

    @Test func reportMergeServeAndLiveRefuseAnOutputThatIsAnInput() throws {
        let (folder, scenario, text) = try Self.folderWithScenario()
        defer { try? FileManager.default.removeItem(at: folder) }
        let traces = folder.appendingPathComponent("traces"), results = folder.appendingPathComponent("results.jsonl")
        #expect(try CLI.run(["run", scenario.path, "--trace", traces.path, "--results", results.path]).status == 0)
        let trace = traces.appendingPathComponent("same.jsonl")
        let traceText = try String(contentsOf: trace, encoding: .utf8)
        let resultsText = try String(contentsOf: results, encoding: .utf8)
        try Self.expectRefused(["report", traces.path, "--out", trace.path], saying: "--out \(trace.path) is the trace", keeps: trace, traceText)
        try Self.expectRefused(["report", traces.path, "--results", results.path, "--out", results.path], saying: "--out \(results.path) is the results file", keeps: results, resultsText)
        try Self.expectRefused(["report", traces.path, "--results", results.path, "--out", folder.path + "/link.yaml"], saying: "is the scenario file \(scenario.path)", keeps: scenario, text)
        try Self.expectRefused(["merge", results.path, "--results", results.path], saying: "--results \(results.path) is the results file \(results.path)", keeps: results, resultsText)
        try Self.expectRefused(["serve", scenario.path, "--nmea-tcp", "0", "--trace", scenario.path], saying: "--trace \(scenario.path) is the scenario file", keeps: scenario, text)
        #if os(Linux)
        let both = folder.appendingPathComponent("x.jsonl").path
        let live = try CLI.run(["live", scenario.path, "--gpsd", "127.0.0.1:9", "--trace", both, "--record", folder.path + "/./x.jsonl"], timeout: 30)
        #expect(live.status == 2)
        #expect(live.standardError.contains("--trace \(both) and --record \(folder.path)/./x.jsonl are the same file"), "\(live.standardError)")
        #expect(!FileManager.default.fileExists(atPath: both))
        try Self.expectRefused(["live", scenario.path, "--gpsd", "127.0.0.1:9", "--record", scenario.path], saying: "--record \(scenario.path) is the scenario file", keeps: scenario, text)
        #endif
    }

    @Test func nmeaToolsRefuseToWriteTheFileTheyRead() throws {
        let folder = try CLI.folder([:])
        defer { try? FileManager.default.removeItem(at: folder) }
        let log = folder.appendingPathComponent("walk.nmea")
        #expect(try CLI.run(["nmea", "export", "--waypoints", "0,0;0,0.001", "--out", log.path]).status == 0)
        let text = try String(contentsOf: log, encoding: .utf8)
        try Self.expectRefused(["nmea", "export", "--gpx", log.path, "--out", log.path], saying: "--out \(log.path) is the GPX file", keeps: log, text)
        // Standard output appended to the log being decoded would grow it as it is read.
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = ["nmea", "decode", log.path]
        let appending = try #require(FileHandle(forWritingAtPath: log.path))
        appending.seekToEndOfFile()
        let errors = Pipe()
        process.standardOutput = appending
        process.standardError = errors
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 2, "\(message)")
        #expect(message.contains("standard output goes to the NMEA log \(log.path)"), "\(message)")
        #expect(try String(contentsOf: log, encoding: .utf8) == text)
    }

    @Test(.enabled(if: OutputSafetyTests.hasDevFull, "needs /dev/full"))
    func outputsThatCannotBeWrittenExitOneAfterTheSummaryAndOnesThatCannotBeCreatedExitTwo() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for option in ["--junit", "--report"] {
            let run = try CLI.run(["run", Self.scenario, option, "/dev/full"])
            #expect(run.status == 1, "\(option): \(run.standardError)")
            #expect(run.standardOutput.contains("1 scenario: 1 passed, 0 failed"), "\(option): the summary is printed: \(run.standardOutput)")
            #expect(run.standardError.contains("/dev/full: No space left on device"), "\(option): \(run.standardError)")
        }
        let notAFolder = try CLI.run(["run", Self.scenario, "--trace", "/dev/null/traces"])
        #expect(notAFolder.status == 2)
        #expect(notAFolder.standardError.contains("error: cannot create the trace folder /dev/null/traces: Not a directory"), "\(notAFolder.standardError)")
        let results = try CLI.run(["run", Self.scenario, "--results", "/dev/null/results.jsonl"])
        #expect(results.status == 2, "\(results.standardError)")
        #expect(results.standardError.contains("error: --results /dev/null/results.jsonl cannot be created: /dev/null is not a folder"), "\(results.standardError)")
        let traces = folder.appendingPathComponent("traces")
        #expect(try CLI.run(["run", Self.scenario, "--trace", traces.path]).status == 0)
        let report = try CLI.run(["report", traces.path, "--out", "/dev/full"])
        #expect(report.status == 1, "\(report.standardError)")
        #expect(report.standardError.contains("error: cannot write the report /dev/full: No space left on device"), "\(report.standardError)")
        let serve = try CLI.run(["serve", Self.scenario, "--nmea-tcp", "127.0.0.1:0", "--speed", "100", "--trace", "/dev/full", "-q"], timeout: 60)
        #expect(serve.status == 1, "\(serve.standardOutput)\(serve.standardError)")
        #expect(serve.standardError.contains("error: cannot write the trace file /dev/full: No space left on device"), "\(serve.standardError)")
        #expect(serve.standardOutput.contains("served 10s of the scenario"), "\(serve.standardOutput)")
    }
}
