import DeviceSim
import DeviceSimHAL
@testable import DeviceSimReport
@testable import DeviceSimScenario
import DeviceSimTime
import Foundation
import Testing

@Suite struct MapProjectionTests {
    init() throws { try ScenarioAppRegistry.register(BundledApps.all) }

    let berlin = GeoCoordinate(latitude: 52.5145, longitude: 13.3501)

    @Test func northIsUpEastIsRightAndTheCentreIsInTheMiddle() {
        let north = berlin.offsetBy(east: 0, north: 500), east = berlin.offsetBy(east: 800, north: 0)
        let projection = MapProjection(fitting: [berlin, north, east])
        let a = projection.project(berlin), n = projection.project(north), e = projection.project(east)
        #expect(n.y < a.y && abs(n.x - a.x) < 1e-6)
        #expect(e.x > a.x && abs(e.y - a.y) < 1e-6)
        let middle = projection.project(projection.center)
        #expect(abs(middle.x - projection.width / 2) < 1e-9 && abs(middle.y - projection.height / 2) < 1e-9)
    }

    @Test func distancesOnTheMapMatchDistancesOnTheGround() {
        // 3 km by 2 km in Berlin: the local projection is true to well under a percent.
        let corner = berlin.offsetBy(east: 3000, north: 2000)
        let projection = MapProjection(fitting: [berlin, corner])
        let pairs: [(GeoCoordinate, GeoCoordinate)] = [(berlin, corner), (berlin, berlin.offsetBy(east: 3000, north: 0)), (berlin, berlin.offsetBy(east: 0, north: 2000))]
        for (from, to) in pairs {
            let a = projection.project(from), b = projection.project(to)
            let dx: Double = a.x - b.x, dy: Double = a.y - b.y
            let onMap = (dx * dx + dy * dy).squareRoot()
            let onGround = projection.length(metres: from.distance(to: to))
            #expect(abs(onMap - onGround) / onGround < 0.003, "\(onMap) units on the map, \(onGround) from the ground distance")
        }
    }

    @Test func everythingFitsInsideThePadding() {
        let points: [GeoCoordinate] = (0..<50).map { (index: Int) -> GeoCoordinate in
            let east = Double(index * 37 % 900) - 300, north = Double(index * 53 % 700) - 100
            return berlin.offsetBy(east: east, north: north)
        }
        let projection = MapProjection(fitting: points, width: 1000, padding: 40)
        for point in points.map(projection.project) {
            #expect(point.x >= 40 - 1e-6 && point.x <= 960 + 1e-6)
            #expect(point.y >= 40 - 1e-6 && point.y <= projection.height - 40 + 1e-6)
        }
        #expect(projection.height >= 400 && projection.height <= 1000)
    }

    @Test func onePointGetsTheSmallestSpan() {
        let projection = MapProjection(fitting: [berlin], width: 1000, padding: 100)
        #expect(abs(projection.unitsPerMetre - min(800.0 / MapProjection.minimumSpan, (projection.height - 200) / MapProjection.minimumSpan)) < 1e-9)
    }

    @Test func theScaleBarIsARoundNumberThatFitsInAFifth() {
        for span in [150.0, 420, 999, 2500, 18_000, 95_000] {
            let projection = MapProjection(fitting: [berlin, berlin.offsetBy(east: span, north: 0)])
            let bar = projection.scaleBar
            let exponent = floor(log10(bar.metres))
            let leading = bar.metres / pow(10, exponent)
            #expect([1.0, 2, 5].contains { abs($0 - leading) < 1e-9 }, "\(bar.metres) m")
            #expect(bar.length <= projection.width / 5 + 1e-9)
            let next: Double = leading == 1 ? 2 : leading == 2 ? 5 : 10
            #expect(next * pow(10, exponent) * projection.unitsPerMetre > projection.width / 5, "a longer round bar would fit too")
            #expect(abs(bar.length - bar.metres * projection.unitsPerMetre) < 1e-9)
        }
        #expect(MapProjection.ScaleBar(metres: 2000, length: 1).label == "2 km")
        #expect(MapProjection.ScaleBar(metres: 50, length: 1).label == "50 m")
    }
}

