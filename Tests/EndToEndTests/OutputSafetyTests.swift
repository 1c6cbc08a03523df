import Foundation
import Testing
#if canImport(FoundationXML)
import FoundationXML
#endif

/// What devicesim writes stays what it claims to be, whatever its input holds: terminal output
/// without raw control characters, well-formed JUnit XML, write errors reported with the path and
/// exit status 1 (issue 37).
@Suite struct OutputSafetyTests {
    static let escapeTitle = "name: \"evil \\e]0;pwned\\a\\e[2J title\"\nduration: 10s\ndevices:\n  - { id: walker, at: [52.5, 13.4] }\n"

    @Test func controlCharactersInATitleAreEscapedOnTheTerminalByRunAndByMerge() throws {
        let folder = try CLI.folder(["evil.yaml": Self.escapeTitle])
        defer { try? FileManager.default.removeItem(at: folder) }
        let results = folder.appendingPathComponent("results.jsonl")
        let run = try CLI.run(["run", folder.appendingPathComponent("evil.yaml").path, "--results", results.path])
        #expect(run.status == 0)
        #expect(!run.standardOutput.contains("\u{1B}") && !run.standardOutput.contains("\u{07}"), "\(run.standardOutput)")
        #expect(run.standardOutput.contains(#"evil \u{1B}]0;pwned\u{7}\u{1B}[2J title"#), "\(run.standardOutput)")
        #expect(try String(contentsOf: results, encoding: .utf8).contains(#"\u001b]0;pwned"#), "the results keep the title as it is")
        let merge = try CLI.run(["merge", results.path])
        #expect(merge.status == 0)
        #expect(!merge.standardOutput.contains("\u{1B}") && merge.standardOutput.contains(#"\u{1B}]0;pwned"#), "\(merge.standardOutput)")
    }

    @Test func junitStaysWellFormedWhateverATitleHolds() throws {
        let folder = try CLI.folder(["odd.yaml": "name: \"odd \\uFFFE \\x01 title\"\nduration: 10s\ndevices:\n  - { id: walker, at: [52.5, 13.4] }\n"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let junit = folder.appendingPathComponent("junit.xml")
        #expect(try CLI.run(["run", folder.appendingPathComponent("odd.yaml").path, "--junit", junit.path]).status == 0)
        let data = try Data(contentsOf: junit)
        let parser = XMLParser(data: data)
        #expect(parser.parse(), "not well-formed: \(String(describing: parser.parserError)) in \(String(decoding: data, as: UTF8.self))")
        #expect(String(decoding: data, as: UTF8.self).contains("name=\"odd ? ? title\""))
    }

    /// Whether /dev/full is the kernel's full device (a character device that fails every write).
    static var hasDevFull: Bool {
        var status = stat()
        return stat("/dev/full", &status) == 0 && (status.st_mode & S_IFMT) == S_IFCHR
    }

    @Test(.enabled(if: OutputSafetyTests.hasDevFull, "needs /dev/full"))
    func writingToAFullDeviceExitsOneWithThePathAndLeavesTheDeviceAlone() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let results = folder.appendingPathComponent("results.jsonl")
        let run = try CLI.run(["run", "Scenarios/dog-walk/01-starting-the-app.yaml", "--junit", "/dev/full", "--results", results.path])
        #expect(run.status == 1, "\(run.standardOutput)\(run.standardError)")
        #expect(run.standardError.contains("cannot write /dev/full: No space left on device"), "\(run.standardError)")
        #expect(Self.hasDevFull, "/dev/full must stay a device, not be replaced by a file")
        for arguments in [["merge", results.path, "--junit", "/dev/full"], ["merge", results.path, "--results", "/dev/full"],
                          ["nmea", "export", "--waypoints", "0,0;0,0.01", "--out", "/dev/full"]] {
            let output = try CLI.run(arguments)
            #expect(output.status == 1, "\(arguments): \(output.standardError)")
            #expect(output.standardError.contains("cannot write /dev/full: No space left on device"), "\(arguments): \(output.standardError)")
            #expect(Self.hasDevFull)
        }
    }

    @Test(.enabled(if: OutputSafetyTests.hasDevFull, "needs /dev/full"))
    func aFullStandardOutputExitsOneWithTheReason() throws {
        for arguments in [["run", "Scenarios/dog-walk/01-starting-the-app.yaml"], ["nmea", "decode", "Tests/DeviceSimNMEATests/Fixtures/gpsd-nmea/garmin48.log"]] {
            let process = Process()
            process.executableURL = CLI.binary
            process.arguments = arguments
            process.currentDirectoryURL = CLI.repositoryRoot
            var environment = ProcessInfo.processInfo.environment
            for name in CLI.shardVariables { environment[name] = nil }
            process.environment = environment
            let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
            let errors = Pipe()
            process.standardOutput = full
            process.standardError = errors
            try process.run()
            let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationReason == .exit && process.terminationStatus == 1, "\(arguments): \(message.prefix(300))")
            #expect(message.hasPrefix("error: cannot write standard output: No space left on device"), "\(arguments): \(message.prefix(300))")
        }
    }

    @Test func anOutputNamedThroughALinkIsWrittenThroughItNotReplaced() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var links: [(link: URL, target: URL)] = []
        for name in ["junit", "results"] {
            let target = folder.appendingPathComponent("\(name)-target"), link = folder.appendingPathComponent("\(name)-link")
            try "old".write(to: target, atomically: true, encoding: .utf8)
            try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
            links.append((link, target))
        }
        #expect(try CLI.run(["run", "Scenarios/dog-walk/01-starting-the-app.yaml", "--junit", links[0].link.path, "--results", links[1].link.path]).status == 0)
        for (link, target) in links {
            #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link.path) == target.path, "the link is still a link")
        }
        #expect(try String(contentsOf: links[0].target, encoding: .utf8).contains("<testsuites"))
        #expect(try String(contentsOf: links[1].target, encoding: .utf8).hasPrefix(#"{"format":"devicesim-results/1""#))
    }
}
