import ArgumentParser
import DeviceSimScenario
import Foundation

/// `devicesim merge`: join the results of shards into the result of one run.
struct MergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Join the results files of a sharded run (devicesim run --shard ... --results FILE) into one.",
        discussion: """
            Prints the summary that one unsharded run would print, writes the merged JUnit XML and results, and exits like 'run': 0 all passed, 1 a scenario failed, 2 invalid input. It refuses shards that overlap, come from runs of different sizes, or are missing (every shard of 1..COUNT must be given). Traces need no merging: each shard writes its own files.

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

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("Give the results files to merge, e.g. 'devicesim merge out/*.jsonl'.") }
    }

    func run() throws {
        let style = Style(enabled: color.enabled(for: Terminal.standardOutput))
        var headers: [(file: String, header: ResultsHeader)] = []
        var records: [RunRecord] = []
        do {
            for file in files {
                let read = try RunRecordCoding.read(file)
                headers.append((file, read.header))
                records += read.records
            }
            try Self.checkShards(headers)
        } catch {
            Terminal.standardError.write(style.red("error: ") + "\(error)\n")
            throw ExitCode(2)
        }
        var seen = Set<Int>()
        for record in records where !seen.insert(record.position).inserted {
            Terminal.standardError.write(style.red("error: ") + "two results files hold run #\(record.position) (\(record.name)); were shards given twice?\n")
            throw ExitCode(2)
        }
        records.sort { $0.position < $1.position }
        for record in records {
            if let invalid = record.invalid {
                Terminal.standardError.write(style.red("error: ") + invalid + "\n")
            } else if !quiet || !record.passed {
                RunSummary.report(record, style: style)
            }
        }
        if let junit { try OutputFile(path: junit).append(JUnitReport().xml(for: records)) }
        if let results {
            let file = try OutputFile(path: results)
            try file.append(RunRecordCoding.header(ResultsHeader(shard: nil, planSize: headers.first?.header.planSize ?? 0)))
            for record in records { try file.append(RunRecordCoding.line(record)) }
        }
        let status = RunSummary(records: records, wallSeconds: records.reduce(0) { $0 + $1.wallSeconds }).print(style: style)
        if status != 0 { throw ExitCode(status) }
    }

    /// Every shard 1..COUNT once, all of one run.
    static func checkShards(_ headers: [(file: String, header: ResultsHeader)]) throws {
        let sizes = Set(headers.map(\.header.planSize))
        guard sizes.count == 1 else {
            throw ValidationErrorText("the results files come from runs of different sizes (\(sizes.sorted().map(String.init).joined(separator: ", ")) runs): merge the shards of one run")
        }
        var indices: [Int: String] = [:]
        var count: Int?
        for (file, header) in headers {
            guard let text = header.shard else {
                guard headers.count == 1 else { throw ValidationErrorText("\(file) holds a whole run, not a shard: merge only the shards of one run") }
                return
            }
            let shard = try Shard(parsing: text)
            if let count, count != shard.count { throw ValidationErrorText("\(file) is shard \(shard), but another file is a shard of \(count)") }
            count = shard.count
            if let other = indices[shard.index] { throw ValidationErrorText("\(file) and \(other) are both shard \(shard)") }
            indices[shard.index] = file
        }
        if let count {
            let missing = (1...count).filter { indices[$0] == nil }
            if !missing.isEmpty {
                throw ValidationErrorText("missing shard\(missing.count == 1 ? "" : "s") \(missing.map { "\($0)/\(count)" }.joined(separator: ", ")): give the results of every shard")
            }
        }
    }
}
