import DeviceSimTestSupport
import Foundation
import Testing

/// What `devicesim run` prints for a person: the progress line on a terminal (and nothing of it in a
/// pipe), the help, the counts, the warning for a scenario that checks nothing.
@Suite struct RunTerminalTests {
    static var tmuxAndScriptInstalled: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux") && FileManager.default.isExecutableFile(atPath: "/usr/bin/script")
    }

    /// In a real terminal (tmux, with util-linux's `script` keeping every byte the run wrote to it): a
    /// progress line is drawn in place while the runs go on, and erased before the final count, so the
    /// screen shows only the usual output at the end.
    @Test(.enabled(if: SlowTests.run, "slow: DEVICESIM_SLOW_TESTS=1 swift test (or .ci/run) runs it"), .enabled(if: tmuxAndScriptInstalled || ProcessInfo.processInfo.environment["CI"] != nil, "tmux and script (Debian's tmux, bsdutils)"))
    func aRunOnATerminalShowsProgressThatIsErasedAtTheEnd() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let typescript = folder.appendingPathComponent("typescript"), done = folder.appendingPathComponent("done")
        let command = "\(CLI.binary.path) run Scenarios/dog-walk --seeds 1-2 -q"
        // Two runs of each scenario of the folder (it grows as scenarios are added).
        let total = 2 * (try FileManager.default.contentsOfDirectory(atPath: CLI.repositoryRoot.appendingPathComponent("Scenarios/dog-walk").path)
            .filter { $0.hasSuffix(".yaml") }.count)
        let session = try TmuxSession("script -qfec '\(command)' \(typescript.path); touch \(done.path); sleep 600", directory: CLI.repositoryRoot, width: 100, height: 20)
        try session.waitUntil("the run to end", timeout: 120) { _ in FileManager.default.fileExists(atPath: done.path) }
        let screen = session.screen()
        #expect(screen.contains { $0.contains("\(total) runs: \(total) passed, 0 failed") }, "\(screen)")
        #expect(!screen.contains { $0.contains(" / \(total) runs") }, "the progress line is gone: \(screen)")

        let written = try String(contentsOf: typescript, encoding: .utf8)
        let clear = "\r\u{1B}[2K"
        let lines = written.components(separatedBy: clear).dropFirst().map { $0 }
        let progress = lines.filter { $0.contains(" / \(total) runs · ") }
        #expect(!progress.isEmpty, "progress lines were drawn: \(written.debugDescription)")
        #expect(progress.allSatisfy { $0.contains(" failed · ") && $0.contains(" elapsed") && !$0.contains("\n") }, "\(progress)")
        #expect(progress.contains { $0.hasPrefix("\(total) / \(total) runs") || $0.contains(" left") }, "done / total and the time left: \(progress)")
        let summary = try #require(written.range(of: "\(total) runs: \(total) passed"))
        #expect(written[..<summary.lowerBound].hasSuffix(clear) || written[..<summary.lowerBound].hasSuffix(clear + "\u{1B}[32m"), "the line is erased before the final count")
    }

    @Test func inAPipeNothingButTheUsualOutputIsWritten() throws {
        let output = try CLI.run(["run", "Scenarios/dog-walk", "--seeds", "1-2", "-q"])
        #expect(output.status == 0)
        #expect(output.standardError.isEmpty, "no progress line in a pipe: \(output.standardError.debugDescription)")
        #expect(output.standardOutput == output.standardOutput.replacingOccurrences(of: "\r", with: ""))
    }

    @Test func theHelpShowsOneDefaultForJobsAndTheKeepDataPathsTheRunWrites() throws {
        let help = try CLI.run(["run", "--help"]).standardOutput
        let jobs = try #require(help.components(separatedBy: "\n  -j, --jobs").dropFirst().first?.components(separatedBy: "\n  --").first)
        #expect(jobs.components(separatedBy: "default").count - 1 == 1, "one default for -j: \(jobs)")
        #expect(jobs.replacingOccurrences(of: #"\s+"#, with: " ", options: .regularExpression).contains("(default: the number of cores)"))

        // The help's example and the path it says to open, run as written.
        let flat = help.replacingOccurrences(of: "\n", with: " ").replacingOccurrences(of: #" +"#, with: " ", options: .regularExpression)
        #expect(flat.contains("devicesim run Scenarios/dog-walk --keep-data out/data (then: sqlite3 out/data/07-placing-a-poo/walker.sqlite)"), "\(help)")
        #expect(flat.contains("run Scenarios --keep-data out/data writes out/data/dog-walk/07-placing-a-poo/"), "\(help)")
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("out/data")
        #expect(try CLI.run(["run", "Scenarios/dog-walk", "--keep-data", data.path, "-q"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: data.appendingPathComponent("07-placing-a-poo/walker.sqlite").path))
        let all = folder.appendingPathComponent("all")
        #expect(try CLI.run(["run", "Scenarios", "--keep-data", all.path, "-q"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: all.appendingPathComponent("dog-walk/07-placing-a-poo/walker.sqlite").path))
        #expect(FileManager.default.fileExists(atPath: all.appendingPathComponent("task-list/2.7-add-task/phone.task-list.sqlite").path), "<device>.<app>.sqlite")
        let swept = folder.appendingPathComponent("swept")
        #expect(try CLI.run(["run", "Scenarios/dog-walk/07-placing-a-poo.yaml", "--seeds", "1-2", "--keep-data", swept.path, "-q"]).status == 0)
        #expect(FileManager.default.fileExists(atPath: swept.appendingPathComponent("07-placing-a-poo.seed-2/walker.sqlite").path))
    }

    @Test func oneExpectationIsSingularAndAScenarioWithNoneIsWarnedAboutOnce() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let one = folder.appendingPathComponent("one.yaml"), none = folder.appendingPathComponent("none.yaml")
        try """
            name: one expectation
            devices:
              - { id: walker, at: [52.5, 13.4], app: { name: dog-walk } }
            timeline:
              - { at: 0s, do: start-service }
            expect:
              - { event: service.started, at-least: 1 }
            """.write(to: one, atomically: true, encoding: .utf8)
        try """
            name: checks nothing
            devices:
              - { id: walker, at: [52.5, 13.4], app: { name: dog-walk } }
            timeline:
              - { at: 0s, do: start-service }
            """.write(to: none, atomically: true, encoding: .utf8)
        let output = try CLI.run(["run", folder.path, "--seeds", "1-3"])
        #expect(output.status == 0, "\(output.standardOutput)\(output.standardError)")
        #expect(output.standardOutput.contains("one expectation [seed 1] (1 expectation, "), "\(output.standardOutput)")
        #expect(!output.standardOutput.contains("1 expectations"))
        let warnings = output.standardError.components(separatedBy: "\n").filter { $0.contains("warning:") }
        #expect(warnings == ["warning: \(none.path) has no expectations, so it passes whatever the app does: add an 'expect:' list"], "\(output.standardError)")
    }
}
