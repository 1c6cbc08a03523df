import DeviceSimScenario
import DeviceSimHAL
import DeviceSimTime
import Foundation

/// A self-contained HTML report of a run: a summary (in a seed sweep, one row per scenario with its
/// failing seeds, flaky or always failing), then per scenario (failed ones first) its failed
/// expectations, its steps with their status, a map of every device's track over the world's streets,
/// hotspots, access points and beacons, with the events where they happened, the apps' markers and the
/// places and radii that position expectations checked; a panel of what each app showed at the time
/// chosen, a timeline with a lane per device, a time slider that moves them all, and the table of
/// every event. One file, with its styles, script and data inline: it opens from disk and never
/// touches the network.
///
/// ```swift
/// var report = HTMLReport(title: "nightly run")
/// report.add(section, record: record)
/// try Data(report.html(wallSeconds: 6.2).utf8).write(to: URL(fileURLWithPath: "report.html"))
/// ```
public struct HTMLReport {
    /// The page's heading.
    public var title: String
    /// How much is drawn.
    public var limits: ReportLimits
    private var rows: [(failed: Bool, json: String, section: String?, sweep: SweepRun?, run: String)] = []
    private var comparisons: [FlakyComparison] = []
    private var history: ResultsHistory?
    private var virtualMilliseconds = 0
    private var counts = (passed: 0, failed: 0, invalid: 0, unknown: 0)
    private var streets = ReportStreets()

    /// One run of a seed sweep, for the sweep's table.
    private struct SweepRun {
        var name: String
        var title: String
        var seed: UInt64?
        var status: String
        var failures: [(String, String, String)]
        var reproduce: String?
        var problem: String?
    }

    /// How many scenarios have a section of their own so far.
    public private(set) var detailedCount = 0

    /// An empty report.
    public init(title: String = "DeviceSim report", limits: ReportLimits = ReportLimits()) {
        self.title = title
        self.limits = limits
    }

    /// Whether another scenario would still get a section of its own.
    public var hasRoomForDetail: Bool { detailedCount < limits.detailedScenarios }

    /// Adds a scenario with its own section (map, timeline, events); `traceProblem` says where its
    /// trace was cut, when only part of it could be read.
    public mutating func add(_ section: ReportSection, record: RunRecord?, traceProblem: String? = nil) {
        let seed = record?.seed ?? Self.seed(of: section.events) ?? section.scenario?.seed
        let reproduce = record?.reproduceCommand ?? section.scenario.map { Self.reproduceCommand($0, seed: seed) }
        streets.maximumPoints = limits.streetPoints
        let json = section.json(limits: limits, reproduceCommand: reproduce, streets: &streets)
        detailedCount += 1
        let status = record?.invalid != nil ? "invalid" : section.passed.map { $0 ? "passed" : "failed" } ?? "unknown"
        addRow(name: section.name, title: section.title, seed: seed, status: status,
               expectations: section.expectationCount, failures: section.failures.map { ($0.location, $0.expected, $0.observed) },
               virtual: Int(section.end.nanoseconds / 1_000_000), wall: record?.wallSeconds, reproduce: reproduce,
               problem: [record?.invalid ?? record?.runError, traceProblem].compactMap { $0 }.joined(separator: " ").nilIfEmpty, section: json,
               swept: record?.swept ?? false, baseTitle: record?.title)
    }

    /// Adds a scenario as a row of the summary only (an invalid file, or past ``ReportLimits/detailedScenarios``).
    public mutating func addSummary(of record: RunRecord) {
        let status = record.invalid != nil ? "invalid" : record.passed ? "passed" : "failed"
        addRow(name: record.name, title: record.displayTitle, seed: record.seed, status: status, expectations: record.expectations,
               failures: record.failures.map { ($0.location, $0.expected, $0.observed) }, virtual: Int((record.virtualSeconds * 1000).rounded()),
               wall: record.wallSeconds, reproduce: record.invalid == nil ? record.reproduceCommand : nil,
               problem: record.invalid ?? record.runError, section: nil, swept: record.swept, baseTitle: record.title)
    }

