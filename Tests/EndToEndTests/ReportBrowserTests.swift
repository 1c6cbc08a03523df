import DeviceSimTestSupport
import Foundation
import Testing

/// Headless Chromium (Debian's `chromium`), run as a command: the rendered DOM, console messages and screenshots.
enum Chromium {
    /// Debian's chromium, or on a Mac Chromium or Google Chrome from /Applications.
    static let path = [
        "/usr/bin/chromium", "/usr/bin/chromium-browser",
        "/Applications/Chromium.app/Contents/MacOS/Chromium", "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
    ].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Whether the browser tests run: where Chromium is installed, and always on CI (the `CI` variable
    /// set), where a missing Chromium is a failure, not a reason to skip.
    static var shouldRun: Bool { path != nil || ProcessInfo.processInfo.environment["CI"] != nil }

    static let flags = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars", "--mute-audio"]

    /// The DOM after the page's scripts ran, and the console lines Chromium logged.
    static func dumpDOM(_ url: String) throws -> (dom: String, console: [String]) {
        let output = try run(flags + ["--enable-logging=stderr", "--v=0", "--dump-dom", url])
        let console = output.standardError.split(separator: "\n").filter { $0.contains(":CONSOLE") }.map(String.init)
        return (output.standardOutput, console)
    }

    /// A PNG of the page at `width` x `height`.
    static func screenshot(_ url: String, to file: URL, width: Int = 1400, height: Int = 1800) throws {
        _ = try run(flags + ["--window-size=\(width),\(height)", "--screenshot=\(file.path)", url])
    }

    private static func run(_ arguments: [String]) throws -> CLI.Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(path, "Debian's chromium is not installed (apt-get install chromium)"))
        process.arguments = arguments
        // Its own profile folder, so parallel tests and a desktop browser do not meet.
        let profile = FileManager.default.temporaryDirectory.appendingPathComponent("chromium-\(UUID().uuidString)")
        process.arguments! += ["--user-data-dir=\(profile.path)"]
        defer { try? FileManager.default.removeItem(at: profile) }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return try CLI.Running(arguments: arguments, process: process, out: out, err: err).finish(timeout: 90)
    }
}

@Suite(.serialized, .enabled(if: SlowTests.run, "slow: DEVICESIM_SLOW_TESTS=1 swift test (or .ci/run) runs it"), .enabled(if: Chromium.shouldRun, "Debian's chromium is not installed (apt-get install chromium)"))
struct ReportBrowserTests {
    /// A friend-locator scenario with an outage, a device offline, a prompt, and one expectation that fails.
    static func failingScenario() -> String {
        """
        name: three friends meet in the mensa, one of them offline for a while
        world: \(CLI.repositoryRoot.path)/Simulator/worlds/campus.yaml
        devices:
          - id: alice
            at: south-gate
            route: { waypoints: [library, mensa] }
            app: { name: friend-locator, settings: { auto-ping: true, auto-locate: true, manual-pinning: false } }
          - id: bob
            at: library
            route: { start: 2m, waypoints: [mensa] }
            app: { name: friend-locator, settings: { auto-ping: false, auto-locate: true, manual-pinning: false } }
          - id: carol
            at: main-building
            route: { start: 4m, waypoints: [mensa] }
            app: { name: friend-locator, settings: { auto-ping: true, auto-locate: true, manual-pinning: false } }
        timeline:
          - { at: 1m, device: alice, do: signal-loss, for: 2m }
          - { at: 3m, device: carol, do: go-offline }
          - { at: 9m, device: carol, do: go-online }
          - { at: 5m, device: bob, do: answer, prompt: inform-group, choice: friends, after: 20s }
          - { at: 10m, device: bob, do: wifi-off }
        expect:
          - { event: ping.sent, device: alice, where: { hotspot: mensa }, count: 1 }
          - { event: ping.received, device: carol, within: [5m, 6m], where: { from: bob }, count: 1 }
          - { event: hotspot.entered, device: carol, where: { hotspot: mensa }, count: 2 }
        duration: 15m
        """
    }

    /// Where the screenshots go, for people (and CI artifacts) to look at.
    static let screenshots = CLI.repositoryRoot.appendingPathComponent(".build/report-screenshots")

