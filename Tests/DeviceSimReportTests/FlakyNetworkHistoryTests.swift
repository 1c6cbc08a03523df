import DeviceSim
import DeviceSimHAL
@testable import DeviceSimReport
@testable import DeviceSimScenario
import DeviceSimTime
import Foundation
import Testing

/// The report's explanation of a flaky scenario (a passing and a failing seed side by side), its
/// network panel, and its history across earlier runs.
@Suite struct FlakyNetworkHistoryTests {
    init() throws { try ScenarioAppRegistry.register(BundledApps.all) }

    static func event(_ seconds: Double, _ device: String?, _ name: String, _ fields: [(String, TraceValue)] = []) -> TraceEvent {
        TraceEvent(time: VirtualInstant(offset: .milliseconds(Int64(seconds * 1000))), device: device, name: name, fields: fields.map { (key: $0.0, value: $0.1) })
    }

    // MARK: Where two traces part

    @Test func theFirstDivergenceIsTheFirstEventThatDiffersInTimeDeviceNameOrFields() {
        let shared = [Self.event(0, "a", "app.started"), Self.event(1, "a", "located", [("lat", .double(52.5))])]
        #expect(FlakyComparison.firstDivergence(shared, shared) == nil)
        #expect(FlakyComparison.firstDivergence(shared, shared + [Self.event(2, "a", "ping.sent")]) == 2, "one trace goes on")
        for other in [Self.event(1.5, "a", "located", [("lat", .double(52.5))]), Self.event(1, "b", "located", [("lat", .double(52.5))]),
                      Self.event(1, "a", "ping.sent", [("lat", .double(52.5))]), Self.event(1, "a", "located", [("lat", .double(52.6))])] {
            #expect(FlakyComparison.firstDivergence(shared, [shared[0], other]) == 1, "\(other)")
        }
    }

    @Test func theSeedThatScenarioStartedNamesIsNoDivergence() {
        let one = [Self.event(0, nil, "scenario.started", [("name", .string("walk")), ("seed", .int(1))]), Self.event(1, "a", "app.started")]
        var two = one
        two[0] = Self.event(0, nil, "scenario.started", [("name", .string("walk")), ("seed", .int(2))])
        #expect(FlakyComparison.firstDivergence(one, two) == nil)
        two[0] = Self.event(0, nil, "scenario.started", [("name", .string("run")), ("seed", .int(2))])
        #expect(FlakyComparison.firstDivergence(one, two) == 0, "other fields of scenario.started still count")
    }

