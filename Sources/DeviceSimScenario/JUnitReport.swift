/// Writes scenario results as JUnit XML, the format CI systems read.
///
/// ```swift
/// let xml = JUnitReport(suiteName: "devicesim").xml(for: results, invalid: errors)
/// ```
public struct JUnitReport: Sendable {
    /// The name of the test suite.
    public var suiteName: String

    /// Creates a report.
    public init(suiteName: String = "devicesim") {
        self.suiteName = suiteName
    }

    /// The XML document for `results`; each invalid file is a test case with an error.
    /// `seconds` gives each result's wall time, when known.
    public func xml(for results: [ScenarioResult], invalid: [ScenarioError] = [], seconds: [Double]? = nil) -> String {
        var records = results.enumerated().map { index, result in
            RunRecord(result, position: index, path: result.scenario.file, name: result.scenario.file, swept: false, wallSeconds: seconds?[index] ?? 0)
        }
        records += invalid.enumerated().map { index, error in
            RunRecord(invalid: error, position: results.count + index, path: error.location?.file ?? "input", name: error.location?.file ?? "input", swept: false)
        }
        return xml(for: records)
    }

    /// The XML document for the records of a run (or of merged shards), in their order: one test case
    /// per (scenario, seed) pair, each failed expectation a `<failure>`, each invalid file an `<error>`.
    public func xml(for records: [RunRecord]) -> String {
        let failures = records.filter { !$0.passed && $0.invalid == nil }.count
        let errors = records.filter { $0.invalid != nil }.count
        let time = records.reduce(0) { $0 + $1.wallSeconds }
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\(attr(suiteName)) tests=\"\(records.count)\" failures=\"\(failures)\" errors=\"\(errors)\" time=\"\(format(time))\">\n"
        xml += "  <testsuite name=\(attr(suiteName)) tests=\"\(records.count)\" failures=\"\(failures)\" errors=\"\(errors)\" time=\"\(format(time))\">\n"
        for record in records.sorted(by: { $0.invalid == nil && $1.invalid != nil || ($0.invalid == nil) == ($1.invalid == nil) && $0.position < $1.position }) {
            if let invalid = record.invalid {
                xml += "    <testcase name=\(attr(record.invalidFile ?? record.path)) classname=\"invalid\" time=\"0\">\n"
                xml += "      <error message=\(attr(invalid)) type=\"invalid-input\"/>\n"
                xml += "    </testcase>\n"
                continue
            }
            xml += "    <testcase name=\(attr(record.displayTitle)) classname=\(attr(record.path)) time=\"\(format(record.wallSeconds))\""
            if record.passed {
                xml += "/>\n"
                continue
            }
            xml += ">\n"
            if let runError = record.runError {
                xml += "      <failure message=\(attr(runError)) type=\"runaway\"/>\n"
            }
            for failure in record.failures {
                let message = "\(failure.location): expected \(failure.expected); observed \(failure.observed)"
                xml += "      <failure message=\(attr(message)) type=\"expectation\"/>\n"
            }
            xml += "    </testcase>\n"
        }
        xml += "  </testsuite>\n</testsuites>\n"
        return xml
    }

    private func format(_ seconds: Double) -> String {
        let millis = seconds.isFinite ? Int((min(max(seconds, 0), 9e12) * 1000).rounded()) : 0
        return "\(millis / 1000).\(String(format3: millis % 1000))"
    }

    /// `text` as a quoted XML attribute value. Characters XML 1.0 does not allow at all (C0 controls
    /// but tab, line feed and carriage return; U+FFFE and U+FFFF) become `?`, so the document stays
    /// well-formed whatever a scenario's title holds.
    private func attr(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\n": out += "&#10;"
            case "\r": out += "&#13;"
            case "\t": out += "&#9;"
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF: out += "?"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

extension String {
    init(format3 value: Int) {
        self = value < 10 ? "00\(value)" : value < 100 ? "0\(value)" : "\(value)"
    }
}
