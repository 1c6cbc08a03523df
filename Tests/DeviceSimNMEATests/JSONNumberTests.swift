@testable import DeviceSimNMEA
import Testing

/// The JSON number formatter against the one it replaced (kept here as the reference): byte for
/// byte, over the doubles the decoder makes and over arbitrary ones.
@Suite struct JSONNumberTests {
    /// The formatter before it did its own rounding and fixed-width fraction digits (it rounded with
    /// `Double.rounded()` and counted the fraction's digits).
    static func reference(_ value: Double, decimals: Int) -> [UInt8] {
        guard value.isFinite else { return Array("null".utf8) }
        let scale = exactPowerOfTen(decimals)
        let scaled = (value.magnitude * scale).rounded()
        guard scaled < 9e18 else { return Array(String(value).utf8) }
        let units = UInt64(scaled)
        let divisor = UInt64(scale)
        var out: [UInt8] = value < 0 && units != 0 ? [0x2D] : []
        out += Array(String(units / divisor).utf8)
        if decimals > 0 {
            let fraction = String(units % divisor)
            out.append(0x2E)
            out += Array(repeating: 0x30, count: decimals - fraction.count) + Array(fraction.utf8)
        }
        return out
    }

    static func formatted(_ value: Double, decimals: Int) -> [UInt8] {
        var out: [UInt8] = []
        GPSDJSON.number(value, decimals: decimals, &out)
        return out
    }

    /// SplitMix64: the same values on every run.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// A value as the parser makes one: a decimal field (up to 18 digits), a coordinate (whole
    /// degrees and decimal minutes), a speed in knots or km/h converted, or a sum of two fields.
    static func decodedValue(_ random: inout Generator) -> Double {
        func field(_ random: inout Generator) -> Double {
            let scale = Int.random(in: 0...9, using: &random)
            let digits = Int.random(in: 1...18, using: &random)
            let mantissa = UInt64.random(in: 0..<UInt64(exactPowerOfTen(digits)), using: &random)
            let value = Double(mantissa) / exactPowerOfTen(scale)
            return Bool.random(using: &random) ? -value : value
        }
        switch Int.random(in: 0..<5, using: &random) {
        case 0: return field(&random)
        case 1:
            let scale = Int.random(in: 0...9, using: &random)
            let minuteUnits = UInt64.random(in: 0..<60 * UInt64(exactPowerOfTen(scale)), using: &random)
            let degrees = Double(Int.random(in: 0...180, using: &random)) + Double(minuteUnits) / exactPowerOfTen(scale) / 60
            return Bool.random(using: &random) ? -degrees : degrees
        case 2: return field(&random) * NMEASentenceParser.metresPerSecondPerKnot
        case 3: return field(&random) / 3.6
        default: return field(&random) + field(&random)
        }
    }

    @Test func decodedValuesFormatAsBefore() {
        var random = Generator(state: 46)
        for _ in 0..<50_000 {
            let value = Self.decodedValue(&random)
            for decimals in [1, 2, 3, 4, 9] {
                #expect(Self.formatted(value, decimals: decimals) == Self.reference(value, decimals: decimals), "\(value) to \(decimals) decimals")
            }
        }
    }

    /// Whole numbers below 1000 (most satellite elevations, azimuths and signal strengths) take a
    /// shorter path; it writes what the general one writes, and numbers next to them take the latter.
    @Test func wholeNumbersBelowAThousandFormatAsBefore() {
        var values: [Double] = [-0.0, -1, -999, 1000, 1000.5, 999.5, 999.96]
        for whole in 0...1000 {
            values += [Double(whole), Double(whole).nextUp, Double(whole).nextDown]
        }
        for value in values {
            for decimals in [0, 1, 2, 3, 4, 8, 9, 10] {
                #expect(Self.formatted(value, decimals: decimals) == Self.reference(value, decimals: decimals), "\(value) to \(decimals) decimals")
            }
        }
    }

    /// SKY reports write satellites' elevations, azimuths and signal strengths with `oneDecimal`,
    /// which writes whole numbers below 1000 itself: the same bytes as the reference, for those, their
    /// neighbours, and values that are not whole, negative, large or not finite.
    @Test func oneDecimalFormatsAsBefore() {
        var values: [Double] = [-0.0, -1, -0.04, -0.05, -999, 1000, 1000.5, 999.5, 999.94, 999.95, 0.05, 0.04, 1e300, .infinity, -.infinity, .nan]
        for whole in 0...1000 {
            values += [Double(whole), Double(whole).nextUp, Double(whole).nextDown, Double(whole) + 0.25, Double(whole) - 0.05]
        }
        for value in values {
            var written = [UInt8](repeating: 0, count: 64)
            let count = written.withUnsafeMutableBufferPointer { buffer in
                var out = UncheckedBytes(buffer.baseAddress!)
                out.oneDecimal(value)
                return out.count
            }
            #expect(Array(written[..<count]) == Self.reference(value, decimals: 1), "\(value)")
        }
    }

    @Test func arbitraryDoublesAndHalfwayCasesFormatAsBefore() {
        var random = Generator(state: 4_600)
        var values: [Double] = [0, -0.0, .infinity, -.infinity, .nan, 0.5, 1.5, 2.5, -0.5, 0.05, 0.15, 0.25, 9e18, 8.999_999_999_999_999e18, 1e300, .leastNonzeroMagnitude]
        for _ in 0..<50_000 {
            values.append(Double(bitPattern: random.next()))
            // Exactly halfway between two outputs at some scale, and its neighbours.
            let half = (Double(UInt64.random(in: 0..<1 << 40, using: &random)) + 0.5) / exactPowerOfTen(Int.random(in: 0...9, using: &random))
            values += [half, half.nextUp, half.nextDown]
        }
        for value in values {
            for decimals in [0, 1, 2, 3, 4, 9] {
                #expect(Self.formatted(value, decimals: decimals) == Self.reference(value, decimals: decimals), "\(value) to \(decimals) decimals")
            }
        }
    }
}
