import DeviceSimScenario
import DeviceSimHAL
import Foundation

/// Puts an HTML report together from what a run left behind: its records (from the run itself or a
/// `--results` file), its traces and its scenario files. Traces are read one at a time, so memory
/// holds one scenario's events, not the run's.
///
/// ```swift
/// let inputs = records.map { ReportGenerator.Input(record: $0, tracePath: ScenarioBatch.traceFile(in: "out/traces", name: $0.name, seed: $0.seed, swept: $0.swept)) }
/// let summary = try ReportGenerator.write(inputs, to: "out/report.html", wallSeconds: 6.2)
/// ```
public enum ReportGenerator {
    /// One scenario run to report.
    public struct Input: Sendable {
        /// Its record (nil: only its trace is known).
        public var record: RunRecord?
        /// Its trace file (nil or missing: the report shows the record only).
        public var tracePath: String?
        /// Its scenario file, for the world, the devices' motion and the expectations (nil: the record's path).
        public var scenarioPath: String?
        /// Its name (nil: the record's).
        public var name: String?

        public init(record: RunRecord? = nil, tracePath: String? = nil, scenarioPath: String? = nil, name: String? = nil) {
            self.record = record
            self.tracePath = tracePath
            self.scenarioPath = scenarioPath
            self.name = name
        }
    }

    /// What was written.
    public struct Summary: Sendable, Hashable {
        /// Scenarios in the report.
        public var scenarios: Int
        /// Scenarios with a section of their own.
        public var detailed: Int
        /// The file's size in bytes.
        public var bytes: Int
        /// Problems that left something out (a trace that could not be read, a scenario file that no longer parses).
        public var warnings: [String]
    }

    /// Writes the report of `inputs` to `path`.
    public static func write(
        _ inputs: [Input], to path: String, title: String = "DeviceSim report", wallSeconds: Double?, limits: ReportLimits = ReportLimits(),
        history: ResultsHistory? = nil
    ) throws(ScenarioError) -> Summary {
        var report = HTMLReport(title: title, limits: limits)
        if let history { report.setHistory(history) }
        var warnings: [String] = []
        var scenarios: [String: Scenario?] = [:]
        // Failed runs get their sections first, so the limit never hides a failure behind passes.
        let failing = inputs.indices.filter { inputs[$0].record.map { !$0.passed } ?? false }
        var failuresLeft = failing.count
        let order = failing + inputs.indices.filter { !(inputs[$0].record.map { !$0.passed } ?? false) }
        for index in order {
            let input = inputs[index]
            let knownFailed = input.record.map { !$0.passed } ?? false
            if knownFailed { failuresLeft -= 1 }
            if let record = input.record, record.invalid != nil {
                report.addSummary(of: record)
                continue
            }
            let roomForPasses = report.detailedCount + failuresLeft < limits.detailedScenarios
            let detailed = report.hasRoomForDetail && (knownFailed || roomForPasses || input.record == nil)
            // A record past the limit is its own row; a trace without one is read for its row.
            guard let tracePath = input.tracePath, detailed || input.record == nil else {
                if let record = input.record { report.addSummary(of: record) }
                continue
            }
            let name = input.name ?? input.record?.name ?? WritableFile.folderAndName(of: tracePath).name
            let reading: TraceFileReader.Reading
            do {
                reading = try TraceFileReader.readUpToProblem(path: tracePath)
            } catch {
                warnings.append(error.description)
                if let record = input.record { report.addSummary(of: record) } else { report.addSummary(ofTrace: name, scenario: nil, events: [], traceProblem: error.description) }
                continue
            }
            let events = reading.events
            var traceProblem: String?
            if let cut = reading.cut {
                // A trace readable up to a point (a run killed while writing it) is shown up to there.
                guard !events.isEmpty else {
                    warnings.append(cut.description)
                    if let record = input.record { report.addSummary(of: record) } else { report.addSummary(ofTrace: name, scenario: nil, events: [], traceProblem: cut.description) }
                    continue
                }
                let shown = "\(events.count) event\(events.count == 1 ? "" : "s")"
                warnings.append("\(cut.description); the report shows the \(shown) before that line")
                traceProblem = "The trace is cut at line \(cut.location?.line ?? 0) (\(cut.message)): shown up to there, \(shown)."
            }
            var scenario: Scenario?
            if let scenarioPath = input.scenarioPath ?? input.record?.path {
                if let known = scenarios[scenarioPath] {
                    scenario = known
                } else {
                    do {
                        scenario = try ScenarioParser.parse(contentsOf: scenarioPath)
                    } catch {
                        warnings.append("\(scenarioPath): the map and the expectations' moments are left out: \(error)")
                    }
                    scenarios[scenarioPath] = scenario
                }
            }
            guard detailed else {
                report.addSummary(ofTrace: name, scenario: scenario, events: events, traceProblem: traceProblem)
                continue
            }
            let section = ReportSection(name: name, record: input.record, scenario: scenario, events: events)
            report.add(section, record: input.record, traceProblem: traceProblem)
        }
        for comparison in comparisons(of: inputs, limits: limits, scenarios: &scenarios, warnings: &warnings) { report.add(comparison) }
        let html = report.html(wallSeconds: wallSeconds)
        do {
            try WritableFile.replace(path, with: html)
        } catch {
            throw ScenarioError("cannot write the report \(path): \(error.reason)", at: nil)
        }
        return Summary(scenarios: inputs.count, detailed: report.detailedCount, bytes: html.utf8.count, warnings: warnings)
    }

