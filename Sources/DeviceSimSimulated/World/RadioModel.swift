import DeviceSimHAL
import DeviceSimTime
import Foundation

/// Log-distance path loss with seeded Gaussian shadowing, and its inverse, the distance estimate that
/// beacon ranging reports.
///
/// ```swift
/// let mean = RadioModel.wifiRSSI(transmitPower: 20, distance: 30, environment: world.radio) // about -64 dBm
/// let metres = RadioModel.estimatedDistance(rssi: -65, measuredPower: -59, exponent: 2) // about 2 m
/// ```
public enum RadioModel {
    /// The mean Wi-Fi RSSI at `distance` metres (distances under 1 m count as 1 m), from an access
    /// point of `transmitPower` dBm EIRP: ``RadioEnvironment/wifiPathLoss(distance:)`` below it.
    public static func wifiRSSI(transmitPower: Double, distance: Double, environment: RadioEnvironment) -> Double {
        transmitPower - environment.wifiPathLoss(distance: distance)
    }

    /// The mean beacon RSSI at `distance` metres from `measuredPower` (the RSSI at 1 m); distances under
    /// 10 cm count as 10 cm.
    public static func beaconRSSI(measuredPower: Double, distance: Double, environment: RadioEnvironment) -> Double {
        measuredPower - 10 * environment.beaconExponent * log10(max(distance, 0.1))
    }

    /// The distance at which the mean RSSI is `measuredPower - rssi` dB below its 1 m value.
    public static func estimatedDistance(rssi: Double, measuredPower: Double, exponent: Double) -> Double {
        distance(atLoss: measuredPower - rssi, exponent: exponent)
    }

    /// The distance at which log-distance path loss reaches `loss` dB beyond the 1 m reference.
    public static func distance(atLoss loss: Double, exponent: Double) -> Double {
        pow(10, loss / (10 * exponent))
    }

    /// AltBeacon's proximity classes: immediate under 0.5 m, near under 4 m, far beyond.
    public static func proximity(distance: Double) -> BeaconProximity {
        if !distance.isFinite || distance < 0 { return .unknown }
        if distance < 0.5 { return .immediate }
        if distance < 4 { return .near }
        return .far
    }
}

/// Shadowing that is correlated in space and time, per emitter (Gudmundson's model): a first-order
/// autoregressive process whose correlation between two samples is `exp(-d/D) · exp(-t/T)`, where `d`
/// is how far the device moved between them, `t` the time between them, `D` the decorrelation distance
/// (``RadioEnvironment/shadowingDistance``) and `T` the decorrelation time
/// (``RadioEnvironment/shadowingTime``). Each sample keeps the standard deviation `sigma`, so the signal
/// at one spot is the same on average, but a device standing still no longer draws a fresh value at
/// every scan: a phantom sighting lasts as long as the fade that causes it, and comes back as rarely.
/// With `D = 0` every sample is an independent draw from the emitter's stream.
///
/// Streams are split from the device's generator by the emitter's identity (its BSSID), as beacon
/// ranging splits one per beacon id, so what one device sees of one emitter does not depend on which
/// other emitters exist or were seen.
struct CorrelatedShadowing {
    private struct Last {
        var value: Double
        var position: GeoCoordinate
        var time: VirtualInstant
    }

    /// An emitter this device has seen: its index in the world, its stream, and its latest sample.
    private struct Emitter {
        let index: Int
        var stream: SeededRandomGenerator
        var last: Last?
    }

    private let root: SeededRandomGenerator
    /// The emitters seen, in the order first seen. A device sees a handful: up to
    /// ``emitterScanLimit`` an emitter is found by a scan of this array, beyond by `slotOfEmitter`.
    private var emitters: [Emitter] = []
    private var slotOfEmitter: [Int: Int] = [:]
    private static var emitterScanLimit: Int { 16 }

    init(_ root: SeededRandomGenerator) {
        self.root = root
    }

