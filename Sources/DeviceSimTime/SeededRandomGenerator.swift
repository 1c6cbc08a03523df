/// A deterministic random number generator (xoshiro256**) that can be split into independent streams.
///
/// Every simulation owns one root generator made from its seed. Components and devices take their own
/// stream with ``split(_:)``; a stream depends only on the root seed and the labels on its path, never on
/// how many numbers another stream has drawn, so adding a device leaves every other device's noise as it was.
///
/// ```swift
/// let root = SeededRandomGenerator(seed: 42)
/// var gpsNoise = root.split("device:alice").split("gps")
/// let dx = gpsNoise.nextGaussian() // same value on every machine, every run
/// ```
public struct SeededRandomGenerator: RandomNumberGenerator, Sendable {
    /// The seed this stream was derived from.
    public let seed: UInt64
    @usableFromInline var state: (UInt64, UInt64, UInt64, UInt64)

    /// Creates a stream from a seed.
    public init(seed: UInt64) {
        self.seed = seed
        var mixer = seed
        state = (
            Self.splitMix64(&mixer), Self.splitMix64(&mixer),
            Self.splitMix64(&mixer), Self.splitMix64(&mixer)
        )
    }

    /// Returns an independent stream named `label`, derived from this stream's seed only.
    public func split(_ label: String) -> SeededRandomGenerator {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a, stable across processes (unlike Hasher)
        for byte in label.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        var mixer = seed ^ (hash &* 0x9e37_79b9_7f4a_7c15)
        return SeededRandomGenerator(seed: Self.splitMix64(&mixer))
    }

    @inlinable
    public mutating func next() -> UInt64 {
        let scrambled = state.1 &* 5
        let result = ((scrambled << 7) | (scrambled >> 57)) &* 9
        let t = state.1 << 17
        state.2 ^= state.0
        state.3 ^= state.1
        state.1 ^= state.2
        state.0 ^= state.3
        state.2 ^= t
        state.3 = (state.3 << 45) | (state.3 >> 19)
        return result
    }

    /// A uniformly distributed value in [0, 1).
    @inlinable
    public mutating func nextUnit() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }

    /// A normally distributed value (Box–Muller) with the given mean and standard deviation.
    public mutating func nextGaussian(mean: Double = 0, standardDeviation: Double = 1) -> Double {
        let (u1, u2) = nextGaussianUnits()
        return Self.gaussian(u1, u2, mean: mean, standardDeviation: standardDeviation)
    }

    /// The two uniform draws that ``nextGaussian(mean:standardDeviation:)`` turns into its value
    /// (`u1` in (0, 1), `u2` in [0, 1)): for a caller that decides from them whether it needs the
    /// value at all, and computes it with ``gaussian(_:_:mean:standardDeviation:)`` only then.
    @inlinable
    public mutating func nextGaussianUnits() -> (u1: Double, u2: Double) {
        var u1 = nextUnit()
        while u1 <= .leastNormalMagnitude { u1 = nextUnit() }
        return (u1, nextUnit())
    }

    /// The normally distributed value that ``nextGaussian(mean:standardDeviation:)`` makes of the
    /// draws `u1` and `u2` (Box–Muller), bit for bit.
    public static func gaussian(_ u1: Double, _ u2: Double, mean: Double, standardDeviation: Double) -> Double {
        let magnitude = (-2 * _log(u1)).squareRoot()
        return mean + standardDeviation * magnitude * _cos(2 * .pi * u2)
    }

    private static func splitMix64(_ x: inout UInt64) -> UInt64 {
        x = x &+ 0x9e37_79b9_7f4a_7c15
        var z = x
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

@inline(__always) private func _log(_ x: Double) -> Double { log(x) }
@inline(__always) private func _cos(_ x: Double) -> Double { cos(x) }
