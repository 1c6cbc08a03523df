import DeviceSimNMEA
import DeviceSimTime
import Foundation
import Testing

/// Decoding an input in pieces cut at `NMEAFramer.cutPoint(in:)` (as `devicesim nmea decode` does on
/// several threads) gives exactly what one decoder over the whole input gives.
@Suite struct NMEAPieceDecodingTests {
    /// What a decoding produced.
    struct Decoded: Equatable {
        var reports: [NMEAFixAssembler.Report] = []
        var statistics = NMEAStatistics()
    }

    static func decodeWhole(_ bytes: [UInt8], maximumSentenceLength: Int = 256) -> Decoded {
        var decoder = NMEADecoder(maximumSentenceLength: maximumSentenceLength)
        var decoded = Decoded()
        bytes.withUnsafeBytes { decoder.feed($0) { decoded.reports.append($0) } }
        decoder.finish { decoded.reports.append($0) }
        decoded.statistics = decoder.statistics
        return decoded
    }

    /// Reads `bytes` in windows of `window` bytes, cuts each at its cut point (carrying the rest into
    /// the next window), parses the pieces apart and assembles their sentences in order. `forcedCut`
    /// tells whether a window had no cut point and was cut at its end (the reports are still the same
    /// when the window is longer than a sentence can be; overlong bytes may then count as noise).
    static func decodeInPieces(_ bytes: [UInt8], window: Int, maximumSentenceLength: Int = 256) -> (Decoded, forcedCut: Bool) {
        var decoded = Decoded()
        var assembler = NMEAFixAssembler()
        var forcedCut = false
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + window)
            var cut = end
            if end < bytes.count {
                if let point = bytes[start..<end].withUnsafeBytes({ NMEAFramer.cutPoint(in: $0) }) {
                    cut = start + point
                } else {
                    forcedCut = true
                }
            }
            var sentences: [NMEASentence] = []
            let counts = bytes[start..<cut].withUnsafeBytes {
                NMEADecoder.parseSentences(in: $0, maximumSentenceLength: maximumSentenceLength, into: &sentences)
            }
            decoded.statistics = decoded.statistics.merging(counts)
            for sentence in sentences { assembler.add(sentence) { decoded.reports.append($0) } }
            start = cut
        }
        assembler.finish { decoded.reports.append($0) }
        return (decoded, forcedCut)
    }

    @Test func everyCorpusLogDecodesTheSameInPieces() throws {
        let logs = CorpusComparison.logs
        #expect(logs.count > 100)
        for log in logs {
            let bytes = [UInt8](try Data(contentsOf: log))
            let whole = Self.decodeWhole(bytes)
            for window in [300, 4_096, 65_536] {
                let (pieces, forcedCut) = Self.decodeInPieces(bytes, window: window)
                #expect(pieces.reports == whole.reports, "\(log.lastPathComponent), windows of \(window) bytes")
                if !forcedCut {
                    #expect(pieces.statistics == whole.statistics, "\(log.lastPathComponent), windows of \(window) bytes")
                }
                #expect(pieces.statistics.sentenceBytes + pieces.statistics.skippedBytes == bytes.count)
            }
        }
    }

    @Test func theCutPointIsAfterTheLastLineFeedElseBeforeTheLastSentenceStart() {
        func cut(_ text: String) -> Int? { Array(text.utf8).withUnsafeBytes { NMEAFramer.cutPoint(in: $0) } }
        #expect(cut("$GPGGA,1\r\n$GPRMC,2\r\n$GPG") == 20)
        #expect(cut("$GPGGA,1,$GPRMC,2") == 9)
        #expect(cut("noise!more") == 5)
        #expect(cut("$noise") == nil)  // a start at the first byte leaves nothing before it
        #expect(cut("noise") == nil)
        #expect(cut("") == nil)
    }

    @Test func mutatedInputDecodesTheSameInPieces() throws {
        var random = SeededRandomGenerator(seed: 20_261_123)
        let logs = CorpusComparison.logs
        var forcedCuts = 0
        for round in 0..<200 {
            let data = try Data(contentsOf: logs[Int(random.next() % UInt64(logs.count))])
            let start = data.isEmpty ? 0 : Int(random.next() % UInt64(data.count))
            var bytes = [UInt8](data[start..<min(data.count, start + 1 + Int(random.next() % 16_384))])
            for _ in 0..<Int(random.next() % 40) where !bytes.isEmpty {
                let position = Int(random.next() % UInt64(bytes.count))
                switch random.next() % 3 {
                case 0: bytes[position] = UInt8(truncatingIfNeeded: random.next())
                case 1: bytes.insert(contentsOf: Array("$GPGGA,".utf8), at: position)
                default: bytes[position] = [0x24, 0x2A, 0x0A, 0x0D, 0x2C, 0x21][Int(random.next() % 6)]
                }
            }
            let maximumLength = 64 + Int(random.next() % 256)
            let whole = Self.decodeWhole(bytes, maximumSentenceLength: maximumLength)
            // A window longer than a sentence can be: one with no cut point holds no sentence to lose.
            let window = maximumLength + 2 + Int(random.next() % 2_048)
            let (pieces, forcedCut) = Self.decodeInPieces(bytes, window: window, maximumSentenceLength: maximumLength)
            #expect(pieces.reports == whole.reports, "round \(round)")
            if !forcedCut { #expect(pieces.statistics == whole.statistics, "round \(round)") }
            #expect(pieces.statistics.sentenceBytes + pieces.statistics.skippedBytes == bytes.count)
            forcedCuts += forcedCut ? 1 : 0
        }
        #expect(forcedCuts < 20)  // the statistics were compared in most rounds
    }
}