    /// The time factor of the latest correlation computed: a scan's emitters share their elapsed
    /// time, and scans are often one scan interval apart.
    private var latestTimeFactor: (elapsed: Int64, shadowingTime: Double, factor: Double)?
    /// The space factor of the latest correlation computed: a scan's emitters were mostly sampled
    /// last from the same position (the previous scan's), so they share it.
    private var latestSpaceFactor: (from: GeoCoordinate, to: GeoCoordinate, shadowingDistance: Double, factor: Double)?

    /// The correlation between `previous` and a sample at `position` at `time`: `exp(-d/D) ·
    /// exp(-t/T)` (0 when `D` is 0; the time factor 1 when `T` is 0), without the exponentials
    /// that are known already: a device standing still has moved exactly 0 m (a factor of exactly
    /// 1, as `exp(-0/D)` is), and the time factor of the latest elapsed time is kept.
    private mutating func correlation(from previous: Last, to position: GeoCoordinate, at time: VirtualInstant, environment: RadioEnvironment) -> Double {
        guard environment.shadowingDistance > 0 else { return 0 }
        let space = previous.position == position ? 1 : spaceFactor(from: previous.position, to: position, shadowingDistance: environment.shadowingDistance)
        guard environment.shadowingTime > 0 else { return space }
        let elapsed = time.nanoseconds &- previous.time.nanoseconds
        if let latestTimeFactor, latestTimeFactor.elapsed == elapsed, latestTimeFactor.shadowingTime == environment.shadowingTime {
            return space * latestTimeFactor.factor
        }
        let factor = exp(-previous.time.duration(to: time).inSeconds / environment.shadowingTime)
        latestTimeFactor = (elapsed, environment.shadowingTime, factor)
        return space * factor
    }

    /// `exp(-d/D)` for the distance `d` from `from` to `to` and `D` = `shadowingDistance`, kept for
    /// the next emitter of the scan.
    private mutating func spaceFactor(from: GeoCoordinate, to: GeoCoordinate, shadowingDistance: Double) -> Double {
        if let latestSpaceFactor, latestSpaceFactor.from == from, latestSpaceFactor.to == to,
           latestSpaceFactor.shadowingDistance == shadowingDistance {
            return latestSpaceFactor.factor
        }
        let factor = exp(-from.distance(to: to) / shadowingDistance)
        latestSpaceFactor = (from, to, shadowingDistance, factor)
        return factor
    }

    /// The slot of the emitter at `index` in `emitters`, added (with its stream split from the
    /// device's by `identity`) on first sight.
    private mutating func slot(ofEmitter index: Int, identity: () -> String) -> Int {
        if emitters.count <= Self.emitterScanLimit {
            for slot in emitters.indices where emitters[slot].index == index { return slot }
        } else if let slot = slotOfEmitter[index] {
            return slot
        }
        emitters.append(Emitter(index: index, stream: root.split(identity()), last: nil))
        if emitters.count > Self.emitterScanLimit {
            if slotOfEmitter.isEmpty { for (slot, emitter) in emitters.enumerated() { slotOfEmitter[emitter.index] = slot } }
            slotOfEmitter[index] = emitters.count - 1
        }
        return emitters.count - 1
    }

    /// The shadowing of the emitter at `index` (named `identity`) seen from `position` at `time`, in dB.
    mutating func next(for index: Int, identity: @autoclosure () -> String, at position: GeoCoordinate, time: VirtualInstant, environment: RadioEnvironment) -> Double {
        let sigma = environment.shadowing
        guard sigma > 0 else { return 0 }
        let slot = slot(ofEmitter: index, identity: identity)
        let innovation = emitters[slot].stream.nextGaussian(mean: 0, standardDeviation: sigma)
        var value = innovation
        if let previous = emitters[slot].last {
            let rho = correlation(from: previous, to: position, at: time, environment: environment)
            if rho > 0 { value = rho * previous.value + (1 - rho * rho).squareRoot() * innovation }
        }
        emitters[slot].last = Last(value: value, position: position, time: time)
        return value
    }
}
