import DeviceSimTestSupport
import Foundation
import Testing

/// The HTML report as people use it, in Chromium driven by Playwright at a desktop's 1400x1000 and a
/// phone's 390x844: what the map draws (routes on the streets, the places and radii expectations
/// checked, the app's marker), the steps and the "app at time t" panel, a seed sweep grouped per
/// scenario, and the layout (no sideways overflow, collapsing, the scenario filter, map zoom and pan),
/// each checked against the run's traces and results.
extension ReportBrowserTests {
    static let sizes = [(1400, 1000), (390, 844)]

    /// Where screenshots go: `REPORT_SCREENSHOTS`, or .build/report-screenshots.
    static var screenshotFolder: URL {
        ProcessInfo.processInfo.environment["REPORT_SCREENSHOTS"].map { URL(fileURLWithPath: $0) } ?? screenshots
    }

    /// A walk along Helsinki's streets (follow-route) checked at two wrong places: a position
    /// expectation near Kiasma, where the walk never goes, and a record the app never placed; and a
    /// courier with no app who walks, then is somewhere else at once (a teleport: his track breaks).
    static func roadsScenario() -> String {
        """
        name: Walking from the station to the Senate Square, checked at the wrong places
        seed: 3
        world: \(CLI.repositoryRoot.path)/Simulator/worlds/helsinki.yaml
        duration: 20m
        devices:
          - id: walker
            at: railway-station
            gps: { accuracy: 3 }
            app: { name: dog-walk, settings: { update-interval: 5s } }
          - id: courier
            at: kiasma
            route: { waypoints: [ateneum] }
        timeline:
          - { at: 0s, device: walker, do: start-service }
          - { at: 10s, device: walker, do: follow-route, to: senate-square, mode: foot }
          - { at: 30s, device: walker, do: click-poo }
          - { at: 6m, device: courier, do: teleport, to: stockmann }
        expect:
          - { event: step, within: [10s, 10s], where: { do: follow-route, mode: foot, stops: senate-square } }
          - { position: marker, device: walker, at: 8m, near: [60.16986, 24.95073], radius: 25 }
          - { position: marker, device: walker, at: 8m, near: kiasma, radius: 25 }
          - { position: marker, device: walker, at: 17m, near: senate-square, radius: 25 }
          - { event: record.placed, at-least: 1 }
        """
    }

