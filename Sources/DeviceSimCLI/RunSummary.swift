import ArgumentParser
import DeviceSimScenario
import DeviceSimSimulated
import Foundation

/// What `run` and `merge` print: a line per scenario, its failed expectations, the final count and,
/// for a seed sweep, the command that reproduces each failing seed.
struct RunSummary {
    let records: [RunRecord]
    let wallSeconds: Double
    /// The number of runs planned, when Ctrl-C stopped the run before all of them ran.
    var interruptedOf: Int? = nil

    /// One scenario's line and its failures (every expectation when `outcomes` is given). Text from
    /// the scenario file or a results file has its control characters escaped: a title must not
    /// retitle or clear the terminal.
    static func report(_ record: RunRecord, style: Style, outcomes: [ExpectationOutcome]? = nil) {
        let out = Terminal.standardOutput
        let safe = MessageText.escapingControls
        let timing = style.dim("(\(Plural.count(record.expectations, "expectation")), \(DurationText.format(.seconds(record.virtualSeconds))) virtual, \(String(format: "%.3f", record.wallSeconds)) s)")
        let mark = record.passed ? style.green("PASS") : style.red("FAIL")
        out.write("\(mark)  \(safe(record.name)) — \(safe(record.displayTitle)) \(timing)\n")
        if let runError = record.runError {
            out.write("      \(style.red("✗")) \(safe(runError))\n")
        }
        if let outcomes {
            for outcome in outcomes {
                let mark = outcome.passed ? style.green("✓") : style.red("✗")
                out.write("      \(mark) expected \(safe(outcome.expected)); observed \(safe(outcome.observed))\n")
                if !outcome.passed { out.write("        \(style.dim("at \(safe(outcome.location.description))"))\n") }
            }
            return
        }
        for failure in record.failures {
            out.write("      \(style.red("✗")) expected \(safe(failure.expected)); observed \(safe(failure.observed))\n")
            out.write("        \(style.dim("at \(safe(failure.location))"))\n")
        }
    }

    /// Prints the final count (and the failing seeds of a sweep); returns the exit status:
    /// 0 all passed, 1 a scenario failed, 2 an invalid file.
    func print(style: Style) -> Int32 {
        let out = Terminal.standardOutput
        let ran = records.filter { $0.invalid == nil }
        let invalid = records.count - ran.count
        let failed = ran.filter { !$0.passed }
        let virtual = ran.reduce(0) { $0 + $1.virtualSeconds }
        let swept = ran.contains { $0.swept }
        let noun = swept ? "run" : "scenario"
        var summary = "\(ran.count) \(noun)\(ran.count == 1 ? "" : "s"): \(ran.count - failed.count) passed, \(failed.count) failed"
        if invalid > 0 { summary += ", \(invalid) invalid" }
        summary += style.dim(" (\(DurationText.format(.seconds(virtual))) of virtual time in \(String(format: "%.2f", wallSeconds)) s)")
        out.write((failed.isEmpty && invalid == 0 ? style.green(summary) : style.red(summary)) + "\n")
        if let interruptedOf {
            out.write(style.yellow("interrupted") + ": \(RunProgress.grouped(records.count)) of \(RunProgress.grouped(interruptedOf)) \(noun)s finished before Ctrl-C; the rest did not run\n")
        }
        if swept, !failed.isEmpty {
            let seeds = Set(failed.compactMap(\.seed)).sorted()
            out.write("failing seeds: \(seeds.map(String.init).joined(separator: ", "))\n")
            for record in failed {
                out.write("  \(MessageText.escapingControls(record.reproduceCommand))\n")
            }
        }
        if invalid > 0 { return 2 }
        return failed.isEmpty ? 0 : 1
    }
}

/// The first line of a results file: which shard of how large a run it holds, and what identifies
/// that run (its seeds and its scenario files), so that `merge` and `report` refuse shards of
/// different runs of the same size.
struct ResultsHeader: Codable, Hashable {
    /// The format, `devicesim-results/1`.
    static let currentFormat = "devicesim-results/1"
    var format = currentFormat
    /// `INDEX/COUNT`, or nil for a whole run.
    var shard: String?
    /// How many (scenario, seed) pairs the whole run has.
    var planSize: Int
    /// The seeds of a `--seeds` sweep in the order they ran, as ranges (`1-5`, `3,17,42`); nil
    /// without a sweep.
    var seeds: String? = nil
    /// `--seed N`, when it replaced every scenario's own seed.
    var seed: UInt64? = nil
    /// The run's scenario files: their count and a digest of their names in run order
    /// (`192 files, fnv1a 3f0c9d2e61b7a845`); nil in files written before devicesim recorded it.
    var scenarios: String? = nil

