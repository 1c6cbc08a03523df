import ArgumentParser
import DeviceSimScenario
import DeviceSimSimulated
import Foundation

/// `devicesim merge`: join the results of shards into the result of one run.
struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Join the results files of a sharded run (devicesim run --shard ... --results FILE) into one.",
        discussion: """
            Prints the summary that one unsharded run would print, writes the merged JUnit XML and results, and exits like 'run': 0 all passed, 1 a scenario failed or an output could not be written, 2 invalid input or usage (including a --junit or --results that is one of the files merged, or both the same file: refused before anything is written). It refuses shards that overlap, come from different runs (each results file records its run's size, its --seeds or --seed, and its scenario files' names as a digest), or are missing (every shard of 1..COUNT must be given), and results that are not exactly their shard's share of the run: a run missing (a results file cut short), given twice, or of another shard. With --allow-partial, missing runs and shards are accepted: the summary says how many runs are missing, and the exit status is 1 at least. Traces need no merging: each shard writes its own files.

            Example:
              devicesim run Scenarios --shard 1/2 --results out/1.jsonl --trace out/traces
              devicesim run Scenarios --shard 2/2 --results out/2.jsonl --trace out/traces
              devicesim merge out/1.jsonl out/2.jsonl --junit out/junit.xml
            """
    )

    @Argument(help: "Results files written by 'devicesim run --results'.", completion: .file(extensions: ["jsonl"]))
    var files: [String]

    @Option(help: ArgumentHelp("Write the merged JUnit XML report to this file.", valueName: "file"))
    var junit: String?

    @Option(help: ArgumentHelp("Write the merged results to this file.", valueName: "file"))
    var results: String?

    @Option(help: "Colour in the summary: auto (on a terminal), always, never.")
    var color: ColorChoice = .auto

    @Flag(name: .shortAndLong, help: "Print only failures and the final count.")
    var quiet = false

    @Flag(help: "Accept missing runs (shards not given, results files cut short): merge what is there, say how many runs are missing, and exit 1.")
    var allowPartial = false

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("Give the results files to merge, e.g. 'devicesim merge out/*.jsonl'.") }
    }

    /// How many missing runs or shards are named one by one in a message; the rest are counted.
    static let namedInMessages = 5

    func run() throws {
        let style = Style(enabled: color.enabled(for: Terminal.standardOutput))
        var roles = FileRoles()
        for file in files { roles.input("the results file", file) }
        roles.output("--junit", junit)
        roles.output("--results", results)
        try roles.check()
        var shards: [ShardFile] = []
        var missing = 0
        do {
            for file in files {
                let read = try RunRecordCoding.read(file, acceptingCutShort: allowPartial)
                if let cutShort = read.cutShort { Terminal.standardError.write(style.yellow("warning: ") + cutShort + "\n") }
                shards.append(ShardFile(file: file, header: read.header, records: read.records))
            }
            let plan = try Self.checkShards(shards, allowingMissing: allowPartial)
            for shard in shards { missing += try Self.checkRecords(of: shard, plan: plan, allowingMissing: allowPartial) }
            missing += plan.missingShardRuns
            try Self.checkRunIdentity(of: shards.flatMap(\.records), header: shards[0].header)
        } catch {
            Terminal.standardError.write(style.red("error: ") + "\(error)\n")
            throw ExitCode(2)
        }
        var records = shards.flatMap(\.records)
        records.sort { $0.position < $1.position }
        for record in records {
            if let invalid = record.invalid {
                Terminal.standardError.write(style.red("error: ") + MessageText.escapingControlsKeepingLines(invalid) + "\n")
            } else if !quiet || !record.passed {
                RunSummary.report(record, style: style)
            }
        }
        if let junit { try OutputFile.replace(junit, with: JUnitReport().xml(for: records)) }
        if let results {
            let file = try OutputFile(path: results)
            try file.append(RunRecordCoding.header(ResultsHeader(mergingShardsOf: shards[0].header)))
            for record in records { try file.append(RunRecordCoding.line(record)) }
            try file.close()
        }
        var status = RunSummary(records: records, wallSeconds: records.reduce(0) { $0 + $1.wallSeconds }).print(style: style)
        if missing > 0 {
            let planSize = shards.first?.header.planSize ?? 0
            Terminal.standardOutput.write(style.red("\(missing) of \(planSize) run\(planSize == 1 ? "" : "s") missing (--allow-partial): these results are partial") + "\n")
            status = max(status, 1)
        }
        if status != 0 { throw ExitCode(status) }
    }

    /// Checks the records against the run their headers name (`scenarios: N files, fnv1a …`): the
    /// plan runs file after file, each under every seed, so the run at position `p` is of file
    /// `p / (planSize / N)`. Every run of one file must name the same scenario, and when every file has
    /// a run here, the digest of their names in order must be the header's: records copied under
    /// another run's header (records of other scenarios, "2 passed") are refused.
    static func checkRunIdentity(of records: [RunRecord], header: ResultsHeader) throws {
        guard let identity = header.scenarios, let fileCount = identity.split(separator: " ").first.flatMap({ Int($0) }), fileCount > 0,
            header.planSize % fileCount == 0
        else { return }
        let runsPerFile = max(1, header.planSize / fileCount)
        var names: [String?] = Array(repeating: nil, count: fileCount)
        for record in records {
            let file = record.position / runsPerFile
            guard file < fileCount else { continue }   // outside the plan: checkRecords says so
            if let known = names[file], known != record.name {
                throw ValidationErrorText("run #\(record.position) names \(MessageText.excerpt(record.name)), but run #\(file * runsPerFile) of the same scenario file names \(MessageText.excerpt(known)): these records do not come from the run their header names")
            }
            names[file] = record.name
        }
        let complete = names.compactMap { $0 }
        guard complete.count == fileCount else { return }
        guard ResultsHeader.scenariosIdentity(complete) == identity else {
            throw ValidationErrorText("the records name the scenario files \(MessageText.excerpt(complete.joined(separator: ", "))), but their header's run is of other files (\(identity)): these records do not come from the run their header names")
        }
    }

    /// One results file: its header and its records.
    struct ShardFile {
        var file: String
        var header: ResultsHeader
        var records: [RunRecord]
    }

    /// The run the files come from: its size, and the shard count (nil: the files hold whole runs).
    struct Plan {
        var size: Int
        var shardCount: Int?
        /// Runs of the shards that were not given (counted only when missing runs are accepted).
        var missingShardRuns = 0
    }

    /// How many runs shard `index` of `count` holds in a plan of `size` runs.
    static func runs(inShard index: Int, of count: Int, planSize size: Int) -> Int {
        size > index - 1 ? (size - (index - 1) + count - 1) / count : 0
    }

    /// Every shard 1..COUNT once, all of one run (missing shards are accepted with `allowingMissing`).
    static func checkShards(_ shards: [ShardFile], allowingMissing: Bool) throws -> Plan {
        let sizes = Set(shards.map(\.header.planSize))
        guard sizes.count == 1, let size = sizes.first else {
            throw ValidationErrorText("the results files come from runs of different sizes (\(sizes.sorted().map(String.init).joined(separator: ", ")) runs): merge the shards of one run")
        }
        // Runs of one size may still differ: other seeds, other scenario files.
        try ResultsHeader.checkOneRun(shards.map { ($0.file, $0.header) }, for: "merge the shards of one run")
        var indices: [Int: String] = [:]
        var count: Int?
        for shard in shards {
            guard let text = shard.header.shard else {
                guard shards.count == 1 else { throw ValidationErrorText("\(shard.file) holds a whole run, not a shard: merge only the shards of one run") }
                return Plan(size: size, shardCount: nil)
            }
            let parsed: Shard
            do { parsed = try Shard(parsing: text) } catch { throw ValidationErrorText("\(shard.file):1: \(error.message)") }
            if let count, count != parsed.count { throw ValidationErrorText("\(shard.file) is shard \(parsed), but another file is a shard of \(count)") }
            count = parsed.count
            if let other = indices[parsed.index] { throw ValidationErrorText("\(shard.file) and \(other) are both shard \(parsed)") }
            indices[parsed.index] = shard.file
        }
        var plan = Plan(size: size, shardCount: count)
        if let count {
            let missing = (1...count).filter { indices[$0] == nil }
            if !missing.isEmpty {
                let named = missing.prefix(namedInMessages).map { "\($0)/\(count)" }.joined(separator: ", ")
                let more = missing.count > namedInMessages ? " and \(missing.count - namedInMessages) more" : ""
                guard allowingMissing else {
                    throw ValidationErrorText("missing shard\(missing.count == 1 ? "" : "s") \(named)\(more) (\(missing.count) of \(count)): give the results of every shard, or pass --allow-partial to merge partial results")
                }
                Terminal.standardError.write("warning: missing shard\(missing.count == 1 ? "" : "s") \(named)\(more) (\(missing.count) of \(count))\n")
                plan.missingShardRuns = missing.reduce(0) { $0 + runs(inShard: $1, of: count, planSize: size) }
            }
        }
        return plan
    }

    /// Checks that `shard`'s records are exactly its share of the plan: each of its runs once, none of
    /// another shard's, none past the plan's end. Returns how many of its runs are missing (an error
    /// unless `allowingMissing`).
    static func checkRecords(of shard: ShardFile, plan: Plan, allowingMissing: Bool) throws -> Int {
        let parsed = try shard.header.shard.map { text in try Shard(parsing: text) } ?? Shard(index: 1, count: 1)
        var seen = Set<Int>()
        for record in shard.records {
            let run = "run #\(record.position) (\(MessageText.escapingControls(record.name))\(record.seed.map { ", seed \($0)" } ?? ""))"
            guard record.position < plan.size else { throw ValidationErrorText("\(shard.file): \(run) is outside the plan of \(plan.size) runs") }
            guard parsed.contains(record.position) else {
                throw ValidationErrorText("\(shard.file): \(run) belongs to shard \(record.position % parsed.count + 1)/\(parsed.count), not to this file's shard \(parsed)")
            }
            guard seen.insert(record.position).inserted else { throw ValidationErrorText("\(shard.file) holds \(run) twice") }
        }
        let expected = runs(inShard: parsed.index, of: parsed.count, planSize: plan.size)
        let missingCount = expected - seen.count
        guard missingCount > 0 else { return 0 }
        var missing: [Int] = []
        var position = parsed.index - 1
        while position < plan.size, missing.count < namedInMessages {
            if !seen.contains(position) { missing.append(position) }
            position += parsed.count
        }
        let named = missing.map { "#\($0)" }.joined(separator: ", ") + (missingCount > missing.count ? " and \(missingCount - missing.count) more" : "")
        let message = "\(shard.file) (\(shard.header.shard == nil ? "a whole run" : "shard \(parsed)")) misses \(missingCount) of its \(expected) runs: \(named)"
        guard allowingMissing else { throw ValidationErrorText(message + "; merge complete results, or pass --allow-partial to merge partial results") }
        Terminal.standardError.write("warning: \(message)\n")
        return missingCount
    }
}
