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
/// the cycles of the smoothing window, each beacon's slot, instants, mean RSSI and the stream's
/// state before the draws, and draws a beacon's window again, bit for bit, when a report asks.
///
/// Consecutive cycles of a beacon are one run, which keeps the stream's state once and each cycle's
/// mean RSSI (a walking device's changes every cycle): a cycle then adds its mean to its run,
/// instead of appending `samplesPerCycle` samples, or a run with a stream state, to a buffer; at
/// 10,000 devices, what a cycle costs is the memory it touches. A run holds at most a quarter
/// window of cycles, and at most ``longestRun`` (``BeaconSampleModel/cyclesPerRun``), so runs leave
/// the window whole: no stream is ever drawn forward past cycles that left it.
///
/// ```swift
/// var log = BeaconSampleLog()
/// var stream: SeededRandomGenerator? = random.split("beacon")
/// let heard = log.sampleCycle(slot: 0, stream: &stream, meanRSSI: -75, at: now, model: model)
/// log.smoothedRSSI(slot: 0, at: now, model: model) // the trimmed mean of the window's heard samples
/// ```
struct BeaconSampleLog {
    /// Consecutive cycles of one beacon, at most ``BeaconSampleModel/cyclesPerRun`` (a walking
    /// device's mean RSSI changes every cycle: each cycle's mean is kept in the run, so that such a
    /// device adds 8 bytes a cycle to its log, not a run): the first cycle's instant, the beacon's
    /// slot, how many cycles, their means, and the beacon's stream state before the first cycle's
    /// draws (nil without shadowing; the cycles after it drew on from there, nothing else draws from
    /// the stream). Cycle `i` of the run was at `first + i * period`.
    private struct Run {
        let first: Int64
        let slot: Int32
        private(set) var count: Int32 = 1
        /// Room for ``BeaconSampleLog/longestRun`` cycles' means.
        typealias Means = (Double, Double, Double, Double, Double)
        /// The cycles' means, the first `count` used.
        private var means: Means
        let stream: SeededRandomGenerator?

        /// A run of one cycle at `first` of the beacon at `slot` at `meanRSSI`, drawn from `stream`.
        init(slot: Int, first: Int64, meanRSSI: Double, stream: SeededRandomGenerator?) {
            self.first = first
            self.slot = Int32(slot)
            means = (meanRSSI, 0, 0, 0, 0)
            self.stream = stream
        }

        /// The mean RSSI of cycle `cycle` (below `count`).
        @inline(__always)
        func meanRSSI(cycle: Int) -> Double {
            withUnsafeBytes(of: means) { $0.load(fromByteOffset: cycle &* MemoryLayout<Double>.stride, as: Double.self) }
        }

        /// Adds the next cycle at `meanRSSI` (the run must not be full).
        @inline(__always)
        mutating func append(meanRSSI: Double) {
            let cycle = Int(count)
            withUnsafeMutableBytes(of: &means) { $0.storeBytes(of: meanRSSI, toByteOffset: cycle &* MemoryLayout<Double>.stride, as: Double.self) }
            count &+= 1
        }

        func last(period: Int64) -> Int64 { first + Int64(count - 1) * period }
    }

    /// The most cycles a run holds: the means a run keeps in itself (five: a quarter window at the
    /// default cycle and window, 1 s and 20 s).
    static let longestRun = MemoryLayout<Run.Means>.size / MemoryLayout<Double>.stride

    /// The runs since the log was last cleared, in the order they began, from `firstRun` on: the
    /// runs before it have left the window. Every quarter window, the leading runs that have left
    /// the window are passed over by moving `firstRun` (no run is moved); the array drops them only
    /// once they are many (see `trim(at:model:)`). A run after `firstRun` may have left the window
    /// before an earlier, longer one: it stays until the runs before it have left too, and every
    /// reader skips it as it skips any run outside the window.
    private var runs: [Run] = []
    /// The count of `runs`, kept beside it by every change of its count: ``prefetch()`` loads the
    /// newest runs (those a cycle continues), and reading the array's own count would wait for its
    /// buffer.
    private var runCount = 0
    /// The first run that may still be in the window.
    private var firstRun = 0
    /// When runs are next trimmed.
    private var nextTrim = Int64.min
    /// From when (nanoseconds) every run has left the window, as ``releaseIfPast(_:model:)`` worked
    /// it out (`Int64.min`: not worked out since the runs last changed; `Int64.max`: never).
    private var releasableFrom = Int64.min

    /// An empty log.
    init() {}

    /// How many runs the log stores, the passed-over ones that have left the window included: what
    /// its memory grows with.
    var storedRunCount: Int { runCount }

    /// Whether the log holds no run (read from the count kept beside the runs).
    var isEmpty: Bool { runCount == firstRun }

    /// Starts loading the buffer's header and the newest runs (see ``TickPrefetching``): a cycle
    /// continues the latest run of each beacon it samples, near the end.
    mutating func prefetch() {
        guard runCount > firstRun else { return }
        Prefetch.elements(of: &runs, first: 0)
        for index in max(runCount - 3, firstRun)..<runCount { Prefetch.element(index, of: &runs) }
    }