    /// Adds a scenario known only by its trace as a row of the summary (past
    /// ``ReportLimits/detailedScenarios``): its expectations are checked against the trace as a
    /// section's are when its scenario file is known (else its status is unknown); `traceProblem`
    /// says why the trace was read only in part, or not at all (`events` empty).
    public mutating func addSummary(ofTrace name: String, scenario: Scenario?, events: [TraceEvent], traceProblem: String? = nil) {
        var failures: [(String, String, String)] = []
        if let scenario {
            let tally = ExpectationTally(scenario.expectations)
            for event in events { tally.record(event) }
            failures = tally.outcomes.filter { !$0.passed }.map { ($0.location.description, $0.expected, $0.observed) }
        }
        // Without events (an unreadable trace) nothing was checked.
        let status = scenario == nil || events.isEmpty ? "unknown" : failures.isEmpty ? "passed" : "failed"
        var end = scenario.map { VirtualInstant(offset: $0.duration) } ?? events.last?.time ?? .zero
        if let last = events.last?.time, last > end { end = last }
        let seed = Self.seed(of: events) ?? scenario?.seed
        let title = scenario?.name ?? events.first { $0.name == "scenario.started" }?["name"]?.description ?? name
        addRow(name: name, title: title, seed: seed, status: status, expectations: scenario?.expectations.count ?? 0,
               failures: status == "unknown" ? [] : failures, virtual: Int(end.nanoseconds / 1_000_000), wall: nil,
               reproduce: scenario.map { Self.reproduceCommand($0, seed: seed) }, problem: traceProblem, section: nil,
               swept: false, baseTitle: nil)
    }

    /// Adds the side-by-side of a flaky scenario's passing and failing seed (shown above the sections,
    /// linked to the two runs' sections when they have one).
    public mutating func add(_ comparison: FlakyComparison) {
        comparisons.append(comparison)
    }

    /// Sets the history of earlier runs shown per scenario (see ``ResultsHistory``).
    public mutating func setHistory(_ history: ResultsHistory) {
        self.history = history
    }

    private static func runKey(_ name: String, _ seed: UInt64?) -> String { name + "\u{0}" + (seed.map { String($0) } ?? "") }

    /// The seed a trace's run used, as its `scenario.started` event says (nil: it does not say).
    static func seed(of events: [TraceEvent]) -> UInt64? {
        events.first { $0.name == "scenario.started" }?["seed"].flatMap { UInt64($0.description) }
    }

    /// The command that runs `scenario` again under `seed` (a trace's seed may be `--seed`'s, not the file's).
    static func reproduceCommand(_ scenario: Scenario, seed: UInt64?) -> String {
        "devicesim run \(ShellQuoting.quote(scenario.file))" + (seed.map { " --seed \($0)" } ?? "")
    }

    private mutating func addRow(
        name: String, title: String, seed: UInt64?, status: String, expectations: Int, failures: [(String, String, String)],
        virtual: Int, wall: Double?, reproduce: String?, problem: String?, section: String?, swept: Bool, baseTitle: String?
    ) {
        switch status {
        case "passed": counts.passed += 1
        case "failed": counts.failed += 1
        case "invalid": counts.invalid += 1
        default: counts.unknown += 1
        }
        virtualMilliseconds += virtual
        var out = ReportJSON()
        out.raw("{")
        out.key("name", first: true); out.string(name)
        out.key("title"); out.string(title)
        out.key("seed"); out.optionalString(seed.map { String($0) })
        out.key("status"); out.string(status)
        out.key("expectations"); out.int(expectations)
        out.key("failures")
        out.array(failures) { out, failure in
            out.raw("{\"location\":"); out.string(failure.0)
            out.raw(",\"expected\":"); out.string(failure.1)
            out.raw(",\"observed\":"); out.string(failure.2); out.raw("}")
        }
        out.key("virtual"); out.int(virtual)
        out.key("wall"); out.optionalString(wall.map { TraceValue.format(($0 * 1_000_000).rounded() / 1_000_000) })
        out.key("reproduce"); out.optionalString(reproduce)
        out.key("problem"); out.optionalString(problem)
        out.raw("}")
        let sweep = swept ? SweepRun(name: name, title: baseTitle ?? title, seed: seed, status: status, failures: failures, reproduce: reproduce, problem: problem) : nil
        rows.append((status == "failed" || status == "invalid", out.text, section, sweep, Self.runKey(name, seed)))
    }

