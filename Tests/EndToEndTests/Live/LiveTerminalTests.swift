import DeviceSimTestSupport
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `devicesim live` as a field tester sees it: in a real terminal (tmux) against a real gpsd (gpsfake),
/// reading the screen and typing keys; and in a pipe, stopped by SIGTERM. Serialized: each test owns
/// its gpsd and terminal, and the timings they wait for should not compete for the CPU.
@Suite(.serialized, .enabled(if: SlowTests.run, "slow: DEVICESIM_SLOW_TESTS=1 swift test (or .ci/run) runs it"), .enabled(if: LiveGPSD.shouldRun, "gpsd, gpsfake and tmux (Debian gpsd, gpsd-clients, tmux) are not installed"))
struct LiveTerminalTests {
    static let walk = CLI.repositoryRoot.appendingPathComponent("Tests/DeviceSimNMEATests/Fixtures/gpsd-nmea/bt-q818.log")

    /// The pane's command: `devicesim live …`, then its exit status and the terminal's settings
    /// (to see that raw mode was undone).
    func liveCommand(_ arguments: [String], stty: URL) -> String {
        let quoted = ([CLI.binary.path, "live"] + arguments).map { "'\($0)'" }.joined(separator: " ")
        // The settings are written before the exit status shows, so they are there once it does.
        return "\(quoted); status=$?; stty -a > '\(stty.path)'; echo \"exit status $status\""
    }

    /// The status line: the last row of the screen.
    func statusLine(_ screen: [String]) -> String { screen.last ?? "" }

