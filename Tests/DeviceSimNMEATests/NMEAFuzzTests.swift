import DeviceSimNMEA
import DeviceSimTime
import Foundation
import Testing

/// A bounded, seeded mutation test over the corpus: flipped, inserted, deleted and truncated bytes, fed
/// in random chunk sizes. The decoder must never crash or hang, and must account for every byte.
@Suite struct NMEAFuzzTests {
    @Test func mutatedCorpusInputIsAccountedForByteByByte() throws {
        var random = SeededRandomGenerator(seed: 20_261_122)
        let logs = CorpusComparison.logs
        #expect(!logs.isEmpty)
        var cases = 0
        for round in 0..<400 {
            let log = logs[Int(random.next() % UInt64(logs.count))]
            let data = try Data(contentsOf: log)
            let start = data.isEmpty ? 0 : Int(random.next() % UInt64(data.count))
            var bytes = [UInt8](data[start..<min(data.count, start + 1 + Int(random.next() % 16_384))])
            let mutations = Int(random.next() % 40)
            for _ in 0..<mutations where !bytes.isEmpty {
                let position = Int(random.next() % UInt64(bytes.count))
                switch random.next() % 5 {
                case 0: bytes[position] ^= UInt8(truncatingIfNeeded: 1 << (random.next() % 8))
                case 1: bytes.insert(UInt8(truncatingIfNeeded: random.next()), at: position)
                case 2: bytes.remove(at: position)
                case 3: bytes.insert(contentsOf: Array("$GPGGA,".utf8), at: position)
                default: bytes[position] = [0x24, 0x2A, 0x0A, 0x0D, 0x2C, 0x21][Int(random.next() % 6)]
                }
            }
            if round % 7 == 0 { bytes += (0..<Int(random.next() % 2048)).map { _ in UInt8(truncatingIfNeeded: random.next()) } }
            var decoder = NMEADecoder(maximumSentenceLength: 64 + Int(random.next() % 256))
            var offset = 0
            var reports = 0
            while offset < bytes.count {
                let size = 1 + Int(random.next() % 4_096)
                let end = min(bytes.count, offset + size)
                bytes[offset..<end].withUnsafeBytes { decoder.feed($0) { _ in reports += 1 } }
                offset = end
                let statistics = decoder.statistics
                #expect(statistics.sentenceBytes + statistics.skippedBytes + statistics.pendingBytes == statistics.bytesRead)
            }
            decoder.finish { _ in reports += 1 }
            let statistics = decoder.statistics
            #expect(statistics.bytesRead == bytes.count)
            #expect(statistics.sentenceBytes + statistics.skippedBytes == bytes.count, "round \(round) of \(log.lastPathComponent)")
            cases += 1
        }
        #expect(cases == 400)
    }

    @Test func pureNoiseDecodesToNothingAndIsAllSkipped() {
        var random = SeededRandomGenerator(seed: 7)
        let bytes = (0..<200_000).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        var decoder = NMEADecoder()
        var reports = 0
        bytes.withUnsafeBytes { decoder.feed($0) { _ in reports += 1 } }
        decoder.finish { _ in reports += 1 }
        #expect(decoder.statistics.skippedBytes + decoder.statistics.sentenceBytes == bytes.count)
        #expect(decoder.statistics.decodedSentences == 0)
    }
}
