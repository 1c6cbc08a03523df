import Foundation
import Testing

/// Issue 47 (the third outside fuzz campaign): each finding's own input, ending in a clear error or
/// a correct result.
@Suite struct Issue47HardeningTests {
    /// A task-list scenario of one phone with two tasks, and `expect` as its expectations.
    static func taskList(name: String = "tasks", expect: String) -> String {
        """
        name: \(name)
        devices:
          - id: phone
            at: [55.03, 82.92]
            app:
              name: task-list
              settings:
                sign-in-methods: [yandex]
                device-accounts: { yandex: [olga@yandex.ru] }
                server-tasks: { olga@yandex.ru: ["Milk, eggs", bread] }
        timeline:
          - { at: 5s, do: answer, prompt: sign-in-method, choice: yandex }
          - { at: 10s, do: answer, prompt: choose-account, choice: olga@yandex.ru }
        expect:
        \(expect)
        duration: 2m
        """
    }

    /// A folder with a campus-game scenario `s.yaml` whose world (`world.yaml`) and game file
    /// (`game.yaml`) lie beside it.
    static func campusFolder() throws -> URL {
        let root = CLI.repositoryRoot
        let world = try String(contentsOf: root.appendingPathComponent("Simulator/worlds/campus.yaml"), encoding: .utf8)
        let game = try String(contentsOf: root.appendingPathComponent("Simulator/games/tu-campus.yaml"), encoding: .utf8)
        var scenario = try String(contentsOf: root.appendingPathComponent("Scenarios/campus-game/join-game-twice.yaml"), encoding: .utf8)
        scenario = scenario.replacingOccurrences(of: "../../Simulator/worlds/campus.yaml", with: "world.yaml")
            .replacingOccurrences(of: "../../Simulator/games/tu-campus.yaml", with: "game.yaml")
        return try CLI.folder(["s.yaml": scenario, "world.yaml": world, "game.yaml": game])
    }

    /// Runs `devicesim arguments…` in `folder` (for relative output paths of one character).
    static func run(_ arguments: [String], in folder: URL) throws -> CLI.Output {
        let process = Process()
        process.executableURL = CLI.binary
        process.arguments = arguments
        process.currentDirectoryURL = folder
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let status = process.terminationReason == .uncaughtSignal ? -process.terminationStatus : process.terminationStatus
        return CLI.Output(status: status, standardOutput: String(decoding: out, as: UTF8.self), standardError: String(decoding: err, as: UTF8.self))
    }

    @Test func item1OutputPathsOfOneCharacterAreWritten() throws {
        let folder = try CLI.folder(["s.yaml": Self.taskList(expect: "  - { event: app.started, count: 1 }")])
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try Self.run(["run", "s.yaml", "--junit", "a", "--report", "r", "--results", "j"], in: folder)
        #expect(run.status == 0, "\(run.standardError)")
        for name in ["a", "r", "j"] { #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path), "\(name)") }
        let dot = try Self.run(["run", "s.yaml", "--junit", "."], in: folder)
        #expect(dot.status == 2 && dot.standardError.contains("--junit . is a folder: give --junit a file path, e.g. --junit ./junit.xml"), "\(dot.status) \(dot.standardError)")
        #expect(!dot.standardOutput.contains("PASS"), "refused before the run")
    }

    @Test func outputPathsAreCheckedBeforeAnythingRunsOrIsWritten() throws {
        let folder = try CLI.folder(["s.yaml": Self.taskList(expect: "  - { event: app.started, count: 1 }")])
        defer { try? FileManager.default.removeItem(at: folder) }
        let empty = try Self.run(["run", "s.yaml", "--junit", ""], in: folder)
        #expect(empty.status == 2 && empty.standardError.contains("--junit is empty: give it a file path, e.g. --junit out/junit.xml"), "\(empty.standardError)")
        #expect(!empty.standardOutput.contains("PASS"), "refused before the run")
        let emptyTrace = try Self.run(["run", "s.yaml", "--trace", ""], in: folder)
        #expect(emptyTrace.status == 2 && emptyTrace.standardError.contains("--trace is empty: give it a folder path"), "\(emptyTrace.standardError)")
        // Control characters in a path are shown escaped, never sent to the terminal.
        let escape = "a\u{1B}[31mred"
        let controls = try Self.run(["run", "s.yaml", "--junit", escape, "--results", escape], in: folder)
        #expect(controls.status == 2 && controls.standardError.contains("--junit a\\u{1B}[31mred"), "\(controls.standardError)")
        #expect(!controls.standardError.contains("\u{1B}"))
        // A dangling --results link whose folder does not exist: refused before --junit is written.
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("dl").path, withDestinationPath: "nothere/x.jsonl")
        let dangling = try Self.run(["run", "s.yaml", "--junit", "j.xml", "--results", "dl"], in: folder)
        #expect(dangling.status == 2 && dangling.standardError.contains("--results dl is a link to nothere/x.jsonl, whose folder nothere does not exist"), "\(dangling.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("j.xml").path), "nothing written")
        // A file where a folder must be.
        try Data().write(to: folder.appendingPathComponent("plain"))
        let underFile = try Self.run(["run", "s.yaml", "--junit", "j.xml", "--report", "plain/r.html"], in: folder)
        #expect(underFile.status == 2 && underFile.standardError.contains("--report plain/r.html cannot be created: plain is not a folder"), "\(underFile.standardError)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("j.xml").path), "nothing written")
    }

