import DeviceSimTime

/// AltBeacon's `RunningAverageRssiFilter`: the mean of the samples of the last 20 seconds, with 10% of
/// them trimmed at each end.
///
/// Adding a sample only appends it; samples that left the window are dropped in bulk from time to time
/// (the oldest samples are not looked at on every add, so a ranging driver that adds samples every
/// cycle touches only the newest end of its buffer). The window is sorted when ``average`` is read:
/// a driver reads it only when someone asks for a report, so the sort is paid per report, not per
/// sample.
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
    /// The samples in time order; a prefix of them may have left the window (see ``firstInWindow``).
    private var samples: [(time: VirtualInstant, rssi: Double)] = []
    /// When the buffer is next cleared of samples that left the window.
    private var compactAt = 64

    /// Creates an empty filter (20 s, 10%).
    public init(window: Duration = .seconds(20), trim: Double = 0.1) {
        self.window = window
        self.trim = trim
    }

    /// Adds a sample (times never go back) and forgets those older than the window.
    public mutating func add(_ rssi: Double, at time: VirtualInstant) {
        samples.append((time, rssi))
        if samples.count >= compactAt {
            samples.removeFirst(firstInWindow)
            compactAt = max(64, 2 * samples.count)
        }
    }

    /// The index of the first sample within the window of the newest one (those before it are
    /// forgotten): samples are in time order, so a binary search.
    private var firstInWindow: Int {
        guard let newest = samples.last?.time else { return 0 }
        var low = 0, high = samples.count - 1
        while low < high {
            let middle = (low + high) / 2
            if samples[middle].time.duration(to: newest) >= window { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// When the newest sample was taken (nil when empty).
    public var newestSampleTime: VirtualInstant? { samples.last?.time }

    /// The trimmed mean (nil when empty): the window sorted, `trim` of it cut at each end, the rest
    /// summed in ascending order.
    public var average: Double? {
        var window = samples[firstInWindow...].map(\.rssi)
        return Self.trimmedMean(of: &window, trim: trim)
    }

    /// The mean of `values` with `trim` of them cut at each end once sorted, summed in ascending
    /// order (nil when empty); `values` is left sorted.
    static func trimmedMean(of values: inout [Double], trim: Double) -> Double? {
        guard !values.isEmpty else { return nil }
        values.sort()
        let cut = Int(Double(values.count) * trim)
        let kept = values[cut..<(values.count - cut)]
        return kept.reduce(0, +) / Double(kept.count)
    }
}
