import Foundation
import Testing

@Suite struct RunCommandTests {
    @Test func theBundledScenariosAllPass() throws {
        let output = try CLI.run(["run", "Scenarios"])
        #expect(output.status == 0, "\(output.standardOutput)\(output.standardError)")
        #expect(output.standardOutput.contains("PASS  dog-walk/walk-2km.yaml"))
        #expect(output.standardOutput.contains(" 0 failed"))
        #expect(!output.standardOutput.contains("\u{1B}["), "no colour when not on a terminal")
    }

    @Test func tracesAreByteIdenticalAcrossRunsAndJUnitIsWritten() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = folder.appendingPathComponent("first"), second = folder.appendingPathComponent("second")
        let junit = folder.appendingPathComponent("junit.xml")
        #expect(try CLI.run(["run", "Scenarios/dog-walk", "--trace", first.path, "--junit", junit.path]).status == 0)
        #expect(try CLI.run(["run", "Scenarios/dog-walk", "--trace", second.path]).status == 0)
        let names = try FileManager.default.contentsOfDirectory(atPath: first.path).sorted()
        #expect(names.contains("walk-2km.jsonl"))
        for name in names {
            let a = try Data(contentsOf: first.appendingPathComponent(name))
            let b = try Data(contentsOf: second.appendingPathComponent(name))
            #expect(a == b, "\(name) differs between runs")
            #expect(a.count > 100)
        }
        let xml = try String(contentsOf: junit, encoding: .utf8)
        #expect(xml.contains("<testsuites"))
        #expect(xml.contains("failures=\"0\""))
    }

    @Test func anotherSeedChangesTheTrace() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = "Scenarios/dog-walk/walk-2km.yaml"
        #expect(try CLI.run(["run", file, "--trace", folder.appendingPathComponent("a").path]).status == 0)
        #expect(try CLI.run(["run", file, "--seed", "99", "--trace", folder.appendingPathComponent("b").path]).status == 0)
        let a = try Data(contentsOf: folder.appendingPathComponent("a/walk-2km.jsonl"))
        let b = try Data(contentsOf: folder.appendingPathComponent("b/walk-2km.jsonl"))
        #expect(a != b)
    }

    @Test func aYAMLErrorIsPrintedOnceWithItsLinesAsValidatePrintsIt() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("twice.yaml")
        try """
            name: a duplicate key
            devices:
              - id: phone
                at: [50.0614, 19.9366]
                app: { name: task-list, settings: { signed-in: ola@onet.pl, signed-in: jan@onet.pl } }
            """.write(to: file, atomically: true, encoding: .utf8)
        let run = try CLI.run(["run", file.path])
        let validate = try CLI.run(["validate", "-q", file.path])
        #expect(run.status == 2)
        #expect(run.standardError.components(separatedBy: "duplicate key").count == 2, "once: \(run.standardError)")
        #expect(!run.standardError.contains("\\u{A}"), "\(run.standardError)")
        #expect(run.standardError == "error: " + validate.standardError, "\(run.standardError)")
        #expect(validate.standardError.components(separatedBy: "\n").count == 4, "the message, the line, the caret: \(validate.standardError)")
    }

    @Test func aFailingScenarioExitsOneAndSaysWhere() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("fails.yaml")
        try """
            name: expects the impossible
            devices:
              - { id: walker, at: [10, 10], app: { name: dog-walk } }
            timeline:
              - { at: 0s, do: start-service }
            expect:
              - event: location.unavailable
                at-least: 1
            """.write(to: file, atomically: true, encoding: .utf8)
        let output = try CLI.run(["run", file.path])
        #expect(output.status == 1)
        #expect(output.standardOutput.contains("FAIL  fails.yaml — expects the impossible"))
        #expect(output.standardOutput.contains("expected at least 1 'location.unavailable'; observed 0 found"))
        #expect(output.standardOutput.contains("fails.yaml:7:5"))
    }

    @Test func invalidFilesExitTwoWithFileLineColumn() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("typo.yaml")
        try "name: typo\ndevices:\n  - id: a\n    at: [1, 2]\n    gsp: {}\n".write(to: file, atomically: true, encoding: .utf8)
        for command in ["run", "validate"] {
            let output = try CLI.run([command, file.path])
            #expect(output.status == 2)
            #expect(output.standardError.contains("typo.yaml:5:5: unknown key 'gsp' in device; did you mean 'gps'?"))
        }
        let garbage = folder.appendingPathComponent("garbage.yaml")
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919) }).write(to: garbage)
        let output = try CLI.run(["validate", garbage.path])
        #expect(output.status == 2)
        #expect(output.standardError.contains("garbage.yaml"))
    }

    @Test func usageErrorsExitTwo() throws {
        #expect(try CLI.run(["run"]).status == 2)
        #expect(try CLI.run(["run", "--no-such-option", "Scenarios"]).status == 2)
        #expect(try CLI.run(["run", "does/not/exist"]).status == 2)
        #expect(try CLI.run(["frobnicate"]).status == 2)
    }

    @Test func helpIsCompleteForEverySubcommand() throws {
        let root = try CLI.run(["--help"])
        #expect(root.status == 0)
        for name in ["run", "validate"] {
            #expect(root.standardOutput.contains(name))
            let help = try CLI.run([name, "--help"])
            #expect(help.status == 0)
            #expect(help.standardOutput.contains("USAGE: devicesim \(name)"))
        }
        let run = try CLI.run(["run", "--help"]).standardOutput
        for option in ["--trace", "--junit", "--seed", "--max-events", "--color"] { #expect(run.contains(option)) }
    }

    @Test func validateAcceptsTheBundledScenarios() throws {
        let output = try CLI.run(["validate", "Scenarios"])
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardOutput.contains("0 invalid"))
    }
}