    /// For each scenario that passed under some seeds and failed under others (at most
    /// ``ReportLimits/flakyComparisons``), its lowest failing seed beside its lowest passing seed,
    /// both traces read again (one scenario's pair at a time).
    private static func comparisons(
        of inputs: [Input], limits: ReportLimits, scenarios: inout [String: Scenario?], warnings: inout [String]
    ) -> [FlakyComparison] {
        var order: [String] = []
        var runs: [String: [(record: RunRecord, trace: String, input: Input)]] = [:]
        for input in inputs {
            guard let record = input.record, record.invalid == nil, let trace = input.tracePath else { continue }
            let name = input.name ?? record.name
            if runs[name] == nil { order.append(name) }
            runs[name, default: []].append((record, trace, input))
        }
        var comparisons: [FlakyComparison] = []
        for name in order where comparisons.count < limits.flakyComparisons {
            let sorted = runs[name]!.sorted { ($0.record.seed ?? 0) < ($1.record.seed ?? 0) }
            guard let failing = sorted.first(where: { !$0.record.passed }), let passing = sorted.first(where: { $0.record.passed }) else { continue }
            let scenarioPath = failing.input.scenarioPath ?? failing.record.path
            let scenario = scenarios[scenarioPath] ?? (try? ScenarioParser.parse(contentsOf: scenarioPath))
            do {
                let pass = try TraceFileReader.readUpToProblem(path: passing.trace).events
                let fail = try TraceFileReader.readUpToProblem(path: failing.trace).events
                comparisons.append(FlakyComparison(
                    passing: ReportSection(name: name, record: passing.record, scenario: scenario, events: pass),
                    failing: ReportSection(name: name, record: failing.record, scenario: scenario, events: fail)
                ))
            } catch {
                warnings.append("\(name): no side-by-side of a passing and a failing seed: \(error.description)")
            }
        }
        return comparisons
    }

    /// The scenario file among `found` that wrote the trace at `tracePath` (`out/traces/dog-walk/tunnel.jsonl`
    /// or `…/tunnel.seed-7.jsonl` comes from the file named `dog-walk/tunnel.yaml`), matching the longest name.
    public static func scenario(forTrace tracePath: String, among found: [ScenarioDiscovery.Found]) -> ScenarioDiscovery.Found? {
        var stem = tracePath
        if stem.hasSuffix(".jsonl") { stem.removeLast(".jsonl".count) }
        if let range = stem.range(of: #"\.seed-[0-9]+$"#, options: .regularExpression) { stem.removeSubrange(range) }
        let candidates = found.filter { file in
            var name = file.relativeName
            for suffix in [".yaml", ".yml"] where name.hasSuffix(suffix) { name.removeLast(suffix.count) }
            return stem == name || stem.hasSuffix("/" + name)
        }
        return candidates.max { $0.relativeName.count < $1.relativeName.count }
    }
}
