@testable import DeviceSimSimulated
import DeviceSimTime
import Testing

@Suite struct BeaconSampleLogTests {
    /// The log decides "heard" mostly from the uniform draws and draws the samples again for the
    /// smoothed RSSI: both must equal, to the bit, drawing every sample with `nextGaussian` and
    /// keeping the heard ones in a ``RunningAverageRSSIFilter`` per beacon. Three beacons share the
    /// log, each in and out of reach; means are drawn around the sensitivity (where the shortcuts
    /// are closest to their edges) and often kept for several cycles (runs, some longer than the
    /// window); Bluetooth is switched off now and then; with and without shadowing.
    @Test(arguments: [(1, 5.0), (2, 5.0), (3, 0.5), (4, 12.0), (5, 0.0)] as [(UInt64, Double)])
    func decisionsAndSmoothedRSSIMatchDrawingEverySample(seed: UInt64, sigma: Double) {
        checkAgainstDrawingEverySample(seed: seed, sigma: sigma, spread: 4)
    }

    /// As above with means up to 6 sigma from the sensitivity: beyond 2 sigma (where fades are
    /// clipped) the mean's side decides every sample and the log only moves the stream on.
    @Test(arguments: [(6, 5.0), (7, 0.5), (8, 3.0)] as [(UInt64, Double)])
    func decisionsFarFromTheSensitivityMatchDrawingEverySample(seed: UInt64, sigma: Double) {
        checkAgainstDrawingEverySample(seed: seed, sigma: sigma, spread: 12)
    }

    /// Samples three beacons for 3,000 cycles, their means within `spread / 2` sigma (at least
    /// 1 dB) of the sensitivity, and compares each cycle with drawing every sample.
    private func checkAgainstDrawingEverySample(seed: UInt64, sigma: Double, spread: Double) {
        let model = BeaconSampleModel(sigma: sigma, sensitivity: -90, samplesPerCycle: 5, period: 1_000_000_000, window: 20_000_000_000, trim: 0.1)
        var log = BeaconSampleLog()
        var streams: [SeededRandomGenerator?] = (0..<3).map { sigma > 0 ? SeededRandomGenerator(seed: seed).split("beacon \($0)") : nil }
        var references = streams
        var filters: [RunningAverageRSSIFilter?] = [nil, nil, nil]
        var scenario = SeededRandomGenerator(seed: seed ^ 0xabc)
        var heardCount = 0, notHeardCount = 0
        var means: [Double] = [-90, -90, -90]
        for second in 0..<3_000 {
            let now = VirtualInstant(offset: .seconds(second))
            if scenario.nextUnit() < 0.003 {
                log.clear()
                filters = [nil, nil, nil]
                continue
            }
            for slot in 0..<3 {
                guard scenario.nextUnit() < [0.995, 0.95, 0.8][slot] else { continue }  // out of reach this cycle
                // Means within a few dB of the sensitivity, exactly on it now and then, and often the
                // same as the cycle before (a device standing still: cycles then make one run).
                if scenario.nextUnit() < [0.01, 0.4, 0.9][slot] {
                    means[slot] = scenario.nextUnit() < 0.05 ? -90 : -90 + (scenario.nextUnit() - 0.5) * spread * max(sigma, 1)
                }
                let mean = means[slot]
                var heard = false
                for _ in 0..<5 {
                    var rssi = mean
                    // Each fade clipped at 2 sigma (RadioEnvironment.beaconFadingBound).
                    if references[slot] != nil { rssi = mean + min(max(references[slot]!.nextGaussian(mean: 0, standardDeviation: sigma), -2 * sigma), 2 * sigma) }
                    guard rssi >= -90 else { continue }
                    heard = true
                    if filters[slot] == nil { filters[slot] = RunningAverageRSSIFilter() }
                    filters[slot]!.add(rssi, at: now)
                }
                if let newest = filters[slot]?.newestSampleTime, newest.duration(to: now) >= .seconds(20) { filters[slot] = nil }
                #expect(log.sampleCycle(slot: slot, stream: &streams[slot], meanRSSI: mean, at: now.nanoseconds, model: model) == heard, "beacon \(slot) at \(second) s")
                if heard {
                    heardCount += 1
                    #expect(log.smoothedRSSI(slot: slot, at: now.nanoseconds, model: model) == filters[slot]?.average, "beacon \(slot) at \(second) s")
                } else {
                    notHeardCount += 1
                }
            }
        }
        #expect(heardCount > 300 && (sigma == 0 || notHeardCount > 30))
    }