    /// A prompt answered with a key, the status line, gpsd killed and back with the recording going on,
    /// Ctrl-C leaving the terminal, the trace and the recording whole.
    @Test func aPromptIsAnsweredWithAKeyWhileTheStatusLineShowsTheFixAndGpsdRestarts() throws {
        let gpsd = try LiveGPSD()
        try gpsd.play(Self.walk)
        let trace = gpsd.folder.appendingPathComponent("trace.jsonl"), recording = gpsd.folder.appendingPathComponent("walk.nmea")
        let stty = gpsd.folder.appendingPathComponent("stty.txt")
        let library = try LiveFiles.libraryAtTheReceiver(in: gpsd.folder).path
        let terminal = try TmuxSession(liveCommand(
            ["--gpsd", "127.0.0.1:\(gpsd.port)", library, "--trace", trace.path, "--record", recording.path, "--duration", "3m"], stty: stty),
            directory: CLI.repositoryRoot)

        // The status line: fix mode, satellites used/seen, HDOP, position, age of the fix, events.
        var screen = try terminal.waitUntil("a 3D fix on the status line") { statusLine($0).contains("3D fix") }
        let status = statusLine(screen)
        #expect(status.contains(" | sats "), "\(status)")
        #expect(status.contains(" | HDOP "), "\(status)")
        #expect(status.contains(" N ") && status.contains(" W"), "bt-q818 is in California: \(status)")
        #expect(status.contains(" s ago | "), "\(status)")
        #expect(status.contains(" events"), "\(status)")

        // The app's prompt, shown with numbered choices, answered with a key.
        screen = try terminal.waitFor("answer inform-group: 1) friends  2) no")
        #expect(screen.contains { $0.hasPrefix("? You entered library. Inform a group about your presence?  1) friends  2) no  press 1-2") })
        #expect(screen.contains { $0.contains("step.skipped  do=answer  prompt=inform-group") }, "the script does not answer for the person")
        try terminal.send("1")
        try terminal.waitFor("alice  prompt.answered  prompt=inform-group  choice=friends")
        try terminal.waitFor("answer locate-precisely: 1) yes  2) no")
        try terminal.send("2")
        try terminal.waitFor("alice  locate.declined  hotspot=library")
        try terminal.waitFor("bob  ping.received  from=alice")
        // Event lines scroll above the status line and never into it.
        screen = terminal.screen()
        #expect(screen.dropLast().allSatisfy { !$0.contains(" events") || $0.contains("scenario.finished") }, "\(screen.joined(separator: "\n"))")

        // gpsd killed: said at once; the status line says so.
        try #require(try LiveFiles.nmeaSentences(recording).count > 0)
        gpsd.stop()
        try terminal.waitFor("lost the connection to gpsd at 127.0.0.1:\(gpsd.port)")
        try terminal.waitUntil("no gpsd on the status line") { statusLine($0).contains("no gpsd at 127.0.0.1:\(gpsd.port) (retrying)") }
        let recordedBeforeRestart = try LiveFiles.nmeaSentences(recording).count

        // gpsd back: said, the fix returns, the recording goes on.
        try gpsd.play(Self.walk)
        try terminal.waitFor("connected to gpsd at 127.0.0.1:\(gpsd.port)", timeout: 60)
        try terminal.waitUntil("the fix back on the status line", timeout: 60) { statusLine($0).contains("3D fix") }
        let deadline = Date().addingTimeInterval(10)
        while try LiveFiles.nmeaSentences(recording).count <= recordedBeforeRestart + 20, Date() < deadline { Thread.sleep(forTimeInterval: 0.2) }
        #expect(try LiveFiles.nmeaSentences(recording).count > recordedBeforeRestart + 20, "the recording goes on after gpsd restarts")

        // Ctrl-C: a clean stop, the terminal restored, trace and recording whole.
        try terminal.send("C-c")
        screen = try terminal.waitFor("exit status 0")
        #expect(screen.contains { $0.hasPrefix("live run: ") })
        #expect(screen.contains { $0.contains("recorded ") && $0.contains(" NMEA lines to ") })
        let settings = try String(contentsOf: stty, encoding: .utf8).split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == ";" })
        #expect(settings.contains("icanon") && settings.contains("echo"), "raw mode undone: \(settings)")
        let events = try LiveFiles.traceEvents(trace)
        #expect(events.first?["event"] as? String == "scenario.started")
        #expect(events.last?["event"] as? String == "scenario.finished")
        let answers = events.filter { $0["event"] as? String == "prompt.answered" }.map { "\($0["prompt"] ?? "")=\($0["choice"] ?? "")" }
        #expect(answers == ["inform-group=friends", "locate-precisely=no"])
        #expect(try LiveFiles.nmeaSentences(recording).count > recordedBeforeRestart + 20)
    }

    /// gpsd absent: said at once, on the status line too, and its end; gpsd without a receiver: said.
    @Test func gpsdMissingThenWithoutAReceiverThenWithOne() throws {
        let gpsd = try LiveGPSD()
        let stty = gpsd.folder.appendingPathComponent("stty.txt")
        let started = Date()
        let terminal = try TmuxSession(
            liveCommand(["--gpsd", "127.0.0.1:\(gpsd.port)", "Scenarios/dog-walk/walk-2km.yaml", "--duration", "2m"], stty: stty),
            directory: CLI.repositoryRoot)
        try terminal.waitFor("cannot connect to gpsd at 127.0.0.1:\(gpsd.port)")
        #expect(Date().timeIntervalSince(started) < 10, "said at once (the process start included)")
        try terminal.waitUntil("no gpsd on the status line") { statusLine($0).hasPrefix("no gpsd at 127.0.0.1:\(gpsd.port) (retrying) | no fix yet | ") }

        try gpsd.serveWithoutReceiver()
        try terminal.waitFor("connected to gpsd at 127.0.0.1:\(gpsd.port)", timeout: 10)
        try terminal.waitFor("gpsd at 127.0.0.1:\(gpsd.port) answers, but no receiver is reporting")
        try terminal.waitUntil("no receiver on the status line") { statusLine($0).hasPrefix("gpsd up, no receiver | ") }

        gpsd.stop()
        try gpsd.play(Self.walk)
        // gpsd restarting ends "no receiver" with "lost the connection", then "connected" ends that.
        try terminal.waitUntil("a fix on the status line", timeout: 60) { statusLine($0).contains("3D fix") }
        try terminal.send("C-c")
        // The scenario's first second passed without a fix, so its marker expectations failed: exit 1.
        try terminal.waitFor("exit status 1")
    }

    /// A receiver without a fix: said, with its end never claimed; the status line says no fix.
    @Test func aReceiverWithoutAFixIsSaid() throws {
        let gpsd = try LiveGPSD()
        let log = gpsd.folder.appendingPathComponent("no-fix.nmea")
        try LiveFiles.noFixLog().write(to: log, atomically: true, encoding: .utf8)
        try gpsd.play(log, cycle: 0.05)
        let stty = gpsd.folder.appendingPathComponent("stty.txt")
        let terminal = try TmuxSession(
            liveCommand(["--gpsd", "127.0.0.1:\(gpsd.port)", "Scenarios/dog-walk/walk-2km.yaml", "--duration", "2m"], stty: stty),
            directory: CLI.repositoryRoot)
        let screen = try terminal.waitFor("has no fix yet (mode 1): waiting for satellites")
        #expect(!screen.contains { $0.contains("first fix from") })
        try terminal.waitUntil("no fix on the status line") { statusLine($0).hasPrefix("no fix yet | sats 0/3 | HDOP ") }
        try terminal.send("C-c")
        // No fix, so no marker in the scenario's first second: that expectation failed, exit 1.
        try terminal.waitFor("exit status 1")
    }

    /// In a pipe: no status line and no keyboard (the script answers), and SIGTERM mid-run leaves the
    /// trace and the recording complete and valid.
    @Test func sigtermMidRunLeavesTheTraceAndTheRecordingWhole() throws {
        let gpsd = try LiveGPSD()
        try gpsd.play(Self.walk)
        let trace = gpsd.folder.appendingPathComponent("trace.jsonl"), recording = gpsd.folder.appendingPathComponent("walk.nmea")
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = ["live", "--gpsd", "127.0.0.1:\(gpsd.port)", try LiveFiles.libraryAtTheReceiver(in: gpsd.folder).path, "--trace", trace.path, "--record", recording.path, "--duration", "10m"]
        process.currentDirectoryURL = CLI.repositoryRoot
        let output = gpsd.folder.appendingPathComponent("stdout.txt")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }

        // The scripted answer (3 s after the prompt shows at about 2 s) is in the trace before the
        // kill, and the recording has more than 20 sentences (the recorder's own connection to gpsd
        // may start receiving later than the device's on a loaded machine).
        let deadline = Date().addingTimeInterval(30)
        var text = ""
        while Date() < deadline {
            text = (try? String(contentsOf: trace, encoding: .utf8)) ?? ""
            let recorded = (try? Data(contentsOf: recording)) ?? Data()
            if text.contains("\"event\":\"ping.sent\""), recorded.count(where: { $0 == UInt8(ascii: "\n") }) > 20 { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(text.contains("\"event\":\"prompt.answered\",\"prompt\":\"inform-group\",\"choice\":\"friends\""), "with no terminal the script answers")
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)

        let events = try LiveFiles.traceEvents(trace)
        #expect(events.last?["event"] as? String == "scenario.finished")
        #expect(events.count > 10)
        let sentences = try LiveFiles.nmeaSentences(recording)
        #expect(sentences.count > 20)
        let printed = try String(contentsOf: output, encoding: .utf8)
        #expect(printed.contains("recorded \(sentences.count) NMEA lines to "), "\(printed)")
        #expect(!printed.contains("\u{1B}["), "no status line in a pipe")
    }
}