    @Test func mergeRefusesAResultsFileOverItsLimitNamingIt() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let big = folder.appendingPathComponent("big.jsonl")
        #expect(FileManager.default.createFile(atPath: big.path, contents: nil))
        let handle = try FileHandle(forWritingTo: big)
        try handle.truncate(atOffset: UInt64(32 << 20) + 1)   // sparse: no disk used
        try handle.close()
        let merged = try CLI.run(["merge", big.path])
        #expect(merged.status == 2)
        #expect(merged.standardError.contains("is larger than the 32 MiB (33554432 bytes) a results file may be"), "\(merged.standardError)")
    }

    @Test func item2ASpeedOutsideTheDriversRangeIsRefusedNamingIt() throws {
        for speed in ["1e-20", "1e-300", "0.0001"] {
            let output = try CLI.run(["serve", "Scenarios/dog-walk/01-starting-the-app.yaml", "--nmea-tcp", "0", "--speed", speed], timeout: 30)
            #expect(output.status == 64 || output.status == 2, "\(speed): \(output.status)")
            #expect(output.standardError.contains("--speed must be from 0.001 to 10000 virtual seconds per wall second"), "\(output.standardError)")
        }
    }

    @Test func items7To9AnOutputThatIsAnyInputOrAnotherOutputIsRefused() throws {
        let folder = try Self.campusFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let s = folder.appendingPathComponent("s.yaml").path
        for (option, file) in [("--junit", "world.yaml"), ("--report", "game.yaml")] {
            let target = folder.appendingPathComponent(file)
            let before = try String(contentsOf: target, encoding: .utf8)
            let output = try CLI.run(["run", s, option, target.path], timeout: 60)
            #expect(output.status == 2, "\(option) \(file): \(output.standardError)")
            #expect(output.standardError.contains("\(option) \(target.path) is a file \(s) reads"), "\(output.standardError)")
            #expect(try String(contentsOf: target, encoding: .utf8) == before)
        }
        let world = folder.appendingPathComponent("world.yaml")
        let served = try CLI.run(["serve", s, "--nmea-tcp", "0", "--trace", world.path], timeout: 30)
        #expect(served.status == 2 && served.standardError.contains("is a file \(s) reads"), "\(served.standardError)")
        // Item 8: a dangling link names the file it will create.
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("link.xml").path, withDestinationPath: "nothere.xml")
        let linked = try CLI.run(["run", s, "--junit", folder.appendingPathComponent("link.xml").path, "--report", folder.appendingPathComponent("nothere.xml").path], timeout: 60)
        #expect(linked.status == 2 && linked.standardError.contains("are the same file"), "\(linked.standardError)")
        // Item 9: standard output (a pipe here) is the summary's.
        let mixed = try CLI.run(["run", s, "--junit", "/dev/stdout"], timeout: 60)
        #expect(mixed.status == 2 && mixed.standardError.contains("--junit /dev/stdout is the command's standard output"), "\(mixed.standardError)")
    }

    @Test func item12ASecondStatementIsRefusedByValidateWithWhereItStarts() throws {
        let folder = try CLI.folder(["s.yaml": Self.taskList(expect: #"  - { stored: "SELECT text FROM tasks; DROP TABLE tasks", database: task-list, at: 1m, rows: [] }"#)])
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = try CLI.run(["validate", folder.appendingPathComponent("s.yaml").path])
        #expect(output.status == 2)
        #expect(output.standardError.contains("this query holds a second statement at line 1, column 25 of the query"), "\(output.standardError)")
    }

    @Test func item11RowsAreComparedAsValuesNotAsJoinedText() throws {
        // Two rows 'a, b','c' and 'd], [e','f' passed as [[a, b, c], [d], [e, f]].
        let query = #"SELECT 'a, b', 'c' UNION ALL SELECT 'd], [e', 'f'"#
        let wrong = try CLI.folder(["s.yaml": Self.taskList(expect: "  - { stored: \"\(query)\", database: task-list, at: 1m, rows: [[a, b, c], [d], [e, f]] }")])
        let right = try CLI.folder(["s.yaml": Self.taskList(expect: "  - { stored: \"\(query)\", database: task-list, at: 1m, rows: [[\"a, b\", c], [\"d], [e\", f]] }")])
        defer { for folder in [wrong, right] { try? FileManager.default.removeItem(at: folder) } }
        #expect(try CLI.run(["run", wrong.appendingPathComponent("s.yaml").path]).status == 1)
        let passed = try CLI.run(["run", right.appendingPathComponent("s.yaml").path])
        #expect(passed.status == 0, "\(passed.standardOutput)\(passed.standardError)")
    }

    @Test func item15BlankAndNullScenarioNamesAreRefused() throws {
        for name in [#""""#, #"" ""#, "~", "null"] {
            let folder = try CLI.folder(["s.yaml": Self.taskList(name: name, expect: "  - { event: app.started, count: 1 }")])
            defer { try? FileManager.default.removeItem(at: folder) }
            let output = try CLI.run(["validate", folder.appendingPathComponent("s.yaml").path])
            #expect(output.status == 2, "name: \(name): \(output.standardOutput)")
            #expect(output.standardError.contains("name"), "\(output.standardError)")
        }
    }

    @Test func item16ALongNameIsCutWhereItIsPrinted() throws {
        let long = String(repeating: "n", count: 1_000_000)
        let folder = try CLI.folder(["s.yaml": Self.taskList(name: long, expect: "  - { event: app.started, count: 1 }")])
        defer { try? FileManager.default.removeItem(at: folder) }
        let validated = try CLI.run(["validate", folder.appendingPathComponent("s.yaml").path])
        #expect(validated.status == 0 && validated.standardOutput.count < 2_000, "\(validated.standardOutput.count)")
        let junit = folder.appendingPathComponent("j.xml")
        let run = try CLI.run(["run", folder.appendingPathComponent("s.yaml").path, "--junit", junit.path])
        #expect(run.status == 0 && run.standardOutput.count < 4_000, "\(run.standardOutput.count)")
        #expect(try Data(contentsOf: junit).count < 10_000)
    }
}

extension Issue47HardeningTests {
    @Test func item17MergeChecksEveryRecordAgainstItsHeadersRun() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let results = folder.appendingPathComponent("r.jsonl")
        let first = "Scenarios/dog-walk/01-starting-the-app.yaml"
        let ran = try CLI.run(["run", first, "Scenarios/task-list", "--results", results.path, "-q"])
        #expect(ran.status == 0 || ran.status == 1, "\(ran.standardError)")
        #expect(try CLI.run(["merge", results.path]).status != 2, "the run's own file merges")
        // The same header over records that name other scenarios: every record names the first file.
        var lines = try String(contentsOf: results, encoding: .utf8).split(separator: "\n").map(String.init)
        let firstName = "\"name\":\"01-starting-the-app.yaml\""
        let header = lines.removeFirst()
        let record = try #require(lines.first { $0.contains(firstName) })
        let copied = folder.appendingPathComponent("copied.jsonl")
        let forged = lines.enumerated().map { index, _ in record.replacingOccurrences(of: "\"position\":0", with: "\"position\":\(index)") }
        try ([header] + forged).joined(separator: "\n").appending("\n").write(to: copied, atomically: true, encoding: .utf8)
        let merged = try CLI.run(["merge", copied.path])
        #expect(merged.status == 2, "\(merged.standardOutput)")
        #expect(merged.standardError.contains("these records do not come from the run their header names"), "\(merged.standardError)")
    }
}

extension Issue47HardeningTests {
    @Test func item14AServerAccountThatExistsNowhereIsRefusedWithTheNearestName() throws {
        let folder = try CLI.folder(["s.yaml": Self.taskList(expect: "  - { server: task-list, table: tasks, account: olga@yandx.ru, at: 1m, rows: [] }")])
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = try CLI.run(["validate", folder.appendingPathComponent("s.yaml").path])
        #expect(output.status == 2)
        #expect(output.standardError.contains("no device has the account 'olga@yandx.ru' and the scenario names it nowhere else, so the task-list server cannot hold rows of it; did you mean 'olga@yandex.ru'?"), "\(output.standardError)")
    }

    @Test(.enabled(if: FileManager.default.isReadableFile(atPath: "/etc/passwd"), "needs /etc/passwd"))
    func theLeftoverItemAWorldOfEtcPasswdIsNamedNotQuoted() throws {
        let folder = try CLI.folder(["p.yaml": "name: p\nworld: /etc/passwd\nduration: 1s\ndevices:\n  - { id: walker, at: [52.5, 13.4] }\n"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = try CLI.run(["validate", folder.appendingPathComponent("p.yaml").path])
        #expect(output.status == 2)
        #expect(output.standardError.contains("/etc/passwd:1:1: this is not a world file"), "\(output.standardError)")
        let firstLine = try String(contentsOfFile: "/etc/passwd", encoding: .utf8).split(separator: "\n").first.map(String.init) ?? "root:x:0:0"
        #expect(!output.standardError.contains(firstLine), "nothing of the file is quoted: \(output.standardError)")
    }

    @Test func item10AWorldThatIsNotAWorldFileIsNamedNotQuoted() throws {
        let secret = "root:$y$j9T$SECRETHASH:20228:0:99999:7:::\ndaemon:*:20228:0:99999:7:::\n"
        let outside = try CLI.folder(["creds.yaml": "name: creds\nplaces: { home: [52.5, 13.4] }\n"])
        let folder = try CLI.folder([
            "shadow": secret,
            "s.yaml": "name: s\nworld: shadow\nduration: 1s\ndevices:\n  - { id: walker, at: [52.5, 13.4] }\n",
            "t.yaml": "name: t\nworld: sub/creds.yaml\nduration: 1s\ndevices:\n  - { id: walker, at: home }\n",
        ])
        defer { for url in [folder, outside] { try? FileManager.default.removeItem(at: url) } }
        let quoted = try CLI.run(["validate", folder.appendingPathComponent("s.yaml").path])
        #expect(quoted.status == 2)
        #expect(quoted.standardError.contains("this is not a world file"), "\(quoted.standardError)")
        #expect(!quoted.standardError.contains("SECRETHASH") && !quoted.standardError.contains("root:"), "\(quoted.standardError)")
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("sub").path, withDestinationPath: outside.path)
        let linked = try CLI.run(["validate", folder.appendingPathComponent("t.yaml").path])
        #expect(linked.status == 2)
        #expect(linked.standardError.contains("/sub is a symbolic link to"), "\(linked.standardError)")
    }
}