    /// Draws one cycle's samples of the beacon at `slot` at `now` around `meanRSSI`, from `stream`
    /// (nil without shadowing, when every sample is the mean): returns whether any of them is heard.
    mutating func sampleCycle(slot: Int, stream: inout SeededRandomGenerator?, meanRSSI: Double, at now: Int64, model: BeaconSampleModel) -> Bool {
        if now >= nextTrim {
            trim(at: now, model: model)
            nextTrim = now + model.window / 4
        }
        record(slot: slot, stream: stream, meanRSSI: meanRSSI, at: now, model: model)
        return Self.drawCycle(stream: &stream, meanRSSI: meanRSSI, model: model)
    }

    /// Draws one cycle's samples around `meanRSSI` from `stream`, as ``sampleCycle(slot:stream:meanRSSI:at:model:)``
    /// does, without recording the cycle: returns whether any of them is heard. A ranging driver
    /// draws a standing device's next cycles ahead with it, on a copy of each beacon's stream.
    @inline(__always)
    static func drawCycle(stream: inout SeededRandomGenerator?, meanRSSI: Double, model: BeaconSampleModel) -> Bool {
        guard var drawing = stream else { return model.samplesPerCycle > 0 && meanRSSI >= model.sensitivity }
        let isHeard: Bool
        if !model.drawsDecide(meanRSSI: meanRSSI) {
            // Fades are clipped at 2 sigma: the mean's side decides every sample, the draws only
            // move the stream on.
            for _ in 0..<model.samplesPerCycle { BeaconSampleModel.skipGaussianUnits(&drawing) }
            isHeard = model.samplesPerCycle > 0 && meanRSSI >= model.sensitivity
        } else {
            isHeard = drawUndecidedCycle(stream: &drawing, meanRSSI: meanRSSI, magnitudeThreshold: model.magnitudeThreshold(meanRSSI: meanRSSI), model: model)
        }
        stream = drawing
        return isHeard
    }

    /// Draws one cycle's samples around `meanRSSI`, which lies within 2 sigma of the sensitivity
    /// (``BeaconSampleModel/drawsDecide(meanRSSI:)``), from `stream`, given the mean's
    /// ``BeaconSampleModel/magnitudeThreshold(meanRSSI:)``: returns whether any of them is heard.
    @inline(__always)
    static func drawUndecidedCycle(stream: inout SeededRandomGenerator, meanRSSI: Double, magnitudeThreshold: Double, model: BeaconSampleModel) -> Bool {
        var isHeard = false
        for _ in 0..<model.samplesPerCycle {
            if isHeard {
                BeaconSampleModel.skipGaussianUnits(&stream)
            } else {
                let (u1, u2) = stream.nextGaussianUnits()
                isHeard = model.isHeard(meanRSSI: meanRSSI, u1, u2, magnitudeThreshold: magnitudeThreshold)
            }
        }
        return isHeard
    }

    /// Adds the cycle at `now` to the latest run of `slot` when it continues it (the next cycle, the
    /// run not full), or starts a run.
    private mutating func record(slot: Int, stream: SeededRandomGenerator?, meanRSSI: Double, at now: Int64, model: BeaconSampleModel) {
        var index = runCount - 1
        while index >= firstRun, runs[index].slot != slot { index -= 1 }
        releasableFrom = .min
        if index >= firstRun, runs[index].count < model.cyclesPerRun, runs[index].last(period: model.period) + model.period == now {
            runs[index].append(meanRSSI: meanRSSI)
        } else {
            runs.append(Run(slot: slot, first: now, meanRSSI: meanRSSI, stream: stream))
            runCount += 1
        }
    }

    /// Frees the log's memory once every run has left the window of `now` (the device is out of
    /// reach of its beacons): such runs are never read again, and a device that walked past beacons
    /// kept their runs' buffer for the rest of the run. The first call after the runs last changed
    /// works out from when that is (the latest run's last cycle plus the window); the calls after it
    /// read no run (a device out of reach calls this every cycle until then).
    mutating func releaseIfPast(_ now: Int64, model: BeaconSampleModel) {
        guard runCount > firstRun else { return }
        if releasableFrom == .min {
            var latest = Int64.min
            for run in runs[firstRun...] { latest = max(latest, run.last(period: model.period)) }
            releasableFrom = latest.addingOrNever(model.window)
        }
        guard now >= releasableFrom, releasableFrom != .max else { return }
        runs = []
        runCount = 0
        firstRun = 0
        releasableFrom = .min
    }

    /// Forgets every sample (Bluetooth switched off); the beacons' streams go on where they are.
    mutating func clear() {
        runs.removeAll(keepingCapacity: true)
        runCount = 0
        firstRun = 0
        releasableFrom = .min
    }