    /// The JSON objects of a trace file.
    static func traceEvents(_ file: URL) throws -> [[String: Any]] {
        try String(contentsOf: file, encoding: .utf8).split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    /// The records of a results file (its header dropped).
    static func resultRecords(_ file: URL) throws -> [[String: Any]] {
        try String(contentsOf: file, encoding: .utf8).split(separator: "\n").dropFirst().map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    /// Moves section `section`'s slider to `ms` milliseconds, as a person drags it.
    static func setTime(_ section: Int, _ ms: Int) -> String {
        "(() => { const s = document.querySelector('#s\(section) input[type=range]'); s.value = '\(ms)'; s.dispatchEvent(new Event('input')); return 0; })()"
    }

    /// [scrollWidth, viewport width, the smallest height of a timeline lane label on screen, in px].
    static let layoutProbe = """
        [document.documentElement.scrollWidth, window.innerWidth,
         Math.min(...[...document.querySelectorAll('section.scenario:not(.collapsed) svg.timeline > text')].map(t => t.getBoundingClientRect().height).concat([99]))]
        """

    @Test(.enabled(if: SlowTests.run, "slow: DEVICESIM_SLOW_TESTS=1 swift test (or .ci/run) runs it"), .enabled(if: Playwright.shouldRun, "Python's playwright and Debian's chromium"))
    func aFailingRoadsScenarioDrawsTheRouteTheStreetsTheChecksAndTheSteps() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenarios = folder.appendingPathComponent("roads-demo")
        try FileManager.default.createDirectory(at: scenarios, withIntermediateDirectories: true)
        try Self.roadsScenario().write(to: scenarios.appendingPathComponent("walk-checked-wrongly.yaml"), atomically: true, encoding: .utf8)
        let traces = folder.appendingPathComponent("traces"), results = folder.appendingPathComponent("results.jsonl"), report = folder.appendingPathComponent("roads.html")
        let run = try CLI.run(["run", scenarios.path, "--trace", traces.path, "--results", results.path, "--report", report.path])
        #expect(run.status == 1, "\(run.standardOutput)\(run.standardError)")

        // What the trace and the results say.
        let events = try Self.traceEvents(traces.appendingPathComponent("walk-checked-wrongly.jsonl"))
        let route = try #require(events.first { $0["event"] as? String == "step" && $0["do"] as? String == "follow-route" })
        let routeLength = try #require(route["length"] as? Double)
        let steps = events.filter { ["step", "step.skipped"].contains($0["event"] as? String) }.count
        let markers = events.filter { $0["event"] as? String == "marker.moved" }
        let teleports = events.filter { $0["event"] as? String == "step" && $0["do"] as? String == "teleport" && $0["device"] as? String == "courier" }
        let record = try #require(try Self.resultRecords(results).first)
        let failures = try #require(record["failures"] as? [[String: Any]])
        #expect(failures.count == 2)
        #expect(events.contains { $0["event"] as? String == "action.ignored" }, "the click is refused: a step with a status of its own")
        // Three marker updates to look at: the app's marker, and the device itself, must be where the trace says.
        let probes = [markers[markers.count / 4], markers[markers.count / 2], markers[3 * markers.count / 4]].map { Int((($0["t"] as? Double) ?? 0) * 1000) }

        for (width, height) in Self.sizes {
            var steps_: [Playwright.Step] = [.open(report.absoluteString), .evaluate(Self.layoutProbe)]
            steps_.append(.evaluate("""
                (() => { const s = document.querySelector('#s0'), d = JSON.parse(document.getElementById('report-data').textContent).sections[0];
                  const p = s.querySelector('path.track[data-device=walker]');
                  return [p.getTotalLength() / d.map.upm, s.querySelectorAll('path.track').length, s.querySelectorAll('use.streets').length,
                          (document.querySelector('#streets-0 path.road').getAttribute('d') || '').length, d.map.upm,
                          s.querySelectorAll('path.marker-trail').length,
                          (s.querySelector('path.track[data-device=courier]').getAttribute('d').match(/M/g) || []).length]; })()
                """))
            for probe in probes {
                steps_.append(.evaluate(Self.setTime(0, probe)))
                steps_.append(.evaluate("""
                    (() => { const s = document.querySelector('#s0'), d = JSON.parse(document.getElementById('report-data').textContent).sections[0], e = d.events;
                      const xy = g => g.getAttribute('transform').match(/-?[0-9.]+/g).map(Number);
                      const pin = s.querySelector('g.app-marker'), now = s.querySelector('g.now');
                      const k = Number(pin.getAttribute('data-event'));
                      return [pin.getAttribute('visibility'), e.t[k], xy(pin)[0] - e.x[k], xy(pin)[1] - e.y[k], Math.hypot(xy(pin)[0] - xy(now)[0], xy(pin)[1] - xy(now)[1]) / d.map.upm,
                              s.querySelector('.app-panel').textContent]; })()
                    """))
            }
            steps_.append(.evaluate("""
                (() => { const s = document.querySelector('#s0'), d = JSON.parse(document.getElementById('report-data').textContent).sections[0];
                  return [...s.querySelectorAll('g.check')].map(g => [Number(g.getAttribute('data-check')), g.classList.contains('failed'), Number(g.querySelector('circle').getAttribute('r')) / d.map.upm]); })()
                """))
            steps_.append(.evaluate("""
                (() => { const s = document.querySelector('#s0');
                  return [s.querySelectorAll('.step[data-step]').length, s.querySelectorAll('.step.check').length, s.querySelectorAll('.step.check.failed').length,
                          [...s.querySelectorAll('.step[data-step]')].map(r => r.className.replace('step ', ''))]; })()
                """))
            // The failed position check, clicked in the list, is marked on the map.
            steps_.append(.click("#s0 .step.check.failed[data-check='2']"))
            steps_.append(.evaluate("[...document.querySelectorAll('#s0 g.check.active')].map(g => g.getAttribute('data-check'))"))
            // Zoom and pan: the map opens on the tracks and checks (zoomed in where the world is larger).
            steps_.append(.evaluate("Number(document.querySelector('#s0 svg.map').getAttribute('data-zoom'))"))
            steps_.append(.click("#s0 .zoom-in"))
            steps_.append(.evaluate("[document.querySelector('#s0 svg.map').getAttribute('data-zoom'), document.querySelector('#s0 svg.map').getAttribute('viewBox')]"))
            steps_.append(.drag("#s0 svg.map", 60, 30))
            steps_.append(.evaluate("document.querySelector('#s0 svg.map').getAttribute('viewBox')"))
            steps_.append(.wheel("#s0 svg.map", -300))
            steps_.append(.evaluate("Number(document.querySelector('#s0 svg.map').getAttribute('data-zoom'))"))
            steps_.append(.click("#s0 .zoom-fit"))
            steps_.append(.evaluate("document.querySelector('#s0 svg.map').getAttribute('data-zoom')"))
            steps_.append(.evaluate(Self.setTime(0, 480_000)))
            steps_.append(.evaluate("window.scrollTo(0, 0)"))
            try FileManager.default.createDirectory(at: Self.screenshotFolder, withIntermediateDirectories: true)
            steps_.append(.screenshot(Self.screenshotFolder.appendingPathComponent("roads-failing-\(width).png"), fullPage: true))
            let (values, console) = try Playwright.run(steps_, width: width, height: height)
            #expect(console.isEmpty, "console at \(width): \(console)")
            var results = values.makeIterator()

            let layout = try #require(results.next() as? [Double])
            #expect(layout[0] <= layout[1], "no sideways overflow at \(width) px: \(layout)")
            #expect(layout[2] >= 11, "timeline labels readable at \(width) px: \(layout[2]) px high")

            let map = try #require(results.next() as? [Double])
            // The route the trace says, drawn on the map (thinned: its corners cut by at most a metre or two).
            #expect(abs(map[0] - routeLength) < routeLength * 0.01, "a track of \(map[0]) m for a route of \(routeLength) m at \(width) px")
            #expect(map[1] == 2 && map[2] == 1 && map[3] > 2_000, "a track a device and the streets: \(map)")
            #expect(map[5] == 1, "the app's marker trail")
            #expect(map[6] == Double(teleports.count + 1), "the courier's track breaks at each teleport the trace has: \(map[6]) pieces")
            let upm = map[4]

            for probe in probes {
                _ = results.next()
                let shown = try #require(results.next() as? [Any])
                #expect(shown[0] as? String == "visible")
                #expect((shown[1] as? Double).map { Int($0) } == probe, "the pin shows the marker of the trace's event at \(probe) ms")
                #expect(abs(shown[2] as? Double ?? 99) < 0.5 && abs(shown[3] as? Double ?? 99) < 0.5, "the pin stands where the trace's marker is")
                #expect((shown[4] as? Double ?? 99) < 15, "the device is within the GPS noise of its app's marker: \(shown[4]) m at \(probe) ms")
                #expect((shown[5] as? String ?? "").contains("marker"), "the panel shows the marker: \(shown[5])")
            }

            let checks = try #require(results.next() as? [[Any]])
            #expect(checks.map { $0[0] as? Double } == [1, 2, 3], "a circle for each position expectation")
            #expect(checks.map { $0[1] as? Bool } == [false, true, false], "the one near Kiasma failed")
            #expect(checks.allSatisfy { abs(($0[2] as? Double ?? 0) - 25) < 0.2 }, "radius 25 m: \(checks)")

            let stepList = try #require(results.next() as? [Any])
            #expect(stepList[0] as? Double == Double(steps) && stepList[1] as? Double == 5 && stepList[2] as? Double == Double(failures.count))
            #expect(stepList[3] as? [String] == ["done", "done", "refused", "done"], "start-service, follow-route, the click the app refused, the teleport")

            #expect(results.next() as? [String] == ["2"], "the clicked check is marked on the map")
            let opened = try #require(results.next() as? Double)
            #expect(opened >= 1, "the map opens on the tracks, never wider than the world")
            let zoomed = try #require(results.next() as? [String])
            #expect(Double(zoomed[0]).map { abs($0 - 2 * opened) < 0.02 } == true, "zoom in doubles the zoom: \(zoomed[0]) from \(opened)")
            let panned = try #require(results.next() as? String)
            #expect(panned != zoomed[1], "a drag pans the map")
            #expect((results.next() as? Double ?? 0) > 2, "the wheel zooms in")
            #expect(results.next() as? String == "1.00", "the fit button shows everything again")
            _ = upm
        }
    }

    @Test(.enabled(if: SlowTests.run, "slow: DEVICESIM_SLOW_TESTS=1 swift test (or .ci/run) runs it"), .enabled(if: Playwright.shouldRun, "Python's playwright and Debian's chromium"))
    func theAppPanelShowsWhatTheAppShowedAtTheTimeChosen() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenarios = folder.appendingPathComponent("demo")
        try FileManager.default.createDirectory(at: scenarios, withIntermediateDirectories: true)
        try Self.failingScenario().write(to: scenarios.appendingPathComponent("meet-in-the-mensa.yaml"), atomically: true, encoding: .utf8)
        let traces = folder.appendingPathComponent("traces"), report = folder.appendingPathComponent("mensa.html")
        _ = try CLI.run(["run", scenarios.path, "--trace", traces.path, "--report", report.path, "-q"])
        let events = try Self.traceEvents(traces.appendingPathComponent("meet-in-the-mensa.jsonl"))
        // Each prompt the trace shows: on its device's panel while it shows, gone once answered or timed out.
        let shown = events.filter { $0["event"] as? String == "prompt.shown" }
        #expect(shown.count >= 2)
        var steps: [Playwright.Step] = [.open(report.absoluteString + "#s0")]
        var expected: [(device: String, message: String, showing: Bool)] = []
        for prompt in shown.prefix(4) {
            let device = try #require(prompt["device"] as? String), id = try #require(prompt["prompt"] as? String)
            let at = try #require(prompt["t"] as? Double)
            let message = try #require(prompt["message"] as? String)
            let closed = events.first { ["prompt.answered", "prompt.timed-out", "prompt.withdrawn"].contains($0["event"] as? String) && $0["device"] as? String == device && $0["prompt"] as? String == id && ($0["t"] as? Double ?? 0) >= at }
            let panel = "document.querySelector('#s0 .app-panel .device[data-device=\(device)]')?.textContent || ''"
            steps += [.evaluate(Self.setTime(0, Int(at * 1000))), .evaluate(panel)]
            expected.append((device, message, true))
            if let closedAt = closed?["t"] as? Double, closedAt > at {
                // Just after it went (before any later prompt of the same kind on that device).
                let again = shown.first { $0["device"] as? String == device && $0["prompt"] as? String == id && ($0["t"] as? Double ?? 0) > closedAt }
                let after = closedAt + 0.001
                if again.map({ ($0["t"] as? Double ?? 0) > after }) ?? true {
                    steps += [.evaluate(Self.setTime(0, Int((after * 1000).rounded(.up)))), .evaluate(panel)]
                    expected.append((device, message, false))
                }
            }
        }
        let (values, console) = try Playwright.run(steps, width: 1400, height: 1000)
        #expect(console.isEmpty, "\(console)")
        let panels = values.enumerated().filter { $0.offset % 2 == 1 }.map { $0.element as? String ?? "" }
        #expect(panels.count == expected.count)
        for (panel, want) in zip(panels, expected) {
            #expect(panel.contains(want.message) == want.showing, "\(want.device): '\(want.message)' \(want.showing ? "shows" : "is gone") in: \(panel)")
        }
    }

