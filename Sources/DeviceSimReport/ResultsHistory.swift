import DeviceSimScenario

/// How each scenario came out across earlier runs (their results files), for a report's history
/// table: per run, passed (every seed passed), failed (every seed failed), flaky (some seeds
/// failed), invalid, or absent (the run did not have it).
///
/// ```swift
/// let history = ResultsHistory(runs: [
///     .init(label: "monday/results.jsonl", records: monday),
///     .init(label: "tuesday/results.jsonl", records: tuesday),
/// ])
/// history.outcomes(of: "dog-walk/tunnel.yaml")   // [.passed, .flaky]
/// ```
public struct ResultsHistory: Sendable {
    /// One earlier run: what to call it and its records.
    public struct Run: Sendable {
        public var label: String
        public var records: [RunRecord]

        public init(label: String, records: [RunRecord]) {
            self.label = label
            self.records = records
        }
    }

    /// How a scenario came out in one run.
    public enum Outcome: String, Sendable, Hashable {
        case passed, failed, flaky, invalid
    }

    /// The runs, oldest first (the order given).
    public var runs: [Run]

    public init(runs: [Run]) {
        self.runs = runs
    }

    /// Every scenario name any run has, in the order first seen.
    public var scenarioNames: [String] {
        var seen = Set<String>()
        return runs.flatMap { $0.records.map(\.name) }.filter { seen.insert($0).inserted }
    }

    /// How `name` came out in each run (nil: the run did not have it).
    public func outcomes(of name: String) -> [Outcome?] {
        runs.map { run in
            let records = run.records.filter { $0.name == name }
            guard !records.isEmpty else { return nil }
            if records.contains(where: { $0.invalid != nil }) { return .invalid }
            let failed = records.filter { !$0.passed }.count
            return failed == 0 ? .passed : failed == records.count ? .failed : .flaky
        }
    }

    /// Across the runs: `passing` (passed in every run it was in), `failing` (failed in every one),
    /// or `unstable` (anything else).
    public func verdict(of name: String) -> String {
        let known = outcomes(of: name).compactMap { $0 }
        if known.allSatisfy({ $0 == .passed }) { return "passing" }
        if known.allSatisfy({ $0 == .failed || $0 == .invalid }) { return "failing" }
        return "unstable"
    }

    /// The history as the report's script draws it: unstable and failing scenarios first.
    func json() -> String {
        var out = ReportJSON()
        out.raw("{")
        out.key("runs", first: true); out.array(runs) { $0.string($1.label) }
        let rank = ["unstable": 0, "failing": 1, "passing": 2]
        let names = scenarioNames.enumerated().sorted { (rank[verdict(of: $0.element)]!, $0.offset) < (rank[verdict(of: $1.element)]!, $1.offset) }.map(\.element)
        out.key("scenarios")
        out.array(names) { out, name in
            out.raw("{\"name\":"); out.string(name)
            out.raw(",\"verdict\":"); out.string(verdict(of: name))
            out.raw(",\"cells\":")
            out.array(zip(runs, outcomes(of: name))) { out, pair in
                let (run, outcome) = pair
                let records = run.records.filter { $0.name == name }
                let failedSeeds = records.filter { !$0.passed && $0.invalid == nil }.compactMap(\.seed)
                out.raw("["); out.optionalString(outcome?.rawValue)
                out.raw(",\(records.count),\(records.filter { !$0.passed }.count),")
                out.string(HTMLReport.seedRanges(failedSeeds)); out.raw("]")
            }
            out.raw("}")
        }
        out.raw("}")
        return out.text
    }
}
