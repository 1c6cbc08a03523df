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
    private var samples: [(time: VirtualInstant, rssi: Double)] = []

    /// Creates an empty filter (20 s, 10%).
    public init(window: Duration = .seconds(20), trim: Double = 0.1) {
        self.window = window
        self.trim = trim
    }

    /// Adds a sample and forgets those older than the window.
    public mutating func add(_ rssi: Double, at time: VirtualInstant) {
        samples.append((time, rssi))
        let oldest = samples.firstIndex { $0.time.duration(to: time) < window } ?? samples.count
        if oldest > 0 { samples.removeFirst(oldest) }
    }

    /// When the newest sample was taken (nil when empty).
    public var newestSampleTime: VirtualInstant? { samples.last?.time }

    /// The trimmed mean (nil when empty).
    public var average: Double? {
        guard !samples.isEmpty else { return nil }
        let sorted = samples.map(\.rssi).sorted()
        let cut = Int(Double(sorted.count) * trim)
        let kept = sorted[cut..<(sorted.count - cut)]
        return kept.reduce(0, +) / Double(kept.count)
    }
}
