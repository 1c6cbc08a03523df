import DeviceSimTime

/// AltBeacon's `RunningAverageRssiFilter`: the mean of the samples of the last 20 seconds, with 10% of
/// them trimmed at each end.
///
/// Adding a sample only appends it (and drops those that left the window); the window is sorted when
/// ``average`` is read. A ranging driver adds samples every cycle but reads the average only when
/// someone asks for a report, so the sort is paid per report, not per sample.
///
/// ```swift
/// var filter = RunningAverageRSSIFilter()
/// filter.add(-71, at: now)
/// filter.add(-65, at: now)
/// filter.average // -68
/// ```
public struct RunningAverageRSSIFilter: Sendable {
    /// How far back samples count.
    public var window: Duration
    /// The share trimmed at each end.
    public var trim: Double
    /// The samples in time order; those before `head` have left the window (dropped in bulk, so
    /// forgetting one sample costs no move of the others).
    private var samples: [(time: VirtualInstant, rssi: Double)] = []
    private var head = 0

    /// Creates an empty filter (20 s, 10%).
    public init(window: Duration = .seconds(20), trim: Double = 0.1) {
        self.window = window
        self.trim = trim
    }

    /// Adds a sample and forgets those older than the window.
    public mutating func add(_ rssi: Double, at time: VirtualInstant) {
        samples.append((time, rssi))
        while head < samples.count, samples[head].time.duration(to: time) >= window { head += 1 }
        if head >= 64, head * 2 >= samples.count {
            samples.removeFirst(head)
            head = 0
        }
    }

    /// When the newest sample was taken (nil when empty).
    public var newestSampleTime: VirtualInstant? { head < samples.count ? samples.last?.time : nil }

    /// The trimmed mean (nil when empty): the window sorted, `trim` of it cut at each end, the rest
    /// summed in ascending order.
    public var average: Double? {
        guard head < samples.count else { return nil }
        let sorted = samples[head...].map(\.rssi).sorted()
        let cut = Int(Double(sorted.count) * trim)
        let kept = sorted[cut..<(sorted.count - cut)]
        return kept.reduce(0, +) / Double(kept.count)
    }
}