@Suite struct TraceFileReaderTests {
    init() throws { try ScenarioAppRegistry.register(BundledApps.all) }

    @Test func aTraceReadsBackToTheSameEventsAndBytes() throws {
        let events = [
            TraceEvent(time: .zero, device: nil, name: "scenario.started", fields: [("name", .string("a \"quoted\" \\ name\nwith ünïcode 🚶 and </script>")), ("seed", .string("1"))]),
            TraceEvent(time: VirtualInstant(nanoseconds: 1_234_000_000), device: "alice", name: "marker.moved", fields: [("lat", .double(52.5145123)), ("lon", .double(-13.35)), ("accuracy", .int(5))]),
            TraceEvent(time: VirtualInstant(nanoseconds: 86_400_000_000_000), device: "bob", name: "flags", fields: [("on", .bool(true)), ("off", .bool(false)), ("nothing", .null), ("tab", .string("\t\u{1}"))]),
        ]
        let text = TraceEvent.jsonLines(events)
        let read = try TraceFileReader.events(in: Data(text.utf8), file: "t.jsonl")
        #expect(TraceEvent.jsonLines(read) == text)
        #expect(read[0]["name"] == events[0]["name"])
        #expect(read[1].coordinate == events[1].coordinate)
        #expect(read[2].time == events[2].time)
    }

    @Test func aLineThatIsNotAnEventNamesItsFileAndLine() {
        let text = "{\"t\":0.000,\"event\":\"a\"}\n\n{\"t\":1.000,\"device\":\"x\"}\n"
        #expect(throws: ScenarioError.self) { try TraceFileReader.events(in: Data(text.utf8), file: "bad.jsonl") }
        do {
            _ = try TraceFileReader.events(in: Data(text.utf8), file: "bad.jsonl")
        } catch {
            #expect(error.location?.file == "bad.jsonl" && error.location?.line == 3, "\(error)")
        }
    }
}

@Suite struct ReportDataTests {
    init() throws { try ScenarioAppRegistry.register(BundledApps.all) }

    static let scenario = """
        name: report data
        seed: 3
        duration: 10m
        world: ../../Simulator/worlds/campus.yaml
        devices:
          - id: alice
            at: south-gate
            route: { start: 30s, waypoints: [{ at: library, pause: 1m }, mensa] }
            app: { name: friend-locator, settings: { auto-ping: false, auto-locate: false } }
          - { id: bob, at: library, online: false, app: { name: friend-locator } }
        timeline:
          - { at: 1m, device: alice, do: signal-loss, for: 90s }
          - { at: 2m, device: bob, do: go-online }
          - { at: 4m, device: bob, do: teleport, to: mensa }
          - { at: 5m, device: bob, do: move, waypoints: [main-building] }
          - { at: 6m, device: alice, do: wifi-off }
          - { at: 7m, device: alice, do: wifi-on }
        expect:
          - { event: hotspot.entered, device: alice, where: { hotspot: library } }
          - { event: ping.sent, device: alice, within: [2m, 3m] }
          - { event: prompt.shown, device: alice, count: 0 }
          - { position: map-center, device: bob, at: 9m, near: south-gate, radius: 5 }
        """

    func parse() throws -> Scenario {
        try ScenarioParser.parse(Self.scenario, file: ReportDataTests.repositoryRoot + "/Scenarios/friend-locator/report-data.yaml")
    }

    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    @Test func theReplayedMotionIsTheSimulatedMotion() throws {
        let scenario = try parse()
        let simulation = ScenarioSimulation(scenario)
        var simulated: [String: [GeoCoordinate]] = [:]
        let probes = stride(from: 0, through: 600, by: 7).map { VirtualInstant(offset: .seconds($0)) }
        for probe in probes {
            simulation.scheduler.schedule(at: probe) {
                for device in simulation.devices { simulated[device.device.id, default: []].append(device.motion.state(at: probe).coordinate) }
            }
        }
        try simulation.run()
        for spec in scenario.devices {
            let replay = try #require(DeviceMotionReplay(spec, scenario: scenario))
            let replayed = probes.map { replay.position(at: $0) }
            #expect(replayed == simulated[spec.id], "\(spec.id)")
        }
    }

