import DeviceSimHAL
import Foundation

/// A self-contained HTML report of a run: a summary, then per scenario (failed ones first) its failed
/// expectations, a map of every device's track with the world's hotspots, access points and beacons and
/// the events where they happened, a timeline with a lane per device, a time slider that moves both,
/// and the table of every event. One file, with its styles, script and data inline: it opens from
/// disk and never touches the network.
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
    private var rows: [(failed: Bool, json: String, section: String?)] = []
    private var virtualMilliseconds = 0
    private var counts = (passed: 0, failed: 0, invalid: 0, unknown: 0)

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
        let reproduce = record?.reproduceCommand ?? section.scenario.map { "devicesim run \(ShellQuoting.quote($0.file))" }
        let json = section.json(limits: limits, reproduceCommand: reproduce)
        detailedCount += 1
        let status = record?.invalid != nil ? "invalid" : section.passed.map { $0 ? "passed" : "failed" } ?? "unknown"
        addRow(name: section.name, title: section.title, seed: record?.seed ?? section.scenario?.seed, status: status,
               expectations: section.expectationCount, failures: section.failures.map { ($0.location, $0.expected, $0.observed) },
               virtual: Int(section.end.nanoseconds / 1_000_000), wall: record?.wallSeconds, reproduce: reproduce,
               problem: [record?.invalid ?? record?.runError, traceProblem].compactMap { $0 }.joined(separator: " ").nilIfEmpty, section: json)
    }

    /// Adds a scenario as a row of the summary only (an invalid file, or past ``ReportLimits/detailedScenarios``).
    public mutating func addSummary(of record: RunRecord) {
        let status = record.invalid != nil ? "invalid" : record.passed ? "passed" : "failed"
        addRow(name: record.name, title: record.displayTitle, seed: record.seed, status: status, expectations: record.expectations,
               failures: record.failures.map { ($0.location, $0.expected, $0.observed) }, virtual: Int((record.virtualSeconds * 1000).rounded()),
               wall: record.wallSeconds, reproduce: record.invalid == nil ? record.reproduceCommand : nil,
               problem: record.invalid ?? record.runError, section: nil)
    }

    private mutating func addRow(
        name: String, title: String, seed: UInt64?, status: String, expectations: Int, failures: [(String, String, String)],
        virtual: Int, wall: Double?, reproduce: String?, problem: String?, section: String?
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
        out.key("wall"); out.optionalString(wall.map { TraceValue.format(($0 * 1000).rounded() / 1000) })
        out.key("reproduce"); out.optionalString(reproduce)
        out.key("problem"); out.optionalString(problem)
        out.raw("}")
        rows.append((status == "failed" || status == "invalid", out.text, section))
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
        out.key("wall"); out.optionalString(wallSeconds.map { TraceValue.format(($0 * 100).rounded() / 100) })
        out.key("detailedLimit"); out.int(limits.detailedScenarios)
        out.key("rows")
        out.array(ordered) { out, row in
            var json = row.json
            json.removeLast()
            out.raw(json)
            out.raw(",\"section\":\(row.section == nil ? -1 : sectionNumber)}")
            if row.section != nil { sectionNumber += 1 }
        }
        out.key("sections")
        out.array(ordered.compactMap(\.section)) { out, section in out.raw(section) }
        out.raw("}")
        return HTMLReportPage.page(title: title, data: out.text)
    }
}

extension String {
    /// The text, or nil when it is empty.
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