    /// A beacon always in reach whose mean changes every cycle (a walking device) and one whose mean
    /// stays (a device standing still) both fill runs of a quarter window, each cycle's mean kept
    /// in its run: the log stores about the window's runs (those that have left it are passed over
    /// and dropped in bulk), not every run since it began, nor a run a cycle, and the smoothed RSSI
    /// still reads only the window.
    @Test func storesTheWindowsRunsNotEveryRunSinceItBegan() {
        let model = BeaconSampleModel(sigma: 4, sensitivity: -90, samplesPerCycle: 5, period: 1_000_000_000, window: 20_000_000_000, trim: 0.1)
        var log = BeaconSampleLog()
        var streams: [SeededRandomGenerator?] = (0..<2).map { SeededRandomGenerator(seed: 11).split("beacon \($0)") }
        var references = streams
        var filters = [RunningAverageRSSIFilter(), RunningAverageRSSIFilter()]
        var mostStored = 0
        for second in 0..<10_000 {
            let now = VirtualInstant(offset: .seconds(second))
            for slot in 0..<2 {
                let mean = slot == 0 ? -80 - Double(second % 7) : -82  // beacon 0 moves, beacon 1 stands
                for _ in 0..<5 {
                    let rssi = mean + min(max(references[slot]!.nextGaussian(mean: 0, standardDeviation: 4), -8), 8)
                    if rssi >= -90 { filters[slot].add(rssi, at: now) }
                }
                _ = log.sampleCycle(slot: slot, stream: &streams[slot], meanRSSI: mean, at: now.nanoseconds, model: model)
                if second % 97 == 0, filters[slot].newestSampleTime == now {
                    #expect(log.smoothedRSSI(slot: slot, at: now.nanoseconds, model: model) == filters[slot].average, "beacon \(slot) at \(second) s")
                }
            }
            mostStored = max(mostStored, log.storedRunCount)
        }
        // In the window: 4 or 5 runs of each beacon; a quarter window more between trims; as many
        // again passed over before they are dropped (at least 8).
        #expect(mostStored >= 8 && mostStored <= 2 * (10 + 2) + 8, "at most \(mostStored) runs stored")
    }

    /// A log whose beacons are all out of reach (its driver calls `releaseIfPast` every cycle then)
    /// frees its runs at the first cycle at which the latest of them has left the window, not
    /// before; a cycle that hears a beacon again in between moves that instant on.
    @Test func releasesItsRunsOnceTheLatestHasLeftTheWindow() {
        let model = BeaconSampleModel(sigma: 4, sensitivity: -90, samplesPerCycle: 5, period: 1_000_000_000, window: 20_000_000_000, trim: 0.1)
        var log = BeaconSampleLog()
        var streams: [SeededRandomGenerator?] = (0..<2).map { SeededRandomGenerator(seed: 3).split("beacon \($0)") }
        let second: (Int) -> Int64 = { Int64($0) * 1_000_000_000 }
        for now in 0..<45 {
            _ = log.sampleCycle(slot: 0, stream: &streams[0], meanRSSI: -80 - Double(now % 3), at: second(now), model: model)
            if now < 40 { _ = log.sampleCycle(slot: 1, stream: &streams[1], meanRSSI: -85, at: second(now), model: model) }
        }
        for now in 45..<50 {
            log.releaseIfPast(second(now), model: model)
            #expect(log.storedRunCount > 0, "at \(now) s")
        }
        _ = log.sampleCycle(slot: 0, stream: &streams[0], meanRSSI: -80, at: second(50), model: model)
        for now in 51..<80 {
            log.releaseIfPast(second(now), model: model)
            // The latest cycle was at 50 s: its run leaves the 20 s window at 70 s.
            #expect((log.storedRunCount == 0) == (now >= 70), "at \(now) s: \(log.storedRunCount) runs stored")
        }
    }

    /// The draws behind a Gaussian, turned into its value, give `nextGaussian`'s value bit for bit.
    @Test func gaussianFromUnitsEqualsNextGaussian() {
        var direct = SeededRandomGenerator(seed: 7), split = SeededRandomGenerator(seed: 7)
        for _ in 0..<10_000 {
            let (u1, u2) = split.nextGaussianUnits()
            #expect(SeededRandomGenerator.gaussian(u1, u2, mean: -3, standardDeviation: 2.5) == direct.nextGaussian(mean: -3, standardDeviation: 2.5))
        }
    }
}
