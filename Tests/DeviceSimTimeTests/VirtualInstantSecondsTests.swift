import DeviceSimTime
import Testing

/// `VirtualInstant.seconds(since:)` is `start.duration(to: instant).inSeconds` bit for bit: a device's
/// motion uses it for every position, so a route's points must not move by a rounding.
@Suite struct VirtualInstantSecondsTests {
    @Test func givesTheSameBitsAsTheDurationsSeconds() {
        var random = SeededRandomGenerator(seed: 46)
        var checked: [(Int64, Int64)] = [
            (0, 0), (0, 1), (0, -1), (0, 999_999_999), (0, 1_000_000_000), (0, -1_000_000_001), (5, 2_500_000_005),
            (0, Int64.max), (0, Int64.min), (Int64.min, Int64.max), (1, Int64.min),
        ]
        for _ in 0..<20_000 {
            let start = Int64.random(in: -4_000_000_000_000...4_000_000_000_000, using: &random)
            // Whole seconds, milliseconds and nanoseconds apart, of either sign and up to 46 days.
            let apart = Int64.random(in: -4_000_000_000_000_000...4_000_000_000_000_000, using: &random) / [1, 1_000, 1_000_000, 1_000_000_000].randomElement(using: &random)!
            checked.append((start, start &+ apart))
        }
        for (start, end) in checked {
            let from = VirtualInstant(nanoseconds: start), to = VirtualInstant(nanoseconds: end)
            #expect(to.seconds(since: from).bitPattern == from.duration(to: to).inSeconds.bitPattern, "from \(start) ns to \(end) ns")
        }
    }

    @Test func readsAsSeconds() {
        #expect(VirtualInstant(nanoseconds: 2_500_000_000).seconds(since: .zero) == 2.5)
        #expect(VirtualInstant(offset: .seconds(1)).seconds(since: VirtualInstant(offset: .seconds(4))) == -3)
    }
}
