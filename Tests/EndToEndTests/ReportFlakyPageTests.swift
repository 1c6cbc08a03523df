import DeviceSimTestSupport
import Foundation
import Testing

/// The parts of the report that explain a flaky scenario, in Chromium at 1400x1000 and 390x844: a
/// passing and a failing seed side by side (where their traces part, the failed expectation, both
/// maps), the history across earlier runs' results files, and the network panel of a scenario whose
/// server lost a reply; each checked against the traces and results the runs wrote.
extension ReportBrowserTests {
    /// How many events two traces share from the start, as the report counts (the seed
    /// `scenario.started` names aside); nil when they are the same throughout.
    static func firstDivergence(_ a: [[String: Any]], _ b: [[String: Any]]) -> Int? {
        func key(_ event: [String: Any]) -> String {
            var event = event
            if event["event"] as? String == "scenario.started" { event["seed"] = nil }
            let data = try? JSONSerialization.data(withJSONObject: event, options: [.sortedKeys])
            return data.map { String(decoding: $0, as: UTF8.self) } ?? ""
        }
        for index in 0..<min(a.count, b.count) where key(a[index]) != key(b[index]) { return index }
        return a.count == b.count ? nil : min(a.count, b.count)
    }

    @Test(.enabled(if: SlowTests.run, "slow: DEVICESIM_SLOW_TESTS=1 swift test (or .ci/run) runs it"), .enabled(if: Playwright.shouldRun, "Python's playwright and Debian's chromium"))
    func aFlakySweepShowsAPassingAndAFailingSeedSideBySideWithItsHistory() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenarios = folder.appendingPathComponent("flaky-demo")
        try FileManager.default.createDirectory(at: scenarios, withIntermediateDirectories: true)
        try Self.flakyScenario.write(to: scenarios.appendingPathComponent("flaky-marker.yaml"), atomically: true, encoding: .utf8)
        let traces = folder.appendingPathComponent("traces")
        let earlier = folder.appendingPathComponent("earlier.jsonl"), results = folder.appendingPathComponent("results.jsonl")
        let report = folder.appendingPathComponent("flaky.html")
        // An earlier run (seeds 7-8), then this run (seeds 1-6) with its traces.
        _ = try CLI.run(["run", scenarios.path, "--seeds", "7-8", "--results", earlier.path, "-q"])
        let run = try CLI.run(["run", scenarios.path, "--seeds", "1-6", "--trace", traces.path, "--results", results.path, "-q"])
        #expect(run.status == 1, "\(run.standardError)")
        let made = try CLI.run(["report", traces.path, "--results", results.path, "--history", earlier.path, "--out", report.path])
        #expect(made.status == 0, "\(made.standardError)")

        // What the runs wrote: this run's lowest passing and failing seeds, where their traces part.
        let records = try Self.resultRecords(results)
        let passingSeed = try #require(records.filter { $0["passed"] as? Bool == true }.compactMap { $0["seed"] as? Int }.min())
        let failingRecord = try #require(records.filter { $0["passed"] as? Bool == false }.min { ($0["seed"] as? Int ?? 0) < ($1["seed"] as? Int ?? 0) })
        let failingSeed = try #require(failingRecord["seed"] as? Int)
        let failure = try #require((failingRecord["failures"] as? [[String: Any]])?.first)
        let pass = try Self.traceEvents(traces.appendingPathComponent("flaky-marker.seed-\(passingSeed).jsonl"))
        let fail = try Self.traceEvents(traces.appendingPathComponent("flaky-marker.seed-\(failingSeed).jsonl"))
        let index = try #require(Self.firstDivergence(pass, fail), "GPS noise makes the traces differ")
        let partsAt = min(pass[index]["t"] as? Double ?? 0, fail[index]["t"] as? Double ?? 0)
        func outcome(_ records: [[String: Any]]) -> String {
            let failed = records.filter { $0["passed"] as? Bool == false }.count
            return failed == 0 ? "passed" : failed == records.count ? "failed" : "flaky"
        }
        let expectedCells = [outcome(try Self.resultRecords(earlier)), outcome(records)]