    @Test func theReportOfTheBundledScenariosShowsWhatTheTracesSay() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let extra = folder.appendingPathComponent("extra/report-demo")
        try FileManager.default.createDirectory(at: extra, withIntermediateDirectories: true)
        try Self.failingScenario().write(to: extra.appendingPathComponent("meet-in-the-mensa.yaml"), atomically: true, encoding: .utf8)
        let traces = folder.appendingPathComponent("traces"), results = folder.appendingPathComponent("results.jsonl")
        let report = folder.appendingPathComponent("report.html")
        let run = try CLI.run(["run", "Scenarios", folder.appendingPathComponent("extra").path, "--trace", traces.path, "--results", results.path, "--report", report.path, "-q"])
        #expect(run.status == 1, "one scenario fails on purpose: \(run.standardOutput)\(run.standardError)")
        #expect(run.standardError.contains("report: \(report.path)"))

        // What the traces and the results say.
        let traceFiles = (FileManager.default.enumerator(atPath: traces.path)?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".jsonl") }
        var eventCounts: [Int] = [], devices = 0
        for file in traceFiles {
            let lines = try String(contentsOf: traces.appendingPathComponent(file), encoding: .utf8).split(separator: "\n")
            eventCounts.append(lines.count)
            let started = try #require(lines.first { $0.contains(#""event":"scenario.started""#) })
            let object = try #require(try JSONSerialization.jsonObject(with: Data(started.utf8)) as? [String: Any])
            devices += try #require(object["devices"] as? Int)
        }
        let records = try String(contentsOf: results, encoding: .utf8).split(separator: "\n").dropFirst()
            .map { try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        let failures = records.reduce(0) { $0 + (($1["failures"] as? [Any])?.count ?? 0) }
        let scenariosFolder = CLI.repositoryRoot.appendingPathComponent("Scenarios")
        // Scenario files: YAML with a top-level `devices:` (a game or world file beside them is not one).
        let bundled = (FileManager.default.enumerator(atPath: scenariosFolder.path)?.allObjects as? [String] ?? []).filter { name in
            guard name.hasSuffix(".yaml"), let text = try? String(contentsOf: scenariosFolder.appendingPathComponent(name), encoding: .utf8) else { return false }
            return text.split(separator: "\n").contains { $0.hasPrefix("devices:") }
        }
        #expect(traceFiles.count == bundled.count + 1 && records.count == bundled.count + 1, "a trace and a record per scenario")
        #expect(failures == 2)

        // The report of the run itself: at most 100 scenarios in full, the failed one first, a row for every one.
        let runPage = try Chromium.dumpDOM(report.absoluteString)
        #expect(runPage.console.isEmpty, "console messages: \(runPage.console)")
        #expect(Self.count(#"<section class="scenario "#, in: runPage.dom) == min(100, traceFiles.count))
        #expect(Self.count(#"<tr class="row "#, in: runPage.dom) == records.count)
        #expect(Self.count(#"<li class="failure""#, in: runPage.dom) == failures)

        // What a person sees: every scenario in full, from the saved traces and results.
        let full = folder.appendingPathComponent("full.html")
        let made = try CLI.run(["report", traces.path, "--results", results.path, "--detailed", "1000", "--out", full.path])
        #expect(made.status == 0, "\(made.standardError)")
        let page = try Chromium.dumpDOM(full.absoluteString)
        #expect(page.console.isEmpty, "console messages: \(page.console)")
        let dom = page.dom
        #expect(dom.contains(#"data-ready="true""#), "the report's script ran to its end")
        #expect(Self.count(#"<section class="scenario "#, in: dom) == traceFiles.count)
        #expect(Self.count(#"<tr class="row "#, in: dom) == records.count)
        #expect(Self.count(#"<path class="track""#, in: dom) == devices)
        #expect(Self.count(#"<li class="failure""#, in: dom) == failures)
        #expect(Self.count(#"<svg class="timeline""#, in: dom) == traceFiles.count)
        let shownEvents = Self.matches(#"data-events="([0-9]+)""#, in: dom).compactMap(Int.init).sorted()
        #expect(shownEvents == eventCounts.sorted(), "every event of every trace is in the report's table data")
        // The failed scenario comes first, with its failures, their moments and its reproduce command.
        let firstSection = try #require(dom.range(of: #"<section class="scenario "#))
        #expect(dom[firstSection.lowerBound...].hasPrefix(#"<section class="scenario failed""#))
        #expect(dom.contains("meet-in-the-mensa.yaml:24:5") && dom.contains("meet-in-the-mensa.yaml:25:5"))
        #expect(dom.contains(##"href="#s0@t=300""##), "the failure links to 5m, the start of its window")
        #expect(dom.contains("devicesim run "))

        // The slider and the filters, through a link to a moment: carol's pings at 5m30s.
        let moment = try Chromium.dumpDOM(full.absoluteString + "#s0@t=330&device=carol&event=ping.received")
        #expect(moment.console.isEmpty, "console messages: \(moment.console)")
        #expect(moment.dom.contains("t = 5m30s of 15m"))
        let demoTrace = try String(contentsOf: traces.appendingPathComponent("report-demo/meet-in-the-mensa.jsonl"), encoding: .utf8).split(separator: "\n")
        let carolPings = demoTrace.filter { $0.contains(#""device":"carol","event":"ping.received""#) }.count
        #expect(moment.dom.contains("\(carolPings) of \(demoTrace.count) events"))
        #expect(carolPings > 0)
        let carolAtStart = Self.matches(#"<g class="now" data-device="carol"[^>]*transform="([^"]+)""#, in: dom)
        let carolThen = Self.matches(#"<g class="now" data-device="carol"[^>]*transform="([^"]+)""#, in: moment.dom)
        #expect(!carolThen.isEmpty && carolThen != carolAtStart, "carol's marker moved with the slider")

        // The failing scenario's report made later from its trace and its scenario file (as from CI
        // artifacts): the failures are checked again against the trace.
        let alone = folder.appendingPathComponent("meet-in-the-mensa.html")
        let madeAlone = try CLI.run(["report", traces.appendingPathComponent("report-demo/meet-in-the-mensa.jsonl").path, "--scenarios", folder.appendingPathComponent("extra").path, "--out", alone.path])
        #expect(madeAlone.status == 0, "\(madeAlone.standardError)")
        let alonePage = try Chromium.dumpDOM(alone.absoluteString)
        #expect(alonePage.console.isEmpty, "console messages: \(alonePage.console)")
        #expect(Self.count(#"<section class="scenario failed""#, in: alonePage.dom) == 1)
        #expect(Self.count(#"<li class="failure""#, in: alonePage.dom) == 2)
        #expect(Self.count(#"<path class="track""#, in: alonePage.dom) == 3)

        // Screenshots for people to look at.
        try FileManager.default.createDirectory(at: Self.screenshots, withIntermediateDirectories: true)
        for (name, url, height) in [("report-summary.png", full.absoluteString, 1000), ("report-failed-scenario.png", alone.absoluteString + "#s0@t=330", 2000)] {
            let png = Self.screenshots.appendingPathComponent(name)
            try? FileManager.default.removeItem(at: png)
            try Chromium.screenshot(url, to: png, height: height)
            let bytes = try Data(contentsOf: png)
            #expect(bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) && bytes.count > 30_000, "\(png.path): \(bytes.count) bytes")
        }
    }

    @Test func aReportFromSavedTracesAlone() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let traces = folder.appendingPathComponent("traces"), report = folder.appendingPathComponent("tunnel.html")
        #expect(try CLI.run(["run", "Scenarios/dog-walk", "--trace", traces.path, "-q"]).status == 0)
        let made = try CLI.run(["report", traces.appendingPathComponent("tunnel.jsonl").path, "--scenarios", "Scenarios/dog-walk", "--out", report.path])
        #expect(made.status == 0, "\(made.standardError)")
        let page = try Chromium.dumpDOM(report.absoluteString)
        #expect(page.console.isEmpty, "console messages: \(page.console)")
        #expect(Self.count(#"<section class="scenario passed""#, in: page.dom) == 1, "the expectations were checked against the trace")
        #expect(Self.count(#"<path class="track""#, in: page.dom) == 1)
        #expect(Self.count(#"<path class="outage""#, in: page.dom) >= 1, "the tunnel is shaded on the track")
    }

    static func count(_ needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }

    static func matches(_ pattern: String, in text: String) -> [String] {
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
        let range = NSRange(text.startIndex..., in: text)
        return regex.matches(in: text, range: range).compactMap { Range($0.range(at: 1), in: text).map { String(text[$0]) } }
    }
}