    /// A sweep of a scenario whose marker check passes under some seeds and fails under others: the
    /// report compares its lowest passing and failing seeds at the first event that differs.
    @Test func aFlakySweepGetsASideBySideOfAPassingAndAFailingSeed() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flaky-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("flaky.yaml").path
        try """
            name: flaky marker
            duration: 1m
            devices:
              - { id: walker, at: [52.52, 13.405], gps: { accuracy: 5 }, app: { name: dog-walk, settings: { update-interval: 5s } } }
            timeline: [{ at: 0s, do: start-service }]
            expect: [{ position: marker, at: 30s, near: [52.52, 13.405], radius: 3.85 }]
            """.write(toFile: file, atomically: true, encoding: .utf8)
        let scenario = try ScenarioParser.parse(contentsOf: file)
        var inputs: [ReportGenerator.Input] = []
        var traces: [UInt64: [TraceEvent]] = [:]
        var passed: [UInt64: Bool] = [:]
        for seed in UInt64(1)...6 {
            var runner = ScenarioRunner()
            runner.seedOverride = seed
            let result = runner.run(scenario)
            let trace = folder.appendingPathComponent("flaky.seed-\(seed).jsonl").path
            try result.traceJSONLines.write(toFile: trace, atomically: true, encoding: .utf8)
            traces[seed] = try TraceFileReader.read(path: trace)
            passed[seed] = result.passed
            inputs.append(.init(record: RunRecord(result, position: Int(seed), path: file, name: "flaky.yaml", swept: true, wallSeconds: 0.01), tracePath: trace))
        }
        let failing = try #require(passed.filter { !$0.value }.keys.min()), passing = try #require(passed.filter { $0.value }.keys.min())
        let out = folder.appendingPathComponent("report.html").path
        _ = try ReportGenerator.write(inputs, to: out, wallSeconds: 1)
        let data = try ReportDataTests.embeddedData(String(contentsOfFile: out, encoding: .utf8))
        let comparisons = try #require(data["comparisons"] as? [[String: Any]])
        #expect(comparisons.count == 1)
        let comparison = try #require(comparisons.first)
        #expect(comparison["passSeed"] as? String == String(passing) && comparison["failSeed"] as? String == String(failing))
        let index = try #require(comparison["index"] as? Int)
        #expect(index == FlakyComparison.firstDivergence(traces[passing]!, traces[failing]!))
        let diverging = traces[failing]![index]
        #expect(comparison["t"] as? Int == Int(min(diverging.time, traces[passing]![index].time).nanoseconds / 1_000_000))
        // The events shown: each side's first differing event is marked, and is the trace's own.
        for (key, seed) in [("fail", failing), ("pass", passing)] {
            let events = try #require((comparison[key] as? [String: Any])?["events"] as? [[Any]])
            let first = try #require(events.first { $0[5] as? Int == 1 })
            #expect(first[2] as? String == traces[seed]![index].name)
        }
        let failure = try #require(comparison["failure"] as? [String: Any])
        #expect((failure["location"] as? String)?.hasSuffix("flaky.yaml:6:10") == true, "\(failure)")
        // Both sections exist; the links point at them.
        let sections = try #require(data["sections"] as? [[String: Any]])
        #expect(sections[comparison["failSection"] as! Int]["seed"] as? String == String(failing))
        #expect(sections[comparison["passSection"] as! Int]["seed"] as? String == String(passing))
    }

    // MARK: The network panel

    @Test func httpRequestsArePairedWithTheirArrivalAndAnswerOrLoss() {
        func http(_ t: Double, _ name: String, _ path: String, _ extra: [(String, TraceValue)] = []) -> TraceEvent {
            Self.event(t, "phone", name, [("method", .string("POST")), ("host", .string("api.example.com")), ("path", .string(path))] + extra)
        }
        let events = [
            http(1, "http.request", "/tasks"),
            http(1.2, "http.arrived", "/tasks", [("applied", .bool(true))]),
            http(2, "http.request", "/tasks"),
            http(1.4, "http.response", "/tasks", [("status", .int(201))]),
            http(2.2, "http.arrived", "/tasks", [("applied", .bool(true))]),
            http(17, "http.failed", "/tasks", [("error", .string("timedOut")), ("lost", .string("reply"))]),
            http(20, "http.request", "/ping"),
            http(20, "http.failed", "/ping", [("error", .string("notConnectedToInternet"))]),
        ]
        let rows = NetworkExchange.exchanges(in: events)
        #expect(rows.count == 3)
        #expect(rows[0].label == "POST api.example.com/tasks" && rows[0].outcome == "201" && rows[0].lost == nil)
        #expect(rows[0].arrived?.nanoseconds == 1_200_000_000 && rows[0].ended?.nanoseconds == 1_400_000_000)
        #expect(rows[1].outcome == "timedOut" && rows[1].lost == "reply" && rows[1].arrived?.nanoseconds == 2_200_000_000)
        #expect(rows[2].outcome == "notConnectedToInternet" && rows[2].arrived == nil && rows[2].lost == nil)
    }

    @Test func aConnectionsLossIsDatedFromItsSendAndClosedByItsTimeout() {
        let events = [
            Self.event(10, nil, "scenario.started", [("name", .string("x"))]),
            Self.event(20.2, "aino", "request.lost", [("operation", .string("achieve")), ("lost", .string("reply")), ("after", .double(0.2)), ("interface", .string("up"))]),
            Self.event(20.2, nil, "game.achieved", [("account", .string("aino")), ("objective", .string("chemicum")), ("points", .int(30))]),
            Self.event(35, "aino", "request.timed-out", [("operation", .string("achieve")), ("after", .double(15))]),
            Self.event(40, "aino", "request.lost", [("operation", .string("join")), ("lost", .string("request")), ("after", .double(0.5)), ("interface", .string("down"))]),
            Self.event(41, nil, "server.rows", [("probe", .string("0"))]),
        ]
        let rows = NetworkExchange.exchanges(in: events)
        #expect(rows.map(\.source) == [.connection, .server, .connection], "scenario.* and server.rows are no requests")
        #expect(rows[0].sent.nanoseconds == 20_000_000_000 && rows[0].ended?.nanoseconds == 35_000_000_000)
        #expect(rows[0].outcome == "timed out" && rows[0].lost == "reply")
        #expect(rows[1].label == "game.achieved account=aino objective=chemicum" && rows[1].outcome == "handled")
        #expect(rows[2].outcome == "connection lost" && rows[2].lost == "request" && rows[2].ended?.nanoseconds == 40_000_000_000)
    }

    // MARK: History

    static func record(_ name: String, seed: UInt64?, passed: Bool, invalid: Bool = false) throws -> RunRecord {
        let json = """
            {"position":0,"path":"\(name)","name":"\(name)","seed":\(seed.map { String($0) } ?? "null"),"swept":\(seed != nil),"passed":\(passed),
             \(invalid ? "\"invalid\":\"bad\"," : "")"expectations":1,"failures":[],"virtualSeconds":1,"wallSeconds":0}
            """
        return try JSONDecoder().decode(RunRecord.self, from: Data(json.utf8))
    }

    @Test func eachScenarioIsPassedFailedFlakyOrAbsentInEachRun() throws {
        let monday = try [Self.record("a.yaml", seed: 1, passed: true), Self.record("a.yaml", seed: 2, passed: true), Self.record("b.yaml", seed: 1, passed: false)]
        let tuesday = try [Self.record("a.yaml", seed: 1, passed: true), Self.record("a.yaml", seed: 2, passed: false), Self.record("b.yaml", seed: 1, passed: false),
                           Self.record("c.yaml", seed: nil, passed: false, invalid: true)]
        let history = ResultsHistory(runs: [.init(label: "monday", records: monday), .init(label: "tuesday", records: tuesday)])
        #expect(history.outcomes(of: "a.yaml") == [.passed, .flaky])
        #expect(history.outcomes(of: "b.yaml") == [.failed, .failed])
        #expect(history.outcomes(of: "c.yaml") == [nil, .invalid])
        #expect(["a.yaml", "b.yaml", "c.yaml"].map(history.verdict) == ["unstable", "failing", "failing"])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(history.json().utf8)) as? [String: Any])
        let scenarios = try #require(json["scenarios"] as? [[String: Any]])
        #expect(scenarios.map { $0["name"] as? String } == ["a.yaml", "b.yaml", "c.yaml"], "unstable first")
        let cells = try #require(scenarios[0]["cells"] as? [[Any]])
        #expect(cells[1][0] as? String == "flaky" && cells[1][3] as? String == "2", "tuesday's failing seed")
    }
}