    /// A scenario whose marker check passes under some seeds and fails under others (GPS noise).
    static let flakyScenario = """
        name: The marker is within 3.85 m of where the walker stands (GPS noise says otherwise under some seeds)
        duration: 1m
        devices:
          - id: walker
            at: [52.52, 13.405]
            gps: { accuracy: 5 }
            app: { name: dog-walk, settings: { update-interval: 5s } }
        timeline:
          - { at: 0s, do: start-service }
        expect:
          - { position: marker, at: 30s, near: [52.52, 13.405], radius: 3.85 }
        """

    /// A scenario that fails under every seed.
    static let brokenScenario = """
        name: A record is placed, though nobody clicks
        duration: 1m
        devices:
          - { id: walker, at: [52.52, 13.405], app: { name: dog-walk } }
        timeline:
          - { at: 0s, do: start-service }
        expect:
          - { event: record.placed, at-least: 1 }
        """

    @Test(.enabled(if: SlowTests.run, "slow: DEVICESIM_SLOW_TESTS=1 swift test (or .ci/run) runs it"), .enabled(if: Playwright.shouldRun, "Python's playwright and Debian's chromium"))
    func aSweepOfAHundredScenariosIsGroupedCollapsedAndFilterable() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let extra = folder.appendingPathComponent("sweep-demo")
        try FileManager.default.createDirectory(at: extra, withIntermediateDirectories: true)
        try Self.flakyScenario.write(to: extra.appendingPathComponent("flaky-marker.yaml"), atomically: true, encoding: .utf8)
        try Self.brokenScenario.write(to: extra.appendingPathComponent("broken-record.yaml"), atomically: true, encoding: .utf8)
        let results = folder.appendingPathComponent("results.jsonl"), report = folder.appendingPathComponent("sweep.html")
        // A hundred scenario files: the first 98 bundled ones of three apps (more are added over time), and the two above.
        let bundled = try ["Scenarios/dog-walk", "Scenarios/friend-locator", "Scenarios/task-list"].flatMap { folder in
            try FileManager.default.contentsOfDirectory(atPath: CLI.repositoryRoot.appendingPathComponent(folder).path)
                .filter { $0.hasSuffix(".yaml") }.sorted().map { "\(folder)/\($0)" }
        }
        let folders = Array(bundled.prefix(98)) + [extra.path]
        let run = try CLI.run(["run"] + folders + ["--seeds", "1-2", "--results", results.path, "--report", report.path, "-q"], timeout: 600)
        #expect(run.status == 1, "\(run.standardError)")

