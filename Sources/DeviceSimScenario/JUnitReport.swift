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
        let failures = results.filter { !$0.passed }.count
        let total = results.count + invalid.count
        let time = seconds.map { $0.reduce(0, +) } ?? 0
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml += "<testsuites name=\(attr(suiteName)) tests=\"\(total)\" failures=\"\(failures)\" errors=\"\(invalid.count)\" time=\"\(format(time))\">\n"
        xml += "  <testsuite name=\(attr(suiteName)) tests=\"\(total)\" failures=\"\(failures)\" errors=\"\(invalid.count)\" time=\"\(format(time))\">\n"
        for (index, result) in results.enumerated() {
            let caseTime = seconds.map { $0[index] } ?? 0
            xml += "    <testcase name=\(attr(result.scenario.name)) classname=\(attr(result.scenario.file)) time=\"\(format(caseTime))\""
            if result.passed {
                xml += "/>\n"
                continue
            }
            xml += ">\n"
            if let runError = result.runError {
                xml += "      <failure message=\(attr(runError)) type=\"runaway\"/>\n"
            }
            for outcome in result.outcomes where !outcome.passed {
                let message = "\(outcome.location): expected \(outcome.expected); observed \(outcome.observed)"
                xml += "      <failure message=\(attr(message)) type=\"expectation\"/>\n"
            }
            xml += "    </testcase>\n"
        }
        for error in invalid {
            xml += "    <testcase name=\(attr(error.location?.file ?? "input")) classname=\"invalid\" time=\"0\">\n"
            xml += "      <error message=\(attr(error.description)) type=\"invalid-input\"/>\n"
            xml += "    </testcase>\n"
        }
        xml += "  </testsuite>\n</testsuites>\n"
        return xml
    }

    private func format(_ seconds: Double) -> String {
        let millis = Int((seconds * 1000).rounded())
        return "\(millis / 1000).\(String(format3: millis % 1000))"
    }

    private func attr(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "\n": out += "&#10;"
            case _ where scalar.value < 0x20 && scalar != "\t": out += "?"
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