    /// The header of a run of the scenario files named `names` (relative to the folders searched,
    /// in run order), under the seeds of `sweep` or `seed`.
    init(shard: String?, planSize: Int, scenarioNames: [String], sweep: [UInt64]?, seed: UInt64?) {
        self.shard = shard
        self.planSize = planSize
        self.seeds = sweep.map(Self.ranges)
        self.seed = seed
        self.scenarios = Self.scenariosIdentity(scenarioNames)
    }

    /// The header of the merge of shards that share `header`'s run: a whole run.
    init(mergingShardsOf header: ResultsHeader) {
        self = header
        shard = nil
    }

    /// `names`' count and their FNV-1a 64 digest (the same on every machine).
    static func scenariosIdentity(_ names: [String]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in names.joined(separator: "\n").utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return "\(names.count) file\(names.count == 1 ? "" : "s"), fnv1a \(String(repeating: "0", count: 16 - hex.count) + hex)"
    }

    /// Seeds in their order, runs of consecutive ones as ranges: `1-5`, `3,17,42`, `6-10,1-5`.
    static func ranges(_ seeds: [UInt64]) -> String {
        var parts: [String] = []
        var index = 0
        while index < seeds.count {
            var last = index
            while last + 1 < seeds.count, seeds[last] < UInt64.max, seeds[last + 1] == seeds[last] + 1 { last += 1 }
            parts.append(last == index ? "\(seeds[index])" : "\(seeds[index])-\(seeds[last])")
            index = last + 1
        }
        return parts.joined(separator: ",")
    }

    /// How the run this header comes from differs from `other`'s, in words (nil: the same run, as
    /// far as the headers say). The shards' count is compared where the shards are.
    func runDifference(from other: ResultsHeader) -> String? {
        var differences: [String] = []
        if planSize != other.planSize { differences.append("\(planSize) and \(other.planSize) runs") }
        if seeds != other.seeds { differences.append("\(seeds.map { "--seeds \($0)" } ?? "without --seeds") and \(other.seeds.map { "--seeds \($0)" } ?? "without --seeds")") }
        if seed != other.seed { differences.append("\(seed.map { "--seed \($0)" } ?? "the scenarios' own seeds") and \(other.seed.map { "--seed \($0)" } ?? "the scenarios' own seeds")") }
        if scenarios != other.scenarios {
            differences.append("scenario files \(scenarios ?? "not recorded (an older devicesim)") and \(other.scenarios ?? "not recorded (an older devicesim)")")
        }
        return differences.isEmpty ? nil : differences.joined(separator: "; ")
    }

    /// Refuses `files` (each a path with its header) that do not all come from one run, naming the
    /// first two that differ and how; `what` says what the files were to be used for.
    static func checkOneRun(_ files: [(path: String, header: ResultsHeader)], for what: String) throws {
        guard let first = files.first else { return }
        for file in files.dropFirst() {
            if let difference = first.header.runDifference(from: file.header) {
                throw ValidationErrorText("\(first.path) and \(file.path) come from different runs (\(difference)): \(what)")
            }
        }
    }
}

/// Results files: a ``ResultsHeader`` line, then one ``RunRecord`` a line, as JSON with sorted keys.
enum RunRecordCoding {
    static func line(_ record: RunRecord) throws -> String {
        String(decoding: try encoder.encode(record), as: UTF8.self) + "\n"
    }

    static func header(_ header: ResultsHeader) throws -> String {
        String(decoding: try encoder.encode(header), as: UTF8.self) + "\n"
    }

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// The largest plan a results file may describe (a million seeds over ten thousand files).
    static let maximumPlanSize = 10_000_000_000
    /// The largest results file read (`merge`, `report`): 32 MiB, about 190,000 runs of the smallest
    /// record (175 bytes). Merging 128 MiB took 16.7 s of CPU (`Benchmarks/limits/validate-at-limits.py
    /// results`); 32 MiB about a quarter of that.
    static let maximumFileSize = 32 << 20
    /// The longest wall time a record may claim, in seconds (about 31 years).
    static let maximumWallSeconds = 1e9

    /// What a results file holds.
    struct Contents {
        var header: ResultsHeader
        var records: [RunRecord]
        /// Set when the file's last line is cut short (a job killed while writing it): where, and
        /// what was read up to there is in ``records``.
        var cutShort: String?
    }

