import DeviceSimHAL
import DeviceSimTime
import Foundation

/// Log-distance path loss with seeded Gaussian shadowing, and its inverse, the distance estimate that
/// beacon ranging reports.
///
/// ```swift
/// let mean = RadioModel.wifiRSSI(transmitPower: 20, distance: 30, environment: world.radio) // about -60 dBm
/// let metres = RadioModel.estimatedDistance(rssi: -65, measuredPower: -59, exponent: 2) // about 2 m
/// ```
public enum RadioModel {
    /// The mean Wi-Fi RSSI at `distance` metres (distances under 1 m count as 1 m).
    public static func wifiRSSI(transmitPower: Double, distance: Double, environment: RadioEnvironment) -> Double {
        transmitPower - environment.wifiReferenceLoss - 10 * environment.wifiExponent * log10(max(distance, 1))
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

/// One shadowing stream per emitter, split from a device's generator by the emitter's identity (its
/// BSSID, its beacon id), so what one device sees of one emitter does not depend on which other
/// emitters exist or were seen. Streams are kept by the emitter's index in the world.
struct ShadowingStreams {
    private let root: SeededRandomGenerator
    private var streams: [Int: SeededRandomGenerator] = [:]

    init(_ root: SeededRandomGenerator) {
        self.root = root
    }

    /// The next shadowing sample for the emitter at `index` (named `identity`), in dB.
    mutating func next(for index: Int, identity: @autoclosure () -> String, sigma: Double) -> Double {
        guard sigma > 0 else { return 0 }
        return streams[index, default: root.split(identity())].nextGaussian(mean: 0, standardDeviation: sigma)
    }
}
