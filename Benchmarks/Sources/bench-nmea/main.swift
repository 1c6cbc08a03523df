// NMEA decoding throughput on one core: the gpsd corpus repeated to about 50 MB, decoded in memory
// in 64 KiB chunks (as from a file or a socket), best of several runs.
import DeviceSim
import Foundation

/// One decoding pass over `bytes`: seconds, fixes emitted, and the decoder's counts.
func decodeOnce(_ bytes: [UInt8]) -> (seconds: Double, fixes: Int, statistics: NMEAStatistics) {
    var decoder = NMEADecoder()
    let counter = FixCounter()
    let clock = ContinuousClock()
    let start = clock.now
    bytes.withUnsafeBytes { all in
        var offset = 0
        while offset < all.count {
            let end = min(all.count, offset + 65_536)
            decoder.feed(UnsafeRawBufferPointer(rebasing: all[offset..<end]), emit: counter.count)
            offset = end
        }
    }
    decoder.finish(emit: counter.count)
    return (start.duration(to: clock.now).inSeconds, counter.fixes, decoder.statistics)
}

final class FixCounter {
    var fixes = 0

    func count(_ report: NMEAFixAssembler.Report) {
        if case .fix = report { fixes += 1 }
    }
}

func main() throws {
    let corpusFolder = CommandLine.arguments.dropFirst().first ?? "../Tests/DeviceSimNMEATests/Fixtures/gpsd-nmea"
    let files = try FileManager.default.contentsOfDirectory(atPath: corpusFolder).filter { $0.hasSuffix(".log") }.sorted()
    var corpus = Data()
    for file in files { corpus += try Data(contentsOf: URL(fileURLWithPath: corpusFolder + "/" + file)) }
    guard !corpus.isEmpty else { fatalError("no .log files in \(corpusFolder)") }
    var input = Data()
    while input.count < 50_000_000 { input += corpus }
    let bytes = [UInt8](input)
    print("corpus: \(files.count) logs, \(corpus.count) bytes; input \(bytes.count) bytes (\(String(format: "%.1f", Double(bytes.count) / 1e6)) MB)")
    var best = Double.infinity
    var result = decodeOnce(bytes)
    for _ in 0..<5 {
        result = decodeOnce(bytes)
        best = min(best, result.seconds)
    }
    let megabytesPerSecond = Double(bytes.count) / 1e6 / best
    print("decode: best of 5 \(String(format: "%.3f", best)) s, \(String(format: "%.0f", megabytesPerSecond)) MB/s, \(result.fixes) fixes, \(result.statistics.decodedSentences) sentences, \(result.statistics.skippedBytes) bytes skipped")
}

try main()
