import DeviceSimTime

/// AltBeacon's `RunningAverageRssiFilter`: the mean of the samples of the last 20 seconds, with 10% of
/// them trimmed at each end.
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
    /// The RSSI values of `samples`, kept sorted as samples come and go (a binary search and a move
    /// per sample, instead of sorting the whole window for every average).
    private var sortedValues: [Double] = []

    /// Creates an empty filter (20 s, 10%).
    public init(window: Duration = .seconds(20), trim: Double = 0.1) {
        self.window = window
        self.trim = trim
    }

    /// Adds a sample and forgets those older than the window.
    public mutating func add(_ rssi: Double, at time: VirtualInstant) {
        samples.append((time, rssi))
        sortedValues.insert(rssi, at: Self.insertionIndex(of: rssi, in: sortedValues))
        while head < samples.count, samples[head].time.duration(to: time) >= window {
            sortedValues.remove(at: Self.insertionIndex(of: samples[head].rssi, in: sortedValues))
            head += 1
        }
        if head >= 64, head * 2 >= samples.count {
            samples.removeFirst(head)
            head = 0
        }
    }

    /// The first index whose value is not less than `value`.
    private static func insertionIndex(of value: Double, in values: [Double]) -> Int {
        var low = 0, high = values.count
        while low < high {
            let middle = (low + high) / 2
            if values[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// When the newest sample was taken (nil when empty).
    public var newestSampleTime: VirtualInstant? { head < samples.count ? samples.last?.time : nil }

    /// The trimmed mean (nil when empty).
    public var average: Double? {
        guard !sortedValues.isEmpty else { return nil }
        let cut = Int(Double(sortedValues.count) * trim)
        let kept = sortedValues[cut..<(sortedValues.count - cut)]
        return kept.reduce(0, +) / Double(kept.count)
    }
}
