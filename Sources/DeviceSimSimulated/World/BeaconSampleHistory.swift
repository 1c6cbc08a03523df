import DeviceSimTime
import Foundation

/// The RSSI samples a ranging driver takes of one beacon, kept as the cycles that drew them rather
/// than as the samples themselves.
///
/// Each cycle draws `samplesPerCycle` Gaussian samples around the beacon's mean RSSI from the
/// beacon's own random stream; a sample at or above the sensitivity is heard. What a cycle needs at
/// once is only whether the beacon was heard, and that is nearly always clear from the two uniform
/// draws behind each sample without the logarithm and cosine of Box–Muller (see
/// ``BeaconSampleModel/isHeard(meanRSSI:_:_:)``). The values are needed only for the smoothed RSSI
/// of a report, which is read far less often than a cycle runs: the history keeps, for the cycles
/// of the smoothing window, their instant, mean RSSI and the stream's state before them, and draws
/// the window's samples again, bit for bit, when a report asks.
///
/// A cycle thus touches a few words instead of appending `samplesPerCycle` samples, and a device
/// keeps a few hundred bytes per beacon instead of kilobytes.
///
/// ```swift
/// var history = BeaconSampleHistory(stream: random.split("beacon"))
/// let heard = history.sampleCycle(meanRSSI: -75, at: now, model: model)
/// history.smoothedRSSI(at: now, model: model) // the trimmed mean of the window's heard samples
/// ```
struct BeaconSampleHistory {
    /// A cycle in which the beacon was in reach: when, the mean RSSI there, and the stream's state
    /// before its draws.
    private struct Cycle {
        let instant: Int64
        let meanRSSI: Double
        let stream: SeededRandomGenerator?
    }

    /// The stream the next cycle draws from (nil without shadowing: every sample is the mean).
    private var stream: SeededRandomGenerator?
    /// The cycles drawn since the history was last cleared, oldest first. Cycles that have left
    /// the window are dropped in bulk, once the oldest kept is a quarter window past it (so most
    /// cycles append to the newest end only, without reading the oldest one).
    private var cycles: [Cycle] = []
    /// When the oldest kept cycle ran (kept here, beside the history, so checking it touches
    /// nothing else).
    private var oldestInstant = Int64.max

    /// A history drawing from `stream` (nil without shadowing).
    init(stream: SeededRandomGenerator?) {
        self.stream = stream
    }

    /// Draws one cycle's samples at `now` around `meanRSSI`: returns whether any of them is heard.
    /// Cycles that have left the smoothing window are forgotten now and then.
    mutating func sampleCycle(meanRSSI: Double, at now: Int64, model: BeaconSampleModel) -> Bool {
        if now - oldestInstant >= model.window + model.window / 4 { forgetCycles(before: now, model: model) }
        if cycles.isEmpty { oldestInstant = now }
        cycles.append(Cycle(instant: now, meanRSSI: meanRSSI, stream: stream))
        guard var drawing = stream else { return model.samplesPerCycle > 0 && meanRSSI >= model.sensitivity }
        var isHeard = false
        let threshold = model.magnitudeThreshold(meanRSSI: meanRSSI)
        for _ in 0..<model.samplesPerCycle {
            let (u1, u2) = drawing.nextGaussianUnits()
            if !isHeard { isHeard = model.isHeard(meanRSSI: meanRSSI, u1, u2, magnitudeThreshold: threshold) }
        }
        stream = drawing
        return isHeard
    }

    /// Forgets every sample (Bluetooth switched off): the stream goes on where it is.
    mutating func clear() {
        cycles.removeAll(keepingCapacity: true)
        oldestInstant = .max
    }

    /// The smoothed RSSI at the cycle of `now` (AltBeacon's trimmed running average of the heard
    /// samples within the window, exactly as ``RunningAverageRSSIFilter`` computes it); nil when
    /// none was heard.
    func smoothedRSSI(at now: Int64, model: BeaconSampleModel) -> Double? {
        var heard: [Double] = []
        for cycle in cycles.reversed() {
            guard now - cycle.instant < model.window else { break }
            var drawing = cycle.stream
            for _ in 0..<model.samplesPerCycle {
                var rssi = cycle.meanRSSI
                if drawing != nil {
                    let (u1, u2) = drawing!.nextGaussianUnits()
                    rssi = model.rssi(meanRSSI: cycle.meanRSSI, u1, u2)
                }
                if rssi >= model.sensitivity { heard.append(rssi) }
            }
        }
        return RunningAverageRSSIFilter.trimmedMean(of: &heard, trim: model.trim)
    }

    /// Drops the cycles that have left the window of `now`.
    private mutating func forgetCycles(before now: Int64, model: BeaconSampleModel) {
        let kept = cycles.firstIndex { now - $0.instant < model.window } ?? cycles.count
        cycles.removeFirst(kept)
        oldestInstant = cycles.first?.instant ?? .max
    }
}

/// How a ranging driver samples beacons: shadowing, sensitivity, samples per cycle, the smoothing
/// window and its trim.
struct BeaconSampleModel {
    /// The shadowing's standard deviation in dB (0: none).
    let sigma: Double
    /// The weakest RSSI that is heard.
    let sensitivity: Double
    let samplesPerCycle: Int
    /// The smoothing window in nanoseconds.
    let window: Int64
    /// The share of samples trimmed at each end of the window.
    let trim: Double

    /// A sample's RSSI from its draws: the mean plus the Gaussian shadowing, bit for bit as
    /// `meanRSSI + stream.nextGaussian(mean: 0, standardDeviation: sigma)`.
    @inline(__always)
    func rssi(meanRSSI: Double, _ u1: Double, _ u2: Double) -> Double {
        meanRSSI + SeededRandomGenerator.gaussian(u1, u2, mean: 0, standardDeviation: sigma)
    }

    /// The `u1` above which a sample's shadowing is certainly smaller in size than the gap between
    /// `meanRSSI` and the sensitivity (Box–Muller's magnitude sqrt(-2 ln u1) is then below the gap
    /// by a relative margin of 1e-7, far beyond rounding), so the mean's side of the sensitivity
    /// decides; 2 (never) when the gap is too small for the margin to hold.
    func magnitudeThreshold(meanRSSI: Double) -> Double {
        let gap = abs(meanRSSI - sensitivity) / sigma
        guard gap > 1e-3 else { return 2 }
        let bound = gap * (1 - 1e-7)
        return exp(-0.5 * bound * bound) * (1 + 1e-12)
    }

    /// Whether the sample drawn as `u1`, `u2` is heard, deciding from the draws alone when that is
    /// certain and computing the sample only otherwise.
    @inline(__always)
    func isHeard(meanRSSI: Double, _ u1: Double, _ u2: Double, magnitudeThreshold: Double) -> Bool {
        let above = meanRSSI >= sensitivity
        if u1 > magnitudeThreshold { return above }
        // The cosine's sign: clear of its zeros (at u2 = 1/4 and 3/4) by a wide margin.
        if above, u2 < 0.2499 || u2 > 0.7501 { return true }  // the shadowing adds to a heard mean
        if !above, u2 > 0.2501, u2 < 0.7499 { return false }  // it takes from a mean not heard
        return rssi(meanRSSI: meanRSSI, u1, u2) >= sensitivity
    }
}
