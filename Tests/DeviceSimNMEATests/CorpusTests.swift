import DeviceSimNMEA
import Foundation
import Testing

@Suite struct CorpusTests {
    @Test func theFixturesArePresent() {
        #expect(CorpusComparison.logs.count == 111)
    }

    /// Our decoder against gpsd's regression output on all 111 captures.
    @Test func atLeast99PercentOfGpsdPositionReportsAgree() throws {
        var totals: [CorpusComparison.Outcome: Int] = [:]
        var perLog: [String: [CorpusComparison.Outcome: Int]] = [:]
        for log in CorpusComparison.logs {
            let counts = try CorpusComparison.compare(log: log)
            perLog[log.lastPathComponent] = counts
            for (outcome, count) in counts { totals[outcome, default: 0] += count }
        }
        let total = totals.values.reduce(0, +) - (totals[.fromBinaryProtocol] ?? 0)
        let agree = (totals[.agree] ?? 0) + (totals[.agreeButGpsdDerivedMotion] ?? 0) + (totals[.agreeButWeekRollover] ?? 0)
        let summary = CorpusComparison.Outcome.allCases.map { "\($0.rawValue): \(totals[$0] ?? 0)" }.joined(separator: ", ")
        let worst = perLog.map { ($0.key, $0.value.filter { !$0.key.rawValue.hasPrefix("agree") && $0.key != .fromBinaryProtocol }.values.reduce(0, +)) }.filter { $0.1 > 0 }.sorted { $0.1 > $1.1 }.prefix(12)
        print("corpus: \(agree)/\(total) agree; \(summary); worst: \(worst)")
        #expect(totals.values.reduce(0, +) == 6_730, "the .chk files hold 6,730 TPV reports with a position")
        #expect(total > 6_400)
        #expect(Double(agree) / Double(total) >= 0.99, "\(summary); worst logs: \(worst)")
    }
}