    /// The header and every record of a results file; errors name the file and line. A last line
    /// cut short is an error too, unless `acceptingCutShort`: then it is left out and said in
    /// ``Contents/cutShort``.
    static func read(_ path: String, acceptingCutShort: Bool = false) throws -> Contents {
        if let refusal = InputFile.refusal(atPath: path) { throw ValidationErrorText("cannot read \(path): \(refusal)") }
        // A file over the limit is refused by its size, unread; FileBytes reads at most one byte past
        // the limit in any case (a file that grows meanwhile).
        let tooLarge = "\(path) is larger than the \(maximumFileSize >> 20) MiB (\(maximumFileSize) bytes) a results file may be: run fewer seeds or scenarios per shard"
        if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int, size > maximumFileSize {
            throw ValidationErrorText(tooLarge)
        }
        guard let bytes = FileBytes.contents(atPath: path, limit: maximumFileSize) else {
            throw ValidationErrorText("cannot read \(path): no such file, a folder, or not readable")
        }
        guard bytes.count <= maximumFileSize else { throw ValidationErrorText(tooLarge) }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            // Foundation's own message ("The file isn't in the correct format") names no line and no fix.
            let line = (bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
                .firstIndex { String(validating: $0, as: UTF8.self) == nil } ?? 0) + 1
            throw ValidationErrorText("\(path):\(line): not UTF-8 text, so not a devicesim results file (write one with 'devicesim run --results FILE')")
        }
        let decoder = JSONDecoder()
        var records: [RunRecord] = []
        // LF or CRLF line ends (CRLF is one Character in a Swift String, not a "\n").
        let lines = text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r\n" })
        guard let first = lines.first, let header = try? decoder.decode(ResultsHeader.self, from: Data(first.utf8)),
              header.format == ResultsHeader.currentFormat else {
            throw ValidationErrorText("\(path):1: not a devicesim results file (write one with 'devicesim run --results FILE')")
        }
        guard (0...maximumPlanSize).contains(header.planSize) else {
            throw ValidationErrorText("\(path):1: planSize \(header.planSize) is outside 0...\(maximumPlanSize)")
        }
        let endsInNewline = text.last.map { $0 == "\n" || $0 == "\r\n" } ?? false
        for (number, line) in lines.enumerated().dropFirst() {
            let record: RunRecord
            do {
                record = try decoder.decode(RunRecord.self, from: Data(line.utf8))
            } catch {
                if number == lines.count - 1, !endsInNewline {
                    let message = "\(path):\(number + 1): the results file ends in the middle of a line: it was cut short (a job killed while writing it?)"
                    guard acceptingCutShort else { throw ValidationErrorText(message + "; its runs are missing") }
                    return Contents(header: header, records: records, cutShort: message)
                }
                throw ValidationErrorText("\(path):\(number + 1): not a devicesim results line (write results with 'devicesim run --results FILE')")
            }
            if let problem = problem(with: record, planSize: header.planSize) { throw ValidationErrorText("\(path):\(number + 1): \(problem)") }
            records.append(record)
        }
        return Contents(header: header, records: records, cutShort: nil)
    }

    /// What is out of range in `record`, if anything.
    static func problem(with record: RunRecord, planSize: Int) -> String? {
        let longest = ScenarioParser.maximumDuration.inSeconds
        if !(0..<planSize).contains(record.position) { return "position \(record.position) is outside the plan of \(planSize) runs (0...\(planSize - 1))" }
        if !(record.virtualSeconds >= 0 && record.virtualSeconds <= longest) {
            return "virtualSeconds \(record.virtualSeconds) is outside 0...\(Int(longest)) (a scenario runs at most \(DurationText.format(ScenarioParser.maximumDuration)))"
        }
        if !(record.wallSeconds >= 0 && record.wallSeconds <= maximumWallSeconds) { return "wallSeconds \(record.wallSeconds) is outside 0...1e9" }
        if record.expectations < 0 { return "expectations \(record.expectations) is negative" }
        return nil
    }
}

/// An error whose text is the whole message.
struct ValidationErrorText: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A file written line by line as results arrive (created, or emptied, when opened). A file that
/// cannot be written stops the command with exit status 1, naming the path and the reason; one that
/// cannot be opened, with `openFailureStatus` (2 for an output opened before the run starts).
final class OutputFile {
    private let file: WritableFile
    let path: String

    init(path: String, openFailureStatus: Int32 = 1) throws {
        self.path = path
        do {
            file = try WritableFile(path: path)
        } catch {
            Terminal.standardError.write("error: \(error)\n")
            throw ExitCode(openFailureStatus)
        }
    }

    func append(_ text: String) throws {
        do { try file.write(text) } catch { throw Self.exit(error) }
    }

    func close() throws {
        do { try file.close() } catch { throw Self.exit(error) }
    }

    /// Writes `text` as the whole file at `path` (atomically for a regular file), or stops with exit status 1.
    static func replace(_ path: String, with text: String) throws {
        do { try WritableFile.replace(path, with: text) } catch { throw exit(error) }
    }

    /// Says that `error` happened; the exit status of a write that failed.
    static func exit(_ error: WriteError) -> ExitCode {
        Terminal.standardError.write("error: \(error)\n")
        return ExitCode(1)
    }
}
