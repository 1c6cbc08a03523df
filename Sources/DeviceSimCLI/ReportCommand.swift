import ArgumentParser
import DeviceSimReport
import DeviceSimScenario
import Foundation

/// `devicesim report`: an HTML report from saved traces (a CI job's artifacts, later).
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Write an HTML report (maps, timelines, events, failures) from saved traces.",
        discussion: """
            Each argument is a trace written by 'devicesim run --trace DIR', or a folder searched for .jsonl traces. With --results (written by 'devicesim run --results' or 'devicesim merge --results'; the files of one run: results of different runs are refused), the report shows each run's result and wall time and finds each trace's scenario file by the path the run read; with --scenarios, traces are matched to scenario files by name (dog-walk/tunnel.jsonl to dog-walk/tunnel.yaml). The scenario file gives the map its world and the devices' tracks, and the failed expectations their moments; a trace with no results record is judged by checking its scenario's expectations against it (without a scenario file its status is unknown). Nothing is run again.

            The report is one HTML file with everything inline: it opens from disk, offline. Exit codes: 0 written; 1 the report could not be written (a full disk, a folder that cannot be made); 2 invalid input or usage (a trace or scenario file that cannot be read is left out of the report, which is still written, with a warning), including an --out that is one of the traces, results or scenario files the report is made from (refused before anything is written).

            Examples:
              devicesim run Scenarios --trace out/traces --results out/results.jsonl
              devicesim report out/traces --results out/results.jsonl --out out/report.html
              devicesim report out/traces/dog-walk/tunnel.jsonl --scenarios Scenarios \\
                --out tunnel.html
              devicesim report out/traces --results out/results.jsonl \\
                --history monday/results.jsonl tuesday/results.jsonl --out report.html
            """
    )

    @Argument(help: "Trace files or folders of traces.", completion: .file(extensions: ["jsonl"]))
    var traces: [String] = []

    @Option(help: ArgumentHelp("Write the report to this file.", valueName: "file"))
    var out: String

    @Option(parsing: .upToNextOption, help: ArgumentHelp("Results files of the run (from 'devicesim run --results').", valueName: "file"))
    var results: [String] = []

    @Option(parsing: .upToNextOption, help: ArgumentHelp("Scenario files or folders the traces came from.", valueName: "path"))
    var scenarios: [String] = []

    @Option(parsing: .upToNextOption, help: ArgumentHelp("Results files of earlier runs, oldest first (one merged file per run): the report shows how each scenario came out in each (passed, failed, flaky), and in this run's --results last.", valueName: "file"))
    var history: [String] = []

    @Option(help: "The report's title.")
    var title = "DeviceSim report"

    @Option(parsing: .unconditional, help: "Show maps, timelines and events for at most this many scenarios (failed ones first; 0: none). Every scenario keeps its row in the summary: one without a results record is checked against its trace.")
    var detailed = ReportLimits().detailedScenarios

    func validate() throws {
        guard !traces.isEmpty || !history.isEmpty else {
            throw ValidationError("Give the traces to report, e.g. 'devicesim report out/traces --out report.html', or results files of earlier runs with --history.")
        }
        guard detailed >= 0 else { throw ValidationError("--detailed must be 0 or more, found \(detailed).") }
    }

    func run() throws {
        let style = Style(enabled: Terminal.standardError.supportsColor)
        do {
            let tracePaths = try Self.traceFiles(traces)
            var records: [RunRecord] = []
            var headers: [(path: String, header: ResultsHeader)] = []
            for file in results {
                let contents = try RunRecordCoding.read(file)
                headers.append((file, contents.header))
                records += contents.records
            }
            try Self.checkOneRun(headers)
            var earlier: [ResultsHistory.Run] = []
            for file in history {
                earlier.append(ResultsHistory.Run(label: file, records: try RunRecordCoding.read(file).records))
            }
            if !history.isEmpty, !records.isEmpty { earlier.append(ResultsHistory.Run(label: "this run (" + results.joined(separator: ", ") + ")", records: records)) }
            records.sort { $0.position < $1.position }
            let found = scenarios.isEmpty ? [] : try ScenarioDiscovery.find(scenarios, scenariosOnly: true)
            let inputs = Self.inputs(traces: tracePaths, records: records, scenarios: found)
            var limits = ReportLimits()
            limits.detailedScenarios = detailed
            let wall = records.isEmpty ? nil : records.reduce(0) { $0 + $1.wallSeconds }
            try outputChecked(inputs: inputs)
            let summary: ReportGenerator.Summary
            do {
                summary = try ReportGenerator.write(inputs, to: out, title: title, wallSeconds: wall, limits: limits, history: earlier.isEmpty ? nil : ResultsHistory(runs: earlier))
            } catch {
                // Everything was read: the report alone could not be written.
                Terminal.standardError.write(style.red("error: ") + "\(error)\n")
                throw ExitCode(1)
            }
            ReportCommand.announce(summary, path: out, style: style)
            if !summary.warnings.isEmpty { throw ExitCode(2) }
        } catch let error as ScenarioError {
            Terminal.standardError.write(style.red("error: ") + "\(error)\n")
            throw ExitCode(2)
        } catch let error as ValidationErrorText {
            Terminal.standardError.write(style.red("error: ") + "\(error)\n")
            throw ExitCode(2)
        }
    }

    /// Refuses results files that are not one run's (other seeds, other scenario files, another
    /// number of shards, a whole run with shards): their records would be shown as one run's.
    static func checkOneRun(_ headers: [(path: String, header: ResultsHeader)]) throws {
        let what = "give the results files of one run (the shards of one run, or its merged results), or report each run by itself"
        try ResultsHeader.checkOneRun(headers, for: what)
        guard let first = headers.first else { return }
        func shards(_ header: ResultsHeader) -> String { header.shard.map { "shard \($0)" } ?? "a whole run" }
        func count(_ header: ResultsHeader) -> Int? { header.shard.flatMap { try? Shard(parsing: $0).count } }
        for other in headers.dropFirst() where count(other.header) != count(first.header) {
            throw ValidationErrorText("\(first.path) (\(shards(first.header))) and \(other.path) (\(shards(other.header))) do not make up one run: \(what)")
        }
    }

    /// Refuses (exit 2, before the report is written) a report that would go over one of the files
    /// it is made from: a trace, a results file, a scenario file.
    private func outputChecked(inputs: [ReportGenerator.Input]) throws {
        var files = FileRoles()
        for path in traces + scenarios {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                files.inputFolder(path, extensions: [".jsonl", ".yaml", ".yml"])
            }
        }
        for file in results { files.input("the results file", file) }
        for file in history { files.input("the results file of an earlier run", file) }
        for input in inputs {
            if let trace = input.tracePath { files.input("the trace", trace) }
            if let scenario = input.scenarioPath ?? input.record?.path { files.input("the scenario file", scenario) }
        }
        files.output("--out", out)
        try files.check()
    }

    /// What the report holds: each record with its trace, then the traces no record names.
    static func inputs(traces: [String], records: [RunRecord], scenarios: [ScenarioDiscovery.Found]) -> [ReportGenerator.Input] {
        var unclaimed = traces
        var inputs: [ReportGenerator.Input] = []
        for record in records {
            guard record.invalid == nil else { inputs.append(.init(record: record)); continue }
            let ending = ScenarioBatch.traceFile(in: "", name: record.name, seed: record.seed, swept: record.swept)
            let index = unclaimed.firstIndex { $0 == String(ending.dropFirst()) || $0.hasSuffix(ending) }
            inputs.append(.init(record: record, tracePath: index.map { unclaimed[$0] }))
            if let index { unclaimed.remove(at: index) }
        }
        for trace in unclaimed {
            let match = ReportGenerator.scenario(forTrace: trace, among: scenarios)
            var name = match?.relativeName ?? WritableFile.folderAndName(of: trace).name
            if let range = trace.range(of: #"\.seed-[0-9]+\.jsonl$"#, options: .regularExpression), match != nil {
                name += " [" + trace[range].dropFirst().dropLast(".jsonl".count) + "]"
            }
            inputs.append(.init(tracePath: trace, scenarioPath: match?.path, name: name))
        }
        return inputs
    }

    /// The trace files named by `arguments`, folders searched recursively for `.jsonl`, sorted.
    static func traceFiles(_ arguments: [String]) throws -> [String] {
        var files: [String] = []
        for argument in arguments {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory) else {
                throw ValidationErrorText("\(argument): no such file or folder")
            }
            guard isDirectory.boolValue else { files.append(argument); continue }
            let base = argument.hasSuffix("/") ? String(argument.dropLast()) : argument
            let found = (FileManager.default.enumerator(atPath: argument)?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".jsonl") }.sorted()
            files += found.map { base + "/" + $0 }
        }
        return files
    }

    /// The report of a run that just finished: each record with the trace it wrote into `traceFolder`
    /// (a temporary folder, removed when the run ends, when `temporaryTraces`: warnings then name
    /// the traces without it). Returns why the report could not be written (nil: written), for the
    /// caller to say after its summary.
    static func write(records: [RunRecord], traceFolder: String, temporaryTraces: Bool = false, to path: String, wallSeconds: Double, style: Style) -> String? {
        let inputs = records.map { record in
            ReportGenerator.Input(record: record, tracePath: record.invalid == nil ? ScenarioBatch.traceFile(in: traceFolder, name: record.name, seed: record.seed, swept: record.swept) : nil)
        }
        do {
            var summary = try ReportGenerator.write(inputs, to: path, wallSeconds: wallSeconds)
            if temporaryTraces { summary.warnings = summary.warnings.map { withoutTemporaryFolder($0, traceFolder) } }
            announce(summary, path: path, style: style)
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// `warning` with the temporary trace folder's path left out (it is gone when the run ends):
    /// `/tmp/devicesim-report-…/dog-walk/a.jsonl:3:1: …` becomes `the run's trace dog-walk/a.jsonl (not kept: …), line 3: …`.
    static func withoutTemporaryFolder(_ warning: String, _ folder: String) -> String {
        let prefix = (folder.hasSuffix("/") ? String(folder.dropLast()) : folder) + "/"
        guard let range = warning.range(of: prefix) else { return warning }
        let rest = warning[range.upperBound...]
        let name = rest.prefix { $0 != ":" }
        var after = rest.dropFirst(name.count)
        var line = ""
        if after.hasPrefix(":"), case let digits = after.dropFirst().prefix(while: \.isNumber), !digits.isEmpty {
            line = ", line \(digits)"
            after = after.dropFirst(1 + digits.count)
            if after.hasPrefix(":"), case let column = after.dropFirst().prefix(while: \.isNumber), !column.isEmpty { after = after.dropFirst(1 + column.count) }
        }
        return warning[..<range.lowerBound] + "the run's trace \(name) (not kept: give --trace DIR to keep traces)\(line)" + after
    }

    /// Says where the report went, and what was left out.
    static func announce(_ summary: ReportGenerator.Summary, path: String, style: Style) {
        for warning in summary.warnings { Terminal.standardError.write(style.yellow("warning: ") + warning + "\n") }
        let megabytes = Double(summary.bytes) / 1_048_576
        Terminal.standardError.write("report: \(path) (\(summary.scenarios) scenario\(summary.scenarios == 1 ? "" : "s"), \(summary.detailed) in full, \(String(format: "%.1f", megabytes)) MB)\n")
    }
}