        // What the results say: per scenario file, its failing seeds.
        let records = try Self.resultRecords(results)
        var failing: [String: [String]] = [:], runs: [String: Int] = [:]
        for record in records {
            let name = try #require(record["name"] as? String)
            runs[name, default: 0] += 1
            if record["passed"] as? Bool == false { failing[name, default: []].append(String(try #require(record["seed"] as? Int))) }
        }
        #expect(runs.count == 100, "a hundred scenario files")
        let flaky = failing.filter { $0.value.count < runs[$0.key]! }.keys.sorted(), broken = failing.filter { $0.value.count == runs[$0.key]! }.keys.sorted()
        #expect(flaky == ["flaky-marker.yaml"] && broken == ["broken-record.yaml"], "\(failing)")

        for (width, height) in Self.sizes {
            let steps: [Playwright.Step] = [
                .open(report.absoluteString),
                .evaluate("""
                    [...document.querySelectorAll('table.groups tr.group')].map(r => [r.getAttribute('data-name'), r.className.replace('group ', ''),
                      [...r.querySelectorAll('.seed')].map(a => a.textContent)])
                    """),
                .evaluate("[...document.querySelectorAll('.tile')].map(t => t.textContent)"),
                .evaluate(Self.layoutProbe),
                .evaluate("""
                    [document.querySelectorAll('section.scenario').length, document.querySelectorAll('section.scenario.collapsed').length,
                     document.querySelectorAll('section.scenario.passed').length, document.documentElement.scrollHeight,
                     Math.max(...[...document.querySelectorAll('section.scenario.collapsed > .body')].map(b => b.getBoundingClientRect().height).concat([0]))]
                    """),
                .screenshot(Self.screenshotFolder.appendingPathComponent("sweep-100-\(width).png"), fullPage: false),
                .click("section.scenario.collapsed button.toggle"),
                .evaluate("[document.querySelectorAll('section.scenario.collapsed').length, document.querySelector('section.scenario:not(.collapsed).passed .body').getBoundingClientRect().height]"),
                .fill("input.scenario-filter", "flaky-marker"),
                .evaluate("[[...document.querySelectorAll('section.scenario:not(.filtered-out)')].map(s => s.querySelector('.meta').textContent.split(' · ')[0]), document.querySelectorAll('tr.group:not(.filtered-out)').length]"),
                .fill("input.scenario-filter", ""),
                .click("button.collapse-all"),
                .evaluate("[document.querySelectorAll('section.scenario.collapsed').length, document.querySelectorAll('section.scenario').length]"),
                .screenshot(Self.screenshotFolder.appendingPathComponent("sweep-100-\(width)-full.png"), fullPage: true),
            ]
            let (values, console) = try Playwright.run(steps, width: width, height: height)
            #expect(console.isEmpty, "console at \(width): \(console)")
            var results = values.makeIterator()
            let groups = try #require(results.next() as? [[Any]])
            #expect(groups.count == 100, "one row per scenario file, not per run")
            let statuses = Dictionary(uniqueKeysWithValues: groups.map { ($0[0] as? String ?? "", $0[1] as? String ?? "") })
            #expect(statuses["flaky-marker.yaml"] == "flaky" && statuses["broken-record.yaml"] == "failing")
            #expect(statuses.values.filter { $0 == "passed" }.count == 98)
            #expect(groups.prefix(2).map { $0[0] as? String } == ["broken-record.yaml", "flaky-marker.yaml"], "always failing first, then flaky")
            for group in groups {
                let name = group[0] as? String ?? ""
                #expect(group[2] as? [String] == (failing[name] ?? []), "\(name)'s failing seeds")
            }
            let tiles = try #require(results.next() as? [String])
            #expect(tiles.contains("200runs") && tiles.contains("100scenarios swept") && tiles.contains("1flaky") && tiles.contains("1always failing"), "\(tiles)")
            let wall = try #require(tiles.first { $0.hasSuffix("wall time") })
            #expect(!wall.hasPrefix("0 s") && wall != "0wall time", "the wall time tile: \(wall)")
            let layout = try #require(results.next() as? [Double])
            #expect(layout[0] <= layout[1], "no sideways overflow at \(width) px: \(layout)")
            let sections = try #require(results.next() as? [Double])
            #expect(sections[0] == 100, "a hundred sections (failed runs first)")
            #expect(sections[1] == sections[2], "the passed ones collapsed")
            #expect(sections[4] == 0, "a collapsed section shows only its heading")
            let expanded = try #require(results.next() as? [Double])
            #expect(expanded[0] == sections[1] - 1 && expanded[1] > 200, "a click on its heading opens a section")
            let filtered = try #require(results.next() as? [Any])
            #expect((filtered[0] as? [String])?.allSatisfy { $0 == "flaky-marker.yaml" } == true && (filtered[0] as? [String])?.isEmpty == false)
            #expect(filtered[1] as? Double == 1)
            let collapsed = try #require(results.next() as? [Double])
            #expect(collapsed[0] == collapsed[1])
        }
    }
}
