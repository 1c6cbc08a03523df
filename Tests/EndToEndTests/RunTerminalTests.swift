import Foundation
import Testing

/// What `devicesim run` prints for a person: the help, the counts, the warning for a scenario that
/// checks nothing.
@Suite struct RunTerminalTests {
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
