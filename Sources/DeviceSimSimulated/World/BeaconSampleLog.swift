import DeviceSimTime
import Foundation

/// The RSSI samples a ranging driver takes of the beacons in reach, kept as the cycles that drew
/// them rather than as the samples themselves: one log per device, for all its beacons.
///
/// Each cycle draws `samplesPerCycle` Gaussian samples around a beacon's mean RSSI from the beacon's
/// own random stream; a sample at or above the sensitivity is heard. What a cycle needs at once is
/// only whether the beacon was heard, and that is nearly always clear from the two uniform draws
/// behind each sample without the logarithm and cosine of Box–Muller (see
/// ``BeaconSampleModel/isHeard(meanRSSI:_:_:magnitudeThreshold:)``). The values are needed only for
/// the smoothed RSSI of a report, which is read far less often than a cycle runs: the log keeps, for
/// the cycles of the smoothing window, each beacon's slot, the instant, the mean RSSI and the
/// stream's state before the draws, and draws a beacon's window again, bit for bit, when a report
/// asks.
///
/// A cycle thus appends a record per beacon to one buffer (the device's) instead of appending
/// `samplesPerCycle` samples to each beacon's own buffer: at 10,000 devices, what a cycle costs is
/// the memory it touches.
///
/// ```swift
/// var log = BeaconSampleLog()
/// var stream: SeededRandomGenerator? = random.split("beacon")
/// let heard = log.sampleCycle(slot: 0, stream: &stream, meanRSSI: -75, at: now, model: model)
/// log.smoothedRSSI(slot: 0, at: now, model: model) // the trimmed mean of the window's heard samples
/// ```
struct BeaconSampleLog {
    /// A beacon in reach in one cycle: its slot, when, the mean RSSI there, and its stream's state
    /// before the cycle's draws (nil without shadowing).
    private struct Record {
        let slot: Int
        let instant: Int64
        let meanRSSI: Double
        let stream: SeededRandomGenerator?
    }

    /// The records since the log was last cleared, oldest first. Records that have left the window
    /// are dropped in bulk, once the oldest kept is a quarter window past it (so most cycles append
    /// to the newest end only, without reading the oldest one).
    private var records: [Record] = []
    /// When the oldest kept record was made (kept here, so checking it touches nothing else).
    private var oldestInstant = Int64.max

    /// An empty log.
    init() {}

    /// Draws one cycle's samples of the beacon at `slot` at `now` around `meanRSSI`, from `stream`
    /// (nil without shadowing, when every sample is the mean): returns whether any of them is heard.
    mutating func sampleCycle(slot: Int, stream: inout SeededRandomGenerator?, meanRSSI: Double, at now: Int64, model: BeaconSampleModel) -> Bool {
        if now - oldestInstant >= model.window + model.window / 4 { forgetRecords(before: now, model: model) }
        if records.isEmpty { oldestInstant = now }
        records.append(Record(slot: slot, instant: now, meanRSSI: meanRSSI, stream: stream))
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

    /// Forgets every sample (Bluetooth switched off); the beacons' streams go on where they are.
    mutating func clear() {
        records.removeAll(keepingCapacity: true)
        oldestInstant = .max
    }

    /// The smoothed RSSI of the beacon at `slot` at the cycle of `now` (AltBeacon's trimmed running
    /// average of its heard samples within the window, exactly as ``RunningAverageRSSIFilter``
    /// computes it); nil when none was heard.
    func smoothedRSSI(slot: Int, at now: Int64, model: BeaconSampleModel) -> Double? {
        var heard: [Double] = []
        for record in records.reversed() {
            guard now - record.instant < model.window else { break }
            guard record.slot == slot else { continue }
            var drawing = record.stream
            for _ in 0..<model.samplesPerCycle {
                var rssi = record.meanRSSI
                if drawing != nil {
                    let (u1, u2) = drawing!.nextGaussianUnits()
                    rssi = model.rssi(meanRSSI: record.meanRSSI, u1, u2)
                }
                if rssi >= model.sensitivity { heard.append(rssi) }
            }
        }
        return RunningAverageRSSIFilter.trimmedMean(of: &heard, trim: model.trim)
    }

    /// Drops the records that have left the window of `now`.
    private mutating func forgetRecords(before now: Int64, model: BeaconSampleModel) {
        let kept = records.firstIndex { now - $0.instant < model.window } ?? records.count
        records.removeFirst(kept)
        oldestInstant = records.first?.instant ?? .max
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
