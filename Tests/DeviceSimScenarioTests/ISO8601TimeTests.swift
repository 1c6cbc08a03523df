import DeviceSim
@testable import DeviceSimScenario
import DeviceSimTime
import Foundation
import Testing

/// A scenario's `start-time` reads as `ISO8601DateFormatter` reads it, whatever the path taken.
@Suite struct ISO8601TimeTests {
    init() throws { try ScenarioAppRegistry.register(BundledApps.all) }

    @Test func theUsualFormIsReadDirectlyAsTheFormatterReadsIt() {
        var random = SeededRandomGenerator(seed: 8601)
        func pick(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(random.next() % UInt64(range.count)) }
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let formatter = ISO8601DateFormatter()
        for round in 0..<3_000 {
            let year = round % 10 == 0 ? [1900, 1970, 2000, 2024, 2100, 9999][round / 10 % 6] : pick(1900...2200)
            let month = pick(1...12), day = pick(1...31), hour = pick(0...23), minute = pick(0...59), second = pick(0...59)
            let offset: String
            switch round % 4 {
            case 0: offset = "Z"
            case 1: offset = (round % 8 == 1 ? "+" : "-") + two(pick(0...14)) + ":" + two([0, 30, 45][pick(0...2)])
            case 2: offset = "+" + two(pick(0...14)) + two([0, 30][pick(0...1)])
            default: offset = "-00:00"
            }
            let text = "\(year)-\(two(month))-\(two(day))T\(two(hour)):\(two(minute)):\(two(second))\(offset)"
            let expected = formatter.date(from: text)
            #expect(ISO8601Time.date(from: text) == expected, "\(text)")
            // Days past the end of the month are left to the formatter (which moves them on).
            if expected != nil, day <= 28 { #expect(ISO8601Time.secondsSince1970(usualForm: text) != nil, "\(text)") }
        }
    }

    @Test func everyOtherFormIsTheFormattersReading() {
        let formatter = ISO8601DateFormatter()
        for text in [
            "2026-05-01T08:00:00", "2026-05-01 08:00:00Z", "2026-05-01T08:00Z", "2026-05-01T08:00:00.5Z", "2026-5-1T8:0:0Z",
            "2026-05-01t08:00:00z", " 2026-05-01T08:00:00Z", "2026-13-01T08:00:00Z", "2026-02-30T08:00:00Z", "2026-02-29T08:00:00Z",
            "2024-02-29T08:00:00Z", "2026-05-01T24:00:00Z", "2026-05-01T08:00:60Z", "20260501T080000Z", "2026-05-01T08:00:00GMT",
            "1582-10-10T00:00:00Z", "0001-01-01T00:00:00Z", "2026-05-01T08:00:00+2:00", "2026-05-01T08:00:00+02:0", "2026-05-01T08:00:00+24:00",
            "2026-05-01T08:00:00Z ", "", "now", "２０２６-05-01T08:00:00Z",
        ] {
            #expect(ISO8601Time.date(from: text) == formatter.date(from: text), "'\(text)'")
        }
        #expect(ISO8601Time.date(from: "2026-05-01T08:00:00+02:00") == Date(timeIntervalSince1970: 1_777_615_200))
    }
}
