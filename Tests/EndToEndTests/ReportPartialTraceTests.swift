import Foundation
import Testing

/// The report keeps every scenario whose trace is readable up to a point: a trace cut short (a job
/// killed while writing it) is shown up to the cut, and the report says where (issue 38, item 7).
@Suite struct ReportPartialTraceTests {
    /// The report's data: the JSON inside its `<script>` (as ReportBrowserTests reads it).
    static func reportText(_ url: URL) throws -> String {
        try String(contentsOf: url, encoding: .utf8)
    }

    @Test func aTraceCutShortIsShownUpToTheCutAndTheCutIsNamed() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let traces = folder.appendingPathComponent("traces")
        let results = folder.appendingPathComponent("results.jsonl")
        #expect(try CLI.run(["run", "Scenarios/dog-walk/06-updating-the-current-location.yaml", "--trace", traces.path, "--results", results.path]).status == 0)
        let trace = traces.appendingPathComponent("06-updating-the-current-location.jsonl")
        var text = try String(contentsOf: trace, encoding: .utf8)
        let lines = text.split(separator: "\n").count
        text.removeLast(25)   // the last line loses its end, as when the run was killed while writing it
        try text.write(to: trace, atomically: true, encoding: .utf8)
        let report = folder.appendingPathComponent("report.html")
        let output = try CLI.run(["report", traces.path, "--results", results.path, "--out", report.path])
        #expect(output.status == 2, "a warning: \(output.standardError)")
        #expect(output.standardError.contains("06-updating-the-current-location.jsonl:\(lines):"), "\(output.standardError)")
        #expect(output.standardError.contains("the trace ends in the middle of a line"), "\(output.standardError)")
        #expect(output.standardError.contains("1 scenario, 1 in full"), "the scenario keeps its section: \(output.standardError)")
        let html = try Self.reportText(report)
        #expect(html.contains("The trace is cut at line \(lines)"), "the section says where the trace was cut")
        #expect(html.contains("marker.moved"), "the events read before the cut are shown")
    }

    @Test func aTraceWithABadLineInTheMiddleIsShownUpToIt() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let trace = folder.appendingPathComponent("odd.jsonl")
        try """
            {"t":0.000,"event":"scenario.started","name":"odd","seed":"1","devices":1}
            {"t":1.000,"device":"w","event":"marker.shown","lat":52.5,"lon":13.4}
            {"t":2.000,"device":"w","event":"marker.moved","lat":inf,"lon":13.4}
            {"t":3.000,"device":"w","event":"marker.moved","lat":52.6,"lon":13.4}

            """.write(to: trace, atomically: true, encoding: .utf8)
        let report = folder.appendingPathComponent("report.html")
        let output = try CLI.run(["report", trace.path, "--out", report.path])
        #expect(output.status == 2)
        #expect(output.standardError.contains("odd.jsonl:3:"), "\(output.standardError)")
        #expect(output.standardError.contains("the report shows the 2 events before that line"), "\(output.standardError)")
        #expect(try Self.reportText(report).contains("The trace is cut at line 3"))
    }
}
