import ArgumentParser
import DeviceSimReport
import DeviceSimScenario
import DeviceSimSimulated
import DeviceSimStorage
import DeviceSimTime
import Foundation

/// `devicesim run`: run scenario files in virtual time and check their expectations.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run scenario files in virtual time and check their expectations.",
        discussion: """
            Each argument is a scenario file or a folder searched recursively for
            .yaml/.yml files. Exit codes: 0 all passed; 1 a scenario failed, or an output
            could not be written during or after the run (a trace or --results stops the
            run there; when --junit or --report, written at the end, cannot be, the summary
            is printed, then the error); 2 invalid input or usage (the valid scenarios
            still run and are reported), including an output that cannot be created before
            the run (the --results file, the --trace or --keep-data folder) and an output
            that is one of the scenario files or the same file as another output (refused
            before anything is written).

            Examples:
              devicesim run Scenarios
              devicesim run Scenarios/dog-walk/walk-2km.yaml --trace out/traces \\
                --junit out/junit.xml
              devicesim run Scenarios --seed 7
              devicesim run Scenarios --report out/report.html
              devicesim run Scenarios/friend-locator --seeds 1-200 --jobs 8
              devicesim run Scenarios --shard 2/4 --results shard-2.jsonl
                (then: devicesim merge shard-*.jsonl)
              devicesim run Scenarios/dog-walk --keep-data out/data
                (then: sqlite3 out/data/07-placing-a-poo/walker.sqlite)

            Each device keeps its app's data in SQLite databases. A run puts them in
            one temporary folder, removed at the end; --keep-data keeps them in DIR:
            one folder per scenario file, named after its path in the folder given
            without .yaml (run Scenarios --keep-data out/data writes
            out/data/dog-walk/07-placing-a-poo/), with .seed-N added in a sweep; in it
            one file per database, <device>.sqlite or <device>.<app>.sqlite.

            On a terminal, a progress line on standard error shows the runs done,
            the failures so far, the time left and the scenario and seed it is on;
            it is erased at the end.

            Ctrl-C (or SIGTERM) once: no new run starts, the runs under way finish,
            and the results, JUnit and report of the runs that finished are written;
            the summary says "interrupted" and the exit status is 130. Ctrl-C again
            stops at once (status 130, nothing more written).

            A scenario whose app's main-actor code holds the main thread for more than
            5 s (a busy loop, Thread.sleep, a semaphore wait) fails at once, naming the
            app, the step and the function holding it; later scenarios of main-actor
            apps in the run fail too. DEVICESIM_MAIN_THREAD_LIMIT=30s changes the limit.
            """
    )

    @Argument(help: "Scenario files or folders.", completion: .file(extensions: ["yaml", "yml"]))
    var paths: [String]

    @Option(help: ArgumentHelp("Write each scenario's trace as JSON Lines into this folder.", valueName: "dir"))
    var trace: String?

    @Option(help: ArgumentHelp("Keep the devices' databases in this folder (default: a temporary folder, removed at the end).", valueName: "dir"))
    var keepData: String?

    @Option(help: ArgumentHelp("Write a JUnit XML report to this file.", valueName: "file"))
    var junit: String?

    @Option(help: ArgumentHelp("Write every result as JSON Lines to this file (for 'devicesim merge').", valueName: "file"))
    var results: String?

    @Option(help: ArgumentHelp("Write an HTML report (maps, timelines, events, failures; one offline file) to this file.", valueName: "file"))
    var report: String?

    @Option(parsing: .unconditional, help: "Use this seed instead of each scenario's own.", transform: OptionValues.seed)
    var seed: UInt64?

    @Option(parsing: .unconditional, help: ArgumentHelp("Run each scenario under each of these seeds: a range (1-1000), a count (200: seeds 1 to 200) or a list (3,17,42).", valueName: "seeds"))
    var seeds: String?

    @Option(name: .shortAndLong, parsing: .unconditional, help: ArgumentHelp("Run this many scenarios at once (default: the number of cores).", valueName: "n"))
    var jobs: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("Run only shard INDEX of COUNT (1-based, e.g. 2/4); without it, Bazel's, Kubernetes', GitLab's and Buildkite's shard variables are read.", valueName: "index/count"))
    var shard: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("The number of shards of a Kubernetes Indexed Job (its completions), read with JOB_COMPLETION_INDEX.", valueName: "n"))
    var shardCount: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp(
        "Stop a scenario that runs more than this many events (a runaway bound). Default: 50 million, or 20,000 per device per simulated hour when that is more.",
        valueName: "n"))
    var maxEvents: Int?

    @Option(help: "Colour in the summary: auto (on a terminal), always, never.")
    var color: ColorChoice = .auto

    @Flag(name: .shortAndLong, help: "Show every expectation, not only failed ones.")
    var verbose = false

    @Flag(name: .shortAndLong, help: "Print only failures and the final count.")
    var quiet = false

    func validate() throws {
        guard !paths.isEmpty else { throw ValidationError("Give at least one scenario file or folder, e.g. 'devicesim run Scenarios'.") }
        if let maxEvents, maxEvents < 1 { throw ValidationError("--max-events must be 1 or more, found \(maxEvents).") }
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be 1 or more, found \(jobs).") }
        if seed != nil, seeds != nil { throw ValidationError("Give either --seed (one seed) or --seeds (a sweep), not both.") }
        if let seeds { do { _ = try SeedSelection(parsing: seeds) } catch { throw ValidationError(error.message) } }
        if let shard { do { _ = try Shard(parsing: shard) } catch { throw ValidationError(error.message) } }
        if let shardCount, shardCount < 1 { throw ValidationError("--shard-count must be 1 or more, found \(shardCount).") }
    }

    func run() throws {
        let out = Terminal.standardOutput
        let style = Style(enabled: color.enabled(for: out))
        let found = try ScenarioDiscovery.findOrExit(paths, scenariosOnly: true)
        let sweep = try seeds.map { try SeedSelection(parsing: $0).values }
        let selectedShard = try chosenShard()
        let plan = ScenarioBatch.plan(found, seeds: sweep, shard: selectedShard)
        try outputsChecked(found: found, plan: plan, swept: sweep != nil)
        // A fleet restarts here once on huge pages (see HugePageHeap), before writing anything.
        HugePageHeap.restartIfUseful(scenarioFiles: plan.map(\.found.path))
        if let selectedShard, !quiet {
            out.write(style.dim("shard \(selectedShard): \(plan.count) of \(found.count * (sweep?.count ?? 1)) runs") + "\n")
        }

        var runner = ScenarioRunner(seedOverride: seed, limits: RunLimits(maximumVirtualTime: VirtualInstant(offset: ScenarioParser.maximumDuration), maximumEvents: maxEvents ?? RunLimits().maximumEvents))
        if maxEvents == nil { runner.eventLimitPerDeviceHour = ScenarioRunner.fleetEventLimitPerDeviceHour }
        let dataFolder: DataFolder
        do {
            dataFolder = try keepData.map(DataFolder.init(keeping:)) ?? DataFolder.temporary(prefix: "devicesim-run-")
        } catch {
            Terminal.standardError.write(style.red("error: ") + "\(error)\n")
            throw ExitCode(2)
        }
        runner.dataDirectory = dataFolder.path
        // The temporary folder goes when `dataFolder` is released, after the last scenario.
        defer { withExtendedLifetime(dataFolder) {} }
        var records: [RunRecord] = []
        let resultsFile = try results.map { try OutputFile(path: $0, openFailureStatus: 2) }
        try resultsFile?.append(RunRecordCoding.header(ResultsHeader(
            shard: selectedShard?.description, planSize: found.count * (sweep?.count ?? 1), scenarioNames: found.map(\.relativeName), sweep: sweep, seed: seed)))
        // A report is made from the traces: without --trace they go to a temporary folder.
        let reportTraces = report != nil && trace == nil ? FileManager.default.temporaryDirectory.appendingPathComponent("devicesim-report-\(UUID().uuidString)").path : nil
        defer { if let reportTraces { try? FileManager.default.removeItem(atPath: reportTraces) } }
        let traceFolder = trace ?? reportTraces
        let clock = ContinuousClock()
        let started = clock.now
        // Traces stream to their files as the scenarios run; results keep only the events their
        // expectations look at, so memory does not grow with the length of a trace.
        // Without --keep-data, each run's databases go as soon as it ends, on the thread that ran it.
        // On a terminal, a progress line on standard error; everything else printed clears it first.
        let jobCount = jobs ?? ProcessInfo.processInfo.activeProcessorCount
        let progress = RunProgress.onTerminal(plan: plan, noun: sweep == nil ? "scenario" : "run", jobs: jobCount)
        // Ctrl-C: the first stops starting runs (the rest of this function writes what finished), the second exits.
        let stop = StopSignal()
        let interruption = BatchInterruption(raising: stop) { progress?.stopStarting() }
        defer { interruption.remove() }
        func show(_ write: () -> Void) {
            if let progress { progress.withLineCleared(write) } else { write() }
        }
        var warnedEmpty = Set<String>()
        progress?.start()
        defer { progress?.stop() }
        var onStart: (@Sendable (ScenarioBatch.Item) -> Void)?
        if let progress { onStart = { item in progress.started(item) } }
        try ScenarioBatch.run(
            plan, runner: runner, jobs: jobCount, swept: sweep != nil, traceFolder: traceFolder, keepingEvents: false, removingDataFolders: keepData == nil,
            stop: stop, started: onStart
        ) { outcome in
            switch outcome {
            case .invalid(let record, let error):
                records.append(record)
                show { Terminal.standardError.write(style.red("error: ") + MessageText.escapingControlsKeepingLines("\(error)") + "\n") }
            case .ran(let record, let result):
                records.append(record)
                if record.expectations == 0, warnedEmpty.insert(record.path).inserted {
                    show { Terminal.standardError.write(Self.noExpectationsWarning(record, style: style)) }
                }
                if !quiet || !record.passed {
                    show { RunSummary.report(record, style: style, outcomes: verbose ? result.outcomes : nil) }
                }
                if let traceFileError = result.traceFileError {
                    // The trace folder was made before the run: a trace that cannot be written now is
                    // an output that failed (full disk, file too large), which stops the run.
                    show { Terminal.standardError.write(style.red("error: ") + traceFileError + "\n") }
                    throw ExitCode(1)
                }
            }
            progress?.finished(outcome.record)
            try resultsFile?.append(RunRecordCoding.line(outcome.record))
        }
        progress?.stop()
        try resultsFile?.close()
        let total = started.duration(to: clock.now).inSeconds
        // Outputs made at the end that cannot be written are said after the summary, which is
        // printed whatever happened to them.
        var writeFailures: [String] = []
        if let junit {
            do throws(WriteError) { try WritableFile.replace(junit, with: JUnitReport().xml(for: records)) } catch { writeFailures.append("\(error)") }
        }
        if let report, let traceFolder,
           let failure = ReportCommand.write(records: records, traceFolder: traceFolder, temporaryTraces: reportTraces != nil, to: report, wallSeconds: total, style: Style(enabled: Terminal.standardError.supportsColor)) {
            writeFailures.append(failure)
        }
        let interrupted = stop.isRaised
        var status = RunSummary(records: records, wallSeconds: total, interruptedOf: interrupted ? plan.count : nil).print(style: style)
        for failure in writeFailures { Terminal.standardError.write(style.red("error: ") + failure + "\n") }
        if !writeFailures.isEmpty { status = max(status, 1) }
        if interrupted { status = BatchInterruption.exitStatus }
        if selectedShard != nil, let statusFile = ProcessInfo.processInfo.environment["TEST_SHARD_STATUS_FILE"], !statusFile.isEmpty {
            _ = FileManager.default.createFile(atPath: statusFile, contents: nil)   // Bazel: this runner shards
        }
        if status != 0 { throw ExitCode(status) }
    }

    /// Refuses (exit 2, before anything is written) an output that is one of the scenario files or
    /// another output, and makes the trace folder, so that one that cannot be made is a usage error.
    private func outputsChecked(found: [ScenarioDiscovery.Found], plan: [ScenarioBatch.Item], swept: Bool) throws {
        var files = FileRoles()
        for path in paths {
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                files.inputFolder(path, extensions: [".yaml", ".yml"])
            }
        }
        for file in found { files.input("the scenario file", file.path) }
        if results != nil || junit != nil || report != nil || trace != nil {
            // The files each scenario reads (world, OpenStreetMap extract, tracks, game files), from a
            // parse of its own: a scenario that does not parse is reported by the run, and reads nothing.
            var seen: Set<String> = []
            for file in found {
                guard let parsed = try? ScenarioParser.parse(contentsOf: file.path) else { continue }
                for input in parsed.inputFiles where seen.insert(input).inserted { files.input("a file \(file.path) reads", input, shownAs: ShownPath.of(input)) }
            }
        }
        files.output("--results", results)
        files.output("--junit", junit)
        files.output("--report", report)
        var traces: [String: String] = [:]
        if trace != nil {
            for item in plan {
                let name = String(ScenarioBatch.traceFile(in: "", name: item.found.relativeName, seed: item.seed, swept: swept).dropFirst())
                traces[name] = traces[name] ?? "the trace of \(item.found.path)\(swept ? " under seed \(item.seed.map(String.init) ?? "")" : "")"
            }
        }
        files.outputFolder("--trace", trace, files: traces)
        files.outputFolder("--keep-data", keepData, files: [:])
        try files.check()
        if let trace {
            if let reason = FileRoles.makeFolder(trace) {
                Terminal.standardError.write("error: cannot create the trace folder \(trace): \(reason)\n")
                throw ExitCode(2)
            }
        }
    }

    /// The warning for a scenario that checks nothing: it passes whatever its app does.
    static func noExpectationsWarning(_ record: RunRecord, style: Style) -> String {
        style.yellow("warning: ") + "\(record.path) has no expectations, so it passes whatever the app does: add an 'expect:' list\n"
    }

    /// `--shard`, or the job engine's shard variables.
    private func chosenShard() throws -> Shard? {
        if let shard { return try Shard(parsing: shard) }
        do {
            return try Shard.fromEnvironment(ProcessInfo.processInfo.environment, count: shardCount)?.shard
        } catch {
            Terminal.standardError.write("error: \(error)\n")
            throw ExitCode(2)
        }
    }
}