    @Test func theSectionHoldsEveryEventFailuresWithMomentsAndTheDevicesStates() throws {
        let scenario = try parse()
        let result = ScenarioRunner().run(scenario)
        let section = ReportSection(name: "report-data.yaml", record: nil, scenario: scenario, events: result.events)
        #expect(section.devices == ["alice", "bob"])
        #expect(section.passed == false)
        #expect(section.failures.map(\.location) == result.outcomes.filter { !$0.passed }.map(\.location.description))
        // The failed ping expectation points at its window, the prompt one at the first prompt, the position at its time.
        let moments = Dictionary(uniqueKeysWithValues: section.failures.map { ($0.expected, $0.moment) })
        #expect(moments.first { $0.key.contains("ping.sent") }?.value == VirtualInstant(offset: .seconds(120)))
        let firstPrompt = result.events.first { $0.name == "prompt.shown" && $0.device == "alice" }?.time
        #expect(firstPrompt != nil && moments.first { $0.key.contains("prompt.shown") }?.value == firstPrompt)
        #expect(moments.first { $0.key.contains("map-center") }?.value == VirtualInstant(offset: .seconds(540)))

        func intervals(_ kind: ReportSection.Interval.Kind, _ device: Int) -> [(Double, Double)] {
            section.intervals.filter { $0.kind == kind && $0.device == device }.map { ($0.start.seconds, $0.end.seconds) }
        }
        #expect(intervals(.noSignal, 0).elementsEqual([(60, 150)], by: ==))
        #expect(intervals(.offline, 1).elementsEqual([(0, 120)], by: ==))
        #expect(intervals(.wifiOff, 0).elementsEqual([(360, 420)], by: ==))
        let prompts = section.intervals.filter { $0.kind == .prompt && $0.device == 0 }
        #expect(!prompts.isEmpty && prompts.allSatisfy { $0.label?.contains("timed out") ?? false || $0.label?.contains("not answered") ?? false })
    }