        for (width, height) in Self.sizes {
            let steps: [Playwright.Step] = [
                .open(report.absoluteString),
                .evaluate("""
                    (() => { const c = document.querySelector('section.comparison'); if (!c) return null;
                      return [c.getAttribute('data-name'), c.querySelector('.cmp-failure .loc').textContent, c.getAttribute('data-t'),
                        [...c.querySelectorAll('.cmp-side')].map(s => [s.querySelector('h4').textContent, s.querySelector('tr.first-diverged td:nth-child(3)')?.textContent ?? null,
                          s.querySelector('tr.first-diverged td:nth-child(4)')?.textContent ?? null]),
                        [...c.querySelectorAll('svg.cmp-map')].map(m => m.querySelectorAll('circle.cmp-now:not([style*="none"])').length),
                        c.querySelector('.divergence').textContent]; })()
                    """),
                .evaluate("""
                    [...document.querySelectorAll('table.history tr.history-row')].map(r => [r.getAttribute('data-name'),
                      [...r.querySelectorAll('td.cell')].map(td => td.className.replace('cell ', ''))])
                    """),
                .evaluate("document.querySelector('section.comparison').scrollIntoView(); 0"),
                .screenshot(Self.screenshotFolder.appendingPathComponent("flaky-\(width).png"), fullPage: false),
                .click("section.comparison button.at-failure"),
                .evaluate("""
                    (() => { const c = document.querySelector('section.comparison');
                      return [c.getAttribute('data-t'), [...c.querySelectorAll('svg.cmp-map rect.cmp-app')].map(r => [Number(r.getAttribute('data-x')), Number(r.getAttribute('data-y'))])]; })()
                    """),
                .evaluate(Self.layoutProbe),
                .screenshot(Self.screenshotFolder.appendingPathComponent("flaky-\(width)-full.png"), fullPage: true),
            ]
            let (values, console) = try Playwright.run(steps, width: width, height: height)
            #expect(console.isEmpty, "console at \(width): \(console)")
            var results = values.makeIterator()
            let comparison = try #require(results.next() as? [Any], "a side-by-side at \(width)")
            #expect(comparison[0] as? String == "flaky-marker.yaml")
            #expect(comparison[1] as? String == failure["location"] as? String, "the failed expectation")
            #expect(comparison[2] as? String == String(Int((partsAt * 1000).rounded())), "both maps open where the traces part")
            let sides = try #require(comparison[3] as? [[Any]])
            #expect(sides.count == 2)
            #expect(sides[0][0] as? String == "seed \(passingSeed) passes" && sides[1][0] as? String == "seed \(failingSeed) fails")
            #expect(sides[0][1] as? String == pass[index]["event"] as? String && sides[1][1] as? String == fail[index]["event"] as? String, "the first differing event")
            for (side, event) in zip(sides, [pass[index], fail[index]]) {
                let details = side[2] as? String ?? ""
                for key in event.keys where !["t", "device", "event"].contains(key) {
                    #expect(details.contains("\(key)="), "\(key) of \(event) in \(details)")
                }
                for key in ["lat", "lon"] { if let number = event[key] as? Double { #expect(details.contains("\(key)=\(number)"), "\(details)") } }
            }
            #expect(comparison[4] as? [Double] == [1, 1], "each map shows the walker where it was")
            #expect((comparison[5] as? String)?.contains("first \(index) event") == true, "\(comparison[5])")
            let history = try #require(results.next() as? [[Any]])
            #expect(history.count == 1 && history.first?[0] as? String == "flaky-marker.yaml")
            #expect(history.first?[1] as? [String] == expectedCells, "one cell per run, oldest first")
            _ = results.next()   // the scroll
            let atFailure = try #require(results.next() as? [Any])
            #expect(atFailure[0] as? String == "30000", "the failure's moment (30 s)")
            let markers = try #require(atFailure[1] as? [[Double]])
            #expect(markers.count == 2 && markers[0] != markers[1], "the apps showed the walker at different places under the two seeds: \(markers)")
            let layout = try #require(results.next() as? [Double])
            #expect(layout[0] <= layout[1], "no sideways overflow at \(width) px: \(layout)")
        }
    }

    @Test(.enabled(if: SlowTests.run, "slow: DEVICESIM_SLOW_TESTS=1 swift test (or .ci/run) runs it"), .enabled(if: Playwright.shouldRun, "Python's playwright and Debian's chromium"))
    func theNetworkPanelShowsEachRequestAndTheReplyTheNetworkLost() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenario = CLI.repositoryRoot.appendingPathComponent("Scenarios/nothing-lost/campus-game-a-lost-reply-is-not-counted-twice.yaml")
        let traces = folder.appendingPathComponent("traces"), report = folder.appendingPathComponent("network.html")
        let run = try CLI.run(["run", scenario.path, "--trace", traces.path, "--report", report.path, "-q"])
        #expect(run.status == 0, "\(run.standardError)")
        let events = try Self.traceEvents(traces.appendingPathComponent("campus-game-a-lost-reply-is-not-counted-twice.jsonl"))
        // What the trace says went over the network: the losses, and what the server handled.
        let lost = events.filter { $0["event"] as? String == "request.lost" }
        let handled = events.filter { $0["device"] == nil && !(($0["event"] as? String ?? "").hasPrefix("scenario.")) && $0["event"] as? String != "server.rows" }
        #expect(lost.count == 1 && lost.first?["lost"] as? String == "reply")
        #expect(!handled.isEmpty)
        for (width, height) in Self.sizes {
            let steps: [Playwright.Step] = [
                .open(report.absoluteString + "#s0"),
                .evaluate("""
                    [...document.querySelectorAll('#s0 table.network tr.exchange')].map(r => [r.className.replace('exchange ', ''),
                      [...r.querySelectorAll('td')].map(td => td.textContent)])
                    """),
                .evaluate("document.querySelector('#s0 table.network').scrollIntoView(); 0"),
                .screenshot(Self.screenshotFolder.appendingPathComponent("network-\(width).png"), fullPage: false),
                .click("#s0 table.network tr.lost"),
                .evaluate("document.querySelector('#s0 input[type=range]').value"),
                .evaluate(Self.layoutProbe),
            ]
            let (values, console) = try Playwright.run(steps, width: width, height: height)
            #expect(console.isEmpty, "console at \(width): \(console)")
            var results = values.makeIterator()
            let rows = try #require(results.next() as? [[Any]])
            #expect(rows.count == lost.count + handled.count, "a row per loss and per request the server handled: \(rows)")
            _ = results.next()   // the scroll
            let lostRows = rows.filter { ($0[0] as? String)?.contains("lost") == true }
            #expect(lostRows.count == 1)
            let cells = try #require(lostRows.first?[1] as? [String])
            let sentAt = (lost[0]["t"] as? Double ?? 0) - (lost[0]["after"] as? Double ?? 0)
            #expect(cells[1] == lost[0]["device"] as? String && cells[2] == lost[0]["operation"] as? String)
            #expect(cells[0] == "\(Int(sentAt.rounded()))s", "sent \(lost[0]["after"] ?? 0) s before the loss: \(cells)")
            #expect(cells[5].contains("timed out") && cells[5].contains("reply lost"), "\(cells)")
            let serverRows = rows.filter { ($0[0] as? String)?.hasPrefix("server") == true }.compactMap { ($0[1] as? [String])?[2] }
            #expect(serverRows.map { $0.split(separator: " ").first.map(String.init) } == handled.map { $0["event"] as? String }, "the server's events in order")
            #expect(results.next() as? String == String(Int((sentAt * 1000).rounded())), "a click on a row moves the map and timeline to its time")
            let layout = try #require(results.next() as? [Double])
            #expect(layout[0] <= layout[1], "no sideways overflow at \(width) px: \(layout)")
        }
    }
}
