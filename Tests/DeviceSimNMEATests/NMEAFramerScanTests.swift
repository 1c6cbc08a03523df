@testable import DeviceSimNMEA
import Testing

/// The framer's scan for the end of a sentence (sixteen bytes at a time, then eight, then one) against
/// the rule it implements, a byte at a time.
@Suite struct NMEAFramerScanTests {
    /// The rule: the first byte that is not printable ASCII, or is a `$` or `!`.
    static func firstNonSentenceByteOneAtATime(_ bytes: [UInt8], from: Int, to: Int) -> Int {
        var position = from
        while position < to {
            let byte = bytes[position]
            if byte < 0x20 || byte > 0x7E || byte == 0x24 || byte == 0x21 { return position }
            position += 1
        }
        return to
    }

    /// Every byte value at every place of a 40-byte run of sentence bytes (so in either half of a
    /// sixteen-byte load, in the eight-byte tail and in the last bytes), from several starts and ends.
    @Test func everyByteValueAtEveryPlaceIsFoundAsTheRuleSays() {
        let plain = Array("GPGSV,3,1,11,03,03,111,00,04,15,270,00,06".utf8)
        for value in 0...255 {
            for place in plain.indices {
                var bytes = plain
                bytes[place] = UInt8(value)
                for from in [0, 1, 7] {
                    for to in [plain.count, plain.count - 3, 24, 17] where to >= from {
                        let found = bytes.withUnsafeBufferPointer { NMEAFramer.firstNonSentenceByte($0.baseAddress!, from: from, to: to) }
                        let expected = Self.firstNonSentenceByteOneAtATime(bytes, from: from, to: to)
                        #expect(found == expected, "byte \(value) at \(place), from \(from) to \(to)")
                    }
                }
            }
        }
    }

    /// Spaces, `"` and `#` (flagged by the wide compare, but sentence bytes) before the byte that ends
    /// the run, at every place: the scan goes on after each of them.
    @Test func printableBytesBelowPercentBeforeTheEndAreSkipped() {
        let plain = Array("GPTXT,01,01,02,ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".utf8)
        for filler: UInt8 in [0x20, 0x22, 0x23] {
            for place in plain.indices {
                for end in place..<plain.count {
                    var bytes = plain
                    for index in stride(from: place, to: end, by: 3) { bytes[index] = filler }
                    bytes[end] = 0x0A
                    let found = bytes.withUnsafeBufferPointer { NMEAFramer.firstNonSentenceByte($0.baseAddress!, from: 0, to: bytes.count) }
                    #expect(found == end, "fillers from \(place), line feed at \(end)")
                }
            }
        }
    }
}