    @Test func theEmbeddedDataHasEveryEventAndDrawsWithinTheLimits() throws {
        let scenario = try parse()
        let result = ScenarioRunner().run(scenario)
        let section = ReportSection(name: "report-data.yaml", record: nil, scenario: scenario, events: result.events)
        var limits = ReportLimits()
        limits.mapMarkers = 3
        limits.trackPoints = 100
        var report = HTMLReport(limits: limits)
        report.add(section, record: nil)
        let data = try Self.embeddedData(report.html(wallSeconds: nil))
        let sections = try #require(data["sections"] as? [[String: Any]])
        #expect(sections.count == 1)
        let events = try #require(sections[0]["events"] as? [String: Any])
        let names = try #require(sections[0]["names"] as? [String])
        let times = try #require(events["t"] as? [Int]), nameIndices = try #require(events["n"] as? [Int]), fields = try #require(events["f"] as? [String])
        #expect(times.count == result.events.count)
        #expect(zip(nameIndices, result.events).allSatisfy { names[$0] == $1.name })
        #expect(zip(times, result.events).allSatisfy { $0 == Int($1.time.nanoseconds / 1_000_000) })
        #expect(zip(fields, result.events).allSatisfy { text, event in event.fields.allSatisfy { text.contains("\($0.key)=\($0.value)") } })
        let markers = try #require(sections[0]["markers"] as? [Int])
        #expect(markers.count == 3)
        #expect((sections[0]["markersLeftOut"] as? Int ?? 0) > 0)
        let tracks = try #require(sections[0]["tracks"] as? [[Int]])
        #expect(tracks.count == 2)
        // 100 points shared by 2 devices, at least 30 each: about 50 a device, plus the changes of motion.
        for track in tracks { #expect(track.count % 3 == 0 && track.count / 3 <= 50 + 8, "\(track.count / 3) points") }
        let failures = try #require(sections[0]["failures"] as? [[String: Any]])
        #expect(failures.count == section.failures.count)
        let map = try #require(sections[0]["map"] as? [String: Any])
        #expect((map["hotspots"] as? [Any])?.count == scenario.world?.hotspots.count)
        #expect((map["beacons"] as? [Any])?.count == scenario.world?.beacons.count)
    }

    @Test func aDeviceThatPlaysAnNMEALogIsDrawnWhereTheLogPutsIt() throws {
        let scenario = try ScenarioParser.parse(contentsOf: Self.repositoryRoot + "/Scenarios/dog-walk/nmea-playback.yaml")
        let result = ScenarioRunner().run(scenario)
        let section = ReportSection(name: "nmea-playback.yaml", record: nil, scenario: scenario, events: result.events)
        let track = try #require(section.tracks(pointsPerDevice: 100_000).first?.points)
        let markers = result.events.filter { $0.name == "marker.moved" }
        #expect(markers.count > 100 && track.count > 3 * markers.count, "a fix a second, a marker update every few seconds")
        // Every position the app showed is a fix of the log played again: the latest one at that instant
        // (the one at the same instant, or the one before when the update ran first).
        let unmatched = markers.filter { marker in
            guard let shown = marker.coordinate else { return true }
            return !track.contains { fix in
                fix.time <= marker.time && fix.time.duration(to: marker.time) <= .seconds(2)
                    && abs(fix.coordinate.latitude - shown.latitude) < 1e-6 && abs(fix.coordinate.longitude - shown.longitude) < 1e-6
            }
        }
        #expect(unmatched.isEmpty, "\(unmatched.count) of \(markers.count) markers are not at a fix of the log, e.g. \(unmatched.first.map(\.jsonLine) ?? "")")
    }

    @Test func textFromATraceCannotCloseTheDataScript() throws {
        let events = [TraceEvent(time: .zero, device: "x", name: "note", fields: [("text", .string("</script><script>alert(1)</script><!--"))])]
        var report = HTMLReport()
        report.add(ReportSection(name: "x", record: nil, scenario: nil, events: events), record: nil)
        let html = report.html(wallSeconds: nil)
        #expect(!html.contains("</script><script>alert"))
        #expect(!html.contains("<!--"))
        let data = try Self.embeddedData(html)
        let section = try #require((data["sections"] as? [[String: Any]])?.first)
        #expect(((section["events"] as? [String: Any])?["f"] as? [String]) == ["text=</script><script>alert(1)</script><!--"])
        #expect(section["status"] as? String == "unknown")
    }

    /// The JSON in the page's data script.
    static func embeddedData(_ html: String) throws -> [String: Any] {
        let opening = #"<script type="application/json" id="report-data">"#
        let start = try #require(html.range(of: opening)).upperBound
        let end = try #require(html.range(of: "</script>", range: start..<html.endIndex)).lowerBound
        return try #require(try JSONSerialization.jsonObject(with: Data(html[start..<end].utf8)) as? [String: Any])
    }
}

@Suite struct ReportGeneratorTests {
    init() throws { try ScenarioAppRegistry.register(BundledApps.all) }

