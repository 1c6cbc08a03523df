import Foundation
import Testing

@Suite struct InterruptAndTypoTests {
    /// Ctrl-C during a 200-seed sweep of the bundled scenarios: no new run starts, and the results,
    /// the JUnit file and the report hold the runs that finished; the summary says "interrupted" and
    /// the status is 130.
    @Test func ctrlCDuringASweepWritesWhatFinished() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let results = folder.appendingPathComponent("results.jsonl"), junit = folder.appendingPathComponent("junit.xml")
        let report = folder.appendingPathComponent("report.html")
        let running = try CLI.start(["run", "Scenarios", "--seeds", "1-200", "-q", "--jobs", "2", "--results", results.path, "--junit", junit.path, "--report", report.path])
        // Wait (at most two minutes) for a few results: the header and three runs.
        let deadline = Date().addingTimeInterval(120)
        func resultLines() -> [Substring] { ((try? String(contentsOf: results, encoding: .utf8)) ?? "").split(separator: "\n") }
        while resultLines().count < 4, Date() < deadline, running.process.isRunning { Thread.sleep(forTimeInterval: 0.05) }
        try #require(running.process.isRunning, "the sweep ended before it could be interrupted")
        running.process.interrupt()
        let output = try running.finish(timeout: 120)
        #expect(output.status == 130, "\(output.standardError)")
        #expect(output.standardOutput.contains("interrupted: "), "\(output.standardOutput)")
        let lines = resultLines()
        let header = try #require(try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        let planned = try #require(header["planSize"] as? Int)
        let records = lines.dropFirst()
        #expect(records.count >= 3 && records.count < planned, "\(records.count) of \(planned) runs")
        #expect(output.standardOutput.contains("interrupted: \(records.count) of "), "\(output.standardOutput)")
        let xml = try String(contentsOf: junit, encoding: .utf8)
        #expect(xml.components(separatedBy: "<testcase ").count - 1 == records.count)
        #expect(FileManager.default.fileExists(atPath: report.path))
    }

    @Test func aMistypedCommandGetsTheNearestOne() throws {
        let output = try CLI.run(["rn", "Scenarios"])
        #expect(output.status == 2)
        #expect(output.standardError.contains("did you mean `run`?"), "\(output.standardError)")
        let far = try CLI.run(["zzzzzzzz"])
        #expect(far.status == 2)
        #expect(!far.standardError.contains("did you mean"))
    }
}
