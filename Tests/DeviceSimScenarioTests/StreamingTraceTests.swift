import DeviceSim
import DeviceSimHAL
import DeviceSimScenario
import Foundation
import Testing

/// A trace streamed to its file and expectations tallied as events go by, without keeping the trace:
/// what live mode does for a day outdoors (and what `run` can reuse).
@Suite struct StreamingTraceTests {
    init() throws { try ScenarioAppRegistry.register(BundledApps.all) }

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func temporaryFile(_ name: String) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("devicesim-stream-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent(name).path
    }

    @Test(arguments: ["dog-walk/walk-2km.yaml", "friend-locator/most-private-ping-and-manual-pin.yaml", "dog-walk/tunnel.yaml"])
    func streamingGivesTheSameTraceAndOutcomesAsHoldingTheTrace(_ file: String) throws {
        let scenario = try ScenarioParser.parse(contentsOf: Self.repository.appendingPathComponent("Scenarios/\(file)").path)
        let held = ScenarioRunner().run(scenario)

        let path = try temporaryFile("trace.jsonl")
        let recorder = TraceRecorder(keepsEvents: false)
        let writer = try TraceFileWriter(path: path, flushing: .buffered(bytes: 4_096))
        let tally = ExpectationTally(scenario.expectations)
        recorder.forward(to: writer)
        recorder.forward(to: tally)
        let simulation = ScenarioSimulation(scenario, trace: recorder)
        try simulation.run()
        try writer.close()

        #expect(recorder.events.isEmpty, "nothing is held in memory")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == held.traceJSONLines)
        #expect(writer.eventCount == held.events.count)
        let streamed = tally.outcomes.map { "\($0.passed) \($0.expected) / \($0.observed)" }
        #expect(streamed == held.outcomes.map { "\($0.passed) \($0.expected) / \($0.observed)" })
        #expect(!streamed.isEmpty)
    }

    /// A run that writes no trace makes no `wifi.scan` text, but an expectation that looks at the
    /// scans still sees every one of them, as a run that holds its trace does.
    @Test func scansAreRecordedForAnExpectationOnThemWithoutATrace() throws {
        let text = try String(contentsOf: Self.repository.appendingPathComponent("Scenarios/friend-locator/in-the-library.yaml"), encoding: .utf8)
            .replacingOccurrences(of: "expect:\n", with: "expect:\n  - { event: wifi.scan, device: alice, at-least: 3 }\n")
        let scenario = try ScenarioParser.parse(text, file: Self.repository.appendingPathComponent("Scenarios/friend-locator/scans.yaml").path)
        let held = ScenarioRunner().run(scenario)
        let streamed = ScenarioRunner().run(scenario, traceFile: nil, keepingEvents: false)
        let heldScans = held.events.filter { $0.name == "wifi.scan" }
        #expect(heldScans.count >= 3)
        #expect(streamed.events.filter { $0.name == "wifi.scan" } == heldScans)
        #expect(streamed.passed && held.passed)
    }

    @Test func everyEventIsOnDiskAsSoonAsItIsRecorded() throws {
        let path = try temporaryFile("live.jsonl")
        let writer = try TraceFileWriter(path: path, flushing: .everyEvent)
        for second in 0..<3 {
            writer.record(TraceEvent(time: .zero.advanced(by: .seconds(second)), device: "walker", name: "marker.moved", fields: [("lat", .double(52.5))]))
            let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
            #expect(lines.count == second + 1, "written before the run ends")
            #expect(lines.last == "{\"t\":\(second).000,\"device\":\"walker\",\"event\":\"marker.moved\",\"lat\":52.5}")
        }
        try writer.close()
    }

    @Test func aTraceThatCannotBeCreatedSaysWhere() {
        #expect {
            try TraceFileWriter(path: "/dev/null/t.jsonl", flushing: .everyEvent)
        } throws: { error in
            (error as? ScenarioError)?.message.contains("/dev/null/t.jsonl") == true
        }
    }

    @Test func scriptedAnswersAreSkippedForADeviceAnsweredByAPerson() throws {
        let scenario = try ScenarioParser.parse(contentsOf: Self.repository.appendingPathComponent("Scenarios/friend-locator/in-the-library.yaml").path)
        let simulation = ScenarioSimulation(scenario)
        simulation.devicesAnsweredByUser = ["alice"]
        try simulation.run()
        let alice = simulation.trace.events.filter { $0.device == "alice" }
        let skipped = alice.filter { $0.name == "step.skipped" }
        #expect(skipped.map { $0["prompt"]?.description } == ["inform-group", "locate-precisely"])
        #expect(skipped.allSatisfy { $0["reason"]?.description == "prompts are answered from the keyboard" })
        #expect(alice.contains { $0.name == "prompt.timed-out" && $0["prompt"]?.description == "inform-group" }, "nobody answered, so the app's timeout applies")
        #expect(!alice.contains { $0.name == "prompt.answered" })
    }
}