    @Test func aTraceFindsTheScenarioFileThatWroteIt() {
        let found = [
            ScenarioDiscovery.Found(path: "Scenarios/dog-walk/tunnel.yaml", relativeName: "dog-walk/tunnel.yaml"),
            ScenarioDiscovery.Found(path: "Scenarios/tunnel.yaml", relativeName: "tunnel.yaml"),
            ScenarioDiscovery.Found(path: "Scenarios/dog-walk/walk-2km.yml", relativeName: "dog-walk/walk-2km.yml"),
        ]
        #expect(ReportGenerator.scenario(forTrace: "out/traces/dog-walk/tunnel.jsonl", among: found)?.path == "Scenarios/dog-walk/tunnel.yaml")
        #expect(ReportGenerator.scenario(forTrace: "out/traces/dog-walk/tunnel.seed-7.jsonl", among: found)?.path == "Scenarios/dog-walk/tunnel.yaml")
        #expect(ReportGenerator.scenario(forTrace: "out/traces/tunnel.jsonl", among: found)?.path == "Scenarios/tunnel.yaml")
        #expect(ReportGenerator.scenario(forTrace: "walk-2km.jsonl", among: found) == nil)
        #expect(ReportGenerator.scenario(forTrace: "t/dog-walk/walk-2km.jsonl", among: found)?.path == "Scenarios/dog-walk/walk-2km.yml")
        #expect(ReportGenerator.scenario(forTrace: "out/traces/long-tunnel.jsonl", among: found) == nil)
    }

    @Test func pastTheLimitFailedScenariosKeepTheirSectionsAndEveryScenarioItsRow() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var inputs: [ReportGenerator.Input] = []
        for (position, count) in [1, 1, 5, 1].enumerated() {
            let file = folder.appendingPathComponent("s\(position).yaml").path
            try """
                name: scenario \(position)
                duration: 1m
                devices: [{ id: walker, at: [52.5, 13.4], app: { name: dog-walk } }]
                timeline: [{ at: 0s, do: start-service }]
                expect: [{ event: marker.shown, count: \(count) }]
                """.write(toFile: file, atomically: true, encoding: .utf8)
            let result = ScenarioRunner().run(try ScenarioParser.parse(contentsOf: file))
            let trace = folder.appendingPathComponent("s\(position).jsonl").path
            try result.traceJSONLines.write(toFile: trace, atomically: true, encoding: .utf8)
            inputs.append(.init(record: RunRecord(result, position: position, path: file, name: "s\(position).yaml", swept: false, wallSeconds: 0.01), tracePath: trace))
        }
        var limits = ReportLimits()
        limits.detailedScenarios = 2
        let out = folder.appendingPathComponent("report.html").path
        let summary = try ReportGenerator.write(inputs, to: out, wallSeconds: 1, limits: limits)
        #expect(summary.detailed == 2 && summary.scenarios == 4 && summary.warnings.isEmpty)
        let data = try ReportDataTests.embeddedData(String(contentsOfFile: out, encoding: .utf8))
        let rows = try #require(data["rows"] as? [[String: Any]])
        #expect(rows.map { $0["name"] as? String } == ["s2.yaml", "s0.yaml", "s1.yaml", "s3.yaml"], "failed first, then run order")
        #expect(rows.map { $0["section"] as? Int } == [0, 1, -1, -1])
        let sections = try #require(data["sections"] as? [[String: Any]])
        #expect(sections.map { $0["status"] as? String } == ["failed", "passed"])
        #expect((rows[3]["failures"] as? [Any])?.isEmpty == true && rows[3]["status"] as? String == "passed")
    }
}