    /// The smoothed RSSI of the beacon at `slot` at the cycle of `now` (AltBeacon's trimmed running
    /// average of its heard samples within the window, exactly as ``RunningAverageRSSIFilter``
    /// computes it); nil when none was heard.
    func smoothedRSSI(slot: Int, at now: Int64, model: BeaconSampleModel) -> Double? {
        var heard: [Double] = []
        // At most the window's cycles are heard from: room for all their samples at once (for any
        // sensible configuration).
        heard.reserveCapacity(min(Int(model.window / max(model.period, 1) + 1) * model.samplesPerCycle, 1_024))
        for run in runs[firstRun...] where run.slot == slot && now - run.last(period: model.period) < model.window {
            var drawing = run.stream
            for cycle in 0..<Int(run.count) {
                let inWindow = now - (run.first + Int64(cycle) * model.period) < model.window
                let meanRSSI = run.meanRSSI(cycle: cycle)
                for _ in 0..<model.samplesPerCycle {
                    var rssi = meanRSSI
                    if drawing != nil {
                        // A cycle that left the window only moves the stream on.
                        guard inWindow else {
                            BeaconSampleModel.skipGaussianUnits(&drawing!)
                            continue
                        }
                        let (u1, u2) = drawing!.nextGaussianUnits()
                        rssi = model.rssi(meanRSSI: meanRSSI, u1, u2)
                    }
                    if inWindow, rssi >= model.sensitivity { heard.append(rssi) }
                }
            }
        }
        return RunningAverageRSSIFilter.trimmedMean(of: &heard, trim: model.trim)
    }

    /// Passes over the leading runs that have left the window of `now`, and drops them from the
    /// array once they are all of it, or at least half of it and at least 8: a trim reads only the
    /// runs it passes over and the first one still in the window, and moves no more runs than it
    /// drops, where dropping every run that left the window read and moved all of them every
    /// quarter window.
    private mutating func trim(at now: Int64, model: BeaconSampleModel) {
        while firstRun < runCount, now - runs[firstRun].last(period: model.period) >= model.window { firstRun += 1 }
        if firstRun == runCount {
            runs.removeAll(keepingCapacity: true)
            runCount = 0
            firstRun = 0
        } else if firstRun >= 8, firstRun * 2 >= runCount {
            runs.removeFirst(firstRun)
            runCount -= firstRun
            firstRun = 0
        }
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
    /// The time between cycles in nanoseconds.
    let period: Int64
    /// The smoothing window in nanoseconds.
    let window: Int64
    /// The share of samples trimmed at each end of the window.
    let trim: Double
    /// The most cycles one run of a ``BeaconSampleLog`` holds: a quarter window's (at least one),
    /// the time between two trims of the log, and at most ``BeaconSampleLog/longestRun``.
    let cyclesPerRun: Int32

    /// A model of `samplesPerCycle` samples a cycle of `period` nanoseconds, shadowed by `sigma`,
    /// heard from `sensitivity`, smoothed over `window` nanoseconds with `trim` cut at each end.
    init(sigma: Double, sensitivity: Double, samplesPerCycle: Int, period: Int64, window: Int64, trim: Double) {
        self.sigma = sigma
        self.sensitivity = sensitivity
        self.samplesPerCycle = samplesPerCycle
        self.period = period
        self.window = window
        self.trim = trim
        cyclesPerRun = Int32(max(1, min(window / 4 / max(period, 1), Int64(BeaconSampleLog.longestRun))))
    }

    /// Moves `stream` past the two draws of one Gaussian sample, as
    /// ``SeededRandomGenerator/nextGaussianUnits()`` draws them (`u1` again while it is zero),
    /// without making doubles of them.
    @inline(__always)
    static func skipGaussianUnits(_ stream: inout SeededRandomGenerator) {
        // `u1 <= .leastNormalMagnitude` exactly when its 53 bits are all zero.
        while stream.next() >> 11 == 0 {}
        _ = stream.next()
    }

    /// A sample's RSSI from its draws: the mean plus the Gaussian fade, bit for bit as
    /// `meanRSSI + stream.nextGaussian(mean: 0, standardDeviation: sigma)`, clipped to ±2 sigma
    /// (``RadioEnvironment/beaconFadingBound``).
    @inline(__always)
    func rssi(meanRSSI: Double, _ u1: Double, _ u2: Double) -> Double {
        let bound = 2 * sigma
        return meanRSSI + min(max(SeededRandomGenerator.gaussian(u1, u2, mean: 0, standardDeviation: sigma), -bound), bound)
    }

    /// Whether the draws decide if a sample of `meanRSSI` is heard: false when the mean lies more
    /// than the clipped fade (2 sigma) from the sensitivity, so its side decides every sample.
    @inline(__always)
    func drawsDecide(meanRSSI: Double) -> Bool {
        abs(meanRSSI - sensitivity) <= 2 * sigma
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
        // Fades are clipped at 2 sigma: beyond that gap the mean's side decides.
        if abs(meanRSSI - sensitivity) > 2 * sigma { return above }
        if u1 > magnitudeThreshold { return above }
        // The cosine's sign: clear of its zeros (at u2 = 1/4 and 3/4) by a wide margin.
        if above, u2 < 0.2499 || u2 > 0.7501 { return true }  // the shadowing adds to a heard mean
        if !above, u2 > 0.2501, u2 < 0.7499 { return false }  // it takes from a mean not heard
        return rssi(meanRSSI: meanRSSI, u1, u2) >= sensitivity
    }
}