    /// The page. `wallSeconds` is the whole run's wall time (nil: not known).
    public func html(wallSeconds: Double?) -> String {
        // Failed and invalid scenarios first, each group in run order.
        let ordered = rows.filter(\.failed) + rows.filter { !$0.failed }
        var sectionNumber = 0
        var out = ReportJSON(reservingCapacity: ordered.reduce(4096) { $0 + $1.json.utf8.count + ($1.section?.utf8.count ?? 0) })
        out.raw("{")
        out.key("title", first: true); out.string(title)
        out.key("counts")
        out.raw("{\"passed\":\(counts.passed),\"failed\":\(counts.failed),\"invalid\":\(counts.invalid),\"unknown\":\(counts.unknown)}")
        out.key("virtual"); out.int(virtualMilliseconds)
        out.key("wall"); out.optionalString(wallSeconds.map { TraceValue.format(($0 * 1_000_000).rounded() / 1_000_000) })
        out.key("detailedLimit"); out.int(limits.detailedScenarios)
        // Runs of a sweep are grouped per scenario (below); the others get a row each.
        var sectionNumbers: [Int] = []
        for row in ordered {
            sectionNumbers.append(row.section == nil ? -1 : sectionNumber)
            if row.section != nil { sectionNumber += 1 }
        }
        out.key("rows")
        out.array(zip(ordered, sectionNumbers).filter { $0.0.sweep == nil }) { out, pair in
            var json = pair.0.json
            json.removeLast()
            out.raw(json)
            out.raw(",\"section\":\(pair.1)}")
        }
        out.key("groups")
        out.array(Self.sweepGroups(zip(ordered.map(\.sweep), sectionNumbers).compactMap { run, section in run.map { ($0, section) } })) { out, group in out.raw(group) }
        out.key("sections")
        out.array(ordered.compactMap(\.section)) { out, section in out.raw(section) }
        var sectionOfRun: [String: Int] = [:]
        for (row, number) in zip(ordered, sectionNumbers) where number >= 0 { sectionOfRun[row.run] = sectionOfRun[row.run] ?? number }
        out.key("comparisons")
        out.array(comparisons) { out, comparison in
            out.raw(comparison.json(
                passSection: sectionOfRun[Self.runKey(comparison.passing.name, comparison.passing.record?.seed)] ?? -1,
                failSection: sectionOfRun[Self.runKey(comparison.failing.name, comparison.failing.record?.seed)] ?? -1
            ))
        }
        out.key("history"); out.raw(history?.json() ?? "null")
        out.key("streets"); out.raw(streets.json())
        out.raw("}")
        return HTMLReportPage.page(title: title, data: out.text)
    }

    /// A sweep's runs grouped per scenario, in the order of their first run: failing under every seed
    /// first, then flaky (failing under some), invalid, passing; each with its failing seeds (their
    /// sections, first failures and commands to run them again) and its passing seeds as ranges.
    private static func sweepGroups(_ runs: [(SweepRun, Int)]) -> [String] {
        var order: [String] = []
        var byName: [String: [(SweepRun, Int)]] = [:]
        for run in runs {
            if byName[run.0.name] == nil { order.append(run.0.name) }
            byName[run.0.name, default: []].append(run)
        }
        var groups: [(rank: Int, json: String)] = []
        for name in order {
            let runs = byName[name]!.sorted { ($0.0.seed ?? 0) < ($1.0.seed ?? 0) }
            let failed = runs.filter { $0.0.status == "failed" }
            let invalid = runs.first { $0.0.status == "invalid" }
            let passedSeeds = runs.filter { $0.0.status == "passed" }.compactMap(\.0.seed)
            let status = invalid != nil ? "invalid" : failed.isEmpty ? "passed" : passedSeeds.isEmpty ? "failing" : "flaky"
            var out = ReportJSON()
            out.raw("{")
            out.key("name", first: true); out.string(name)
            out.key("title"); out.string(runs[0].0.title)
            out.key("status"); out.string(status)
            out.key("runs"); out.int(runs.count)
            out.key("passed"); out.int(passedSeeds.count)
            out.key("passedSeeds"); out.string(seedRanges(passedSeeds))
            out.key("problem"); out.optionalString(invalid?.0.problem)
            out.key("failed")
            out.array(failed) { out, pair in
                let (run, section) = pair
                out.raw("{\"seed\":"); out.optionalString(run.seed.map { String($0) })
                out.raw(",\"section\":\(section),\"failures\":\(run.failures.count),\"first\":")
                out.optionalString(run.failures.first.map { "\($0.0): expected \($0.1); observed \($0.2)" } ?? run.problem)
                out.raw(",\"reproduce\":"); out.optionalString(run.reproduce)
                out.raw("}")
            }
            out.raw("}")
            groups.append((["failing": 0, "flaky": 1, "invalid": 2, "passed": 3][status]!, out.text))
        }
        return groups.enumerated().sorted { ($0.element.rank, $0.offset) < ($1.element.rank, $1.offset) }.map(\.element.json)
    }

    /// Seeds as ranges: `1-37, 39-55, 57`.
    static func seedRanges(_ seeds: [UInt64]) -> String {
        var parts: [String] = []
        var index = 0
        let sorted = seeds.sorted()
        while index < sorted.count {
            var last = index
            while last + 1 < sorted.count, sorted[last + 1] == sorted[last] + 1 { last += 1 }
            parts.append(last == index ? "\(sorted[index])" : "\(sorted[index])-\(sorted[last])")
            index = last + 1
        }
        return parts.joined(separator: ", ")
    }
}

extension String {
    /// The text, or nil when it is empty.
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