extension ReportGeneratorTests {
    /// Traces without a results record past `--detailed` keep their rows, judged from the trace
    /// (they were left out with a warning: "100 scenarios" of 192).
    @Test func tracesWithoutRecordsPastTheLimitKeepTheirRowsJudgedFromTheTrace() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var inputs: [ReportGenerator.Input] = []
        for (position, count) in [1, 5, 1].enumerated() {
            let file = folder.appendingPathComponent("s\(position).yaml").path
            try """
                name: scenario \(position)
                seed: 4
                duration: 1m
                devices: [{ id: walker, at: [52.5, 13.4], app: { name: dog-walk } }]
                timeline: [{ at: 0s, do: start-service }]
                expect: [{ event: marker.shown, count: \(count) }]
                """.write(toFile: file, atomically: true, encoding: .utf8)
            var runner = ScenarioRunner()
            runner.seedOverride = 9
            let trace = folder.appendingPathComponent("s\(position).jsonl").path
            try runner.run(try ScenarioParser.parse(contentsOf: file)).traceJSONLines.write(toFile: trace, atomically: true, encoding: .utf8)
            inputs.append(.init(tracePath: trace, scenarioPath: file, name: "s\(position).yaml"))
        }
        inputs.append(.init(tracePath: folder.appendingPathComponent("gone.jsonl").path, name: "gone.jsonl"))
        for detailed in [0, 1] {
            var limits = ReportLimits()
            limits.detailedScenarios = detailed
            let out = folder.appendingPathComponent("report.html").path
            let summary = try ReportGenerator.write(inputs, to: out, wallSeconds: nil, limits: limits)
            #expect(summary.scenarios == 4 && summary.detailed == detailed)
            #expect(summary.warnings.count == 1 && summary.warnings[0].contains("gone.jsonl"), "only the missing trace: \(summary.warnings)")
            let data = try ReportDataTests.embeddedData(String(contentsOfFile: out, encoding: .utf8))
            let rows = try #require(data["rows"] as? [[String: Any]])
            #expect(Set(rows.compactMap { $0["name"] as? String }) == ["s0.yaml", "s1.yaml", "s2.yaml", "gone.jsonl"])
            let byName = Dictionary(uniqueKeysWithValues: rows.map { ($0["name"] as! String, $0) })
            #expect(byName["s0.yaml"]?["status"] as? String == "passed")
            #expect(byName["s1.yaml"]?["status"] as? String == "failed")
            #expect((byName["s1.yaml"]?["failures"] as? [Any])?.count == 1)
            #expect(byName["gone.jsonl"]?["status"] as? String == "unknown")
            // The trace's own seed (the run's --seed 9), not the file's 4.
            #expect(byName["s2.yaml"]?["seed"] as? String == "9")
            for name in ["s0", "s2"] {   // s0 with a section of its own under --detailed 1
                #expect(byName["\(name).yaml"]?["reproduce"] as? String == "devicesim run \(folder.path)/\(name).yaml --seed 9")
            }
            let counts = try #require(data["counts"] as? [String: Int])
            #expect(counts == ["passed": 2, "failed": 1, "invalid": 0, "unknown": 1])
        }
    }

    /// The command that reproduces a run names its seed, also a `--seed N` run's (it said
    /// `devicesim run tight.yaml`, which ran under the file's own seed and passed).
    @Test func theReproduceCommandNamesTheSeed() throws {
        let scenario = try ScenarioParser.parse("""
            name: tight
            seed: 11
            devices: [{ id: walker, at: [52.5, 13.4] }]
            duration: 10s
            """, file: "tight.yaml")
        var runner = ScenarioRunner()
        runner.seedOverride = 1
        let record = RunRecord(runner.run(scenario), position: 0, path: "tight.yaml", name: "tight.yaml", swept: false, wallSeconds: 0)
        #expect(record.seed == 1)
        #expect(record.reproduceCommand == "devicesim run tight.yaml --seed 1")
        let own = RunRecord(ScenarioRunner().run(scenario), position: 0, path: "my tight.yaml", name: "tight.yaml", swept: false, wallSeconds: 0)
        #expect(own.reproduceCommand == "devicesim run 'my tight.yaml' --seed 11")
    }

    @Test func theSameTracesGiveTheSameReportByteForByte() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = ReportDataTests.repositoryRoot + "/Scenarios/friend-locator/hotspot-left.yaml"
        let trace = folder.appendingPathComponent("hotspot-left.jsonl").path
        try ScenarioRunner().run(try ScenarioParser.parse(contentsOf: file)).traceJSONLines.write(toFile: trace, atomically: true, encoding: .utf8)
        let input = ReportGenerator.Input(tracePath: trace, scenarioPath: file, name: "hotspot-left.yaml")
        let first = folder.appendingPathComponent("a.html").path, second = folder.appendingPathComponent("b.html").path
        _ = try ReportGenerator.write([input], to: first, wallSeconds: nil)
        _ = try ReportGenerator.write([input], to: second, wallSeconds: nil)
        #expect(try Data(contentsOf: URL(fileURLWithPath: first)) == Data(contentsOf: URL(fileURLWithPath: second)))
    }
}
