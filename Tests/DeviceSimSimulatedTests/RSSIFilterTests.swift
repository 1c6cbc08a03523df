import DeviceSimSimulated
import DeviceSimTime
import Testing

@Suite struct RSSIFilterTests {
    /// The filter drops samples as they leave the window; its average must be exactly (to the
    /// bit) the trimmed mean of the window's samples sorted afresh.
    @Test(arguments: [1, 2, 3, 99] as [UInt64])
    func theAverageIsExactlyTheTrimmedMeanOfTheWindowSortedAfresh(seed: UInt64) {
        var random = SeededRandomGenerator(seed: seed)
        var filter = RunningAverageRSSIFilter()
        var window: [(time: VirtualInstant, rssi: Double)] = []
        var now = VirtualInstant.zero
        for _ in 0..<3_000 {
            now = now.advanced(by: .milliseconds(Int64.random(in: 0...900, using: &random)))
            let rssi = Double(Int.random(in: -100 ... -40, using: &random)) + [0, 0.5, 0.25].randomElement(using: &random)!
            filter.add(rssi, at: now)
            window.append((now, rssi))
            window.removeAll { $0.time.duration(to: now) >= .seconds(20) }
            let sorted = window.map(\.rssi).sorted()
            let cut = Int(Double(sorted.count) * 0.1)
            let kept = sorted[cut..<(sorted.count - cut)]
            let expected = kept.reduce(0, +) / Double(kept.count)
            #expect(filter.average == expected)
            #expect(filter.newestSampleTime == now)
        }
    }

    @Test func anEmptyFilterHasNoAverage() {
        #expect(RunningAverageRSSIFilter().average == nil)
    }
}
