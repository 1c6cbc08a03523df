import ArgumentParser
import DeviceSim
import Foundation

/// `devicesim nmea`: tools for NMEA 0183 logs.
struct NMEACommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nmea",
        abstract: "Decode NMEA 0183 logs to gpsd JSON, and export routes and GPX tracks as NMEA logs.",
        subcommands: [NMEADecodeCommand.self, NMEAExportCommand.self]
    )
}

/// `devicesim nmea decode`.
struct NMEADecodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "decode",
        abstract: "Decode an NMEA log into gpsd-style JSON Lines (class TPV per fix, SKY per satellite report).",
        discussion: """
            Reads FILE (or standard input for '-') in chunks, in constant memory, whatever its size.
            Bad checksums, truncated lines, unknown sentences and binary noise are skipped and counted;
            --stats prints the counts to standard error. Compare the output with gpsd's own:
              devicesim nmea decode capture.log
              gpsdecode < capture.log
            """
    )

    @Argument(help: "An NMEA log, or '-' for standard input.", completion: .file())
    var file: String

    @Flag(help: "Print counts of decoded and skipped input to standard error.")
    var stats = false

    @Flag(help: "Leave out SKY (satellite) reports.")
    var noSky = false

    @Option(help: "Skip sentences longer than this many bytes.")
    var maxSentenceLength = 256

    func validate() throws {
        guard maxSentenceLength >= 16 else { throw ValidationError("--max-sentence-length must be at least 16.") }
    }

    func run() throws {
        let input: Int32
        if file == "-" {
            input = STDIN_FILENO
        } else {
            input = open(file, O_RDONLY)
            guard input >= 0 else {
                Terminal.standardError.write("error: cannot open \(file): \(String(cString: strerror(errno)))\n")
                throw ExitCode(2)
            }
        }
        // Two stages on two threads: reading and decoding on a thread of their own, JSON and writing on
        // the main thread; reports go between them in batches (order kept, memory bounded).
        let channel = ReportBatches(capacity: 8)
        let maximumLength = maxSentenceLength
        let skipSky = noSky
        Thread {
            var decoder = NMEADecoder(maximumSentenceLength: maximumLength)
            var batch: [NMEAFixAssembler.Report] = []
            batch.reserveCapacity(ReportBatches.batchSize)
            func emit(_ report: NMEAFixAssembler.Report) {
                if skipSky, case .sky = report { return }
                batch.append(report)
                if batch.count == ReportBatches.batchSize {
                    channel.send(batch)
                    batch.removeAll(keepingCapacity: true)
                }
            }
            let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 64)
            defer { chunk.deallocate() }
            while true {
                let count = read(input, chunk.baseAddress, chunk.count)
                if count < 0, errno == EINTR { continue }
                if count < 0 { channel.fail("cannot read \(file): \(String(cString: strerror(errno)))") }
                if count <= 0 { break }
                decoder.feed(UnsafeRawBufferPointer(rebasing: chunk[0..<count]), emit: emit)
            }
            if input != STDIN_FILENO { close(input) }
            decoder.finish(emit: emit)
            channel.send(batch)
            channel.finish(with: decoder.statistics)
        }.start()
        let output = OutputBuffer(capacity: 1 << 21)
        defer { output.release() }
        while let batch = channel.receive() {
            for report in batch { output.write(report) }
        }
        output.flush()
        if let failure = channel.readFailure {
            Terminal.standardError.write("error: \(failure)\n")
            throw ExitCode(2)
        }
        if stats, let statistics = channel.statistics {
            var text = ""
            for (name, value) in statistics.counts { text += "\(name): \(value)\n" }
            Terminal.standardError.write(text)
        }
    }
}

/// Standard output through one reused buffer: reports are written straight into it, and it goes out
/// in one `write` whenever the next report might not fit.
final class OutputBuffer {
    private let base: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    private var count = 0

    init(capacity: Int) {
        self.capacity = capacity
        base = .allocate(capacity: capacity)
    }

    func write(_ report: NMEAFixAssembler.Report) {
        let room = GPSDJSON.maximumSize(of: report)
        if count + room > capacity { flush() }
        if room > capacity {
            var bytes: [UInt8] = []
            GPSDJSON.append(report, to: &bytes)
            FileHandle.standardOutput.write(Data(bytes))
            return
        }
        count += GPSDJSON.write(report, to: base + count)
    }

    func flush() {
        guard count > 0 else { return }
        FileHandle.standardOutput.write(Data(bytesNoCopy: base, count: count, deallocator: .none))
        count = 0
    }

    func release() {
        base.deallocate()
    }
}

/// Batches of reports from the decoding thread to the writing one, at most `capacity` waiting.
final class ReportBatches: @unchecked Sendable {
    static let batchSize = 2_048
    private let condition = NSCondition()
    private var queue: [[NMEAFixAssembler.Report]] = []
    private var finished = false
    private let capacity: Int
    private var finalStatistics: NMEAStatistics?
    private var failure: String?

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Waits while the queue is full, then adds `batch`.
    func send(_ batch: [NMEAFixAssembler.Report]) {
        guard !batch.isEmpty else { return }
        condition.lock()
        while queue.count >= capacity { condition.wait() }
        queue.append(batch)
        condition.broadcast()
        condition.unlock()
    }

    /// No more batches; the decoder's counts.
    func finish(with statistics: NMEAStatistics) {
        condition.lock()
        finished = true
        finalStatistics = statistics
        condition.broadcast()
        condition.unlock()
    }

    /// Reading failed: `message` is reported once the batches before it are written.
    func fail(_ message: String) {
        condition.lock()
        failure = message
        condition.unlock()
    }

    /// Why reading stopped early, if it did.
    var readFailure: String? {
        condition.lock()
        defer { condition.unlock() }
        return failure
    }

    /// The next batch, waiting for one; nil once finished and drained.
    func receive() -> [NMEAFixAssembler.Report]? {
        condition.lock()
        defer { condition.unlock() }
        while queue.isEmpty, !finished { condition.wait() }
        guard !queue.isEmpty else { return nil }
        let batch = queue.removeFirst()
        condition.broadcast()
        return batch
    }

    /// The decoder's counts, once finished.
    var statistics: NMEAStatistics? {
        condition.lock()
        defer { condition.unlock() }
        return finalStatistics
    }
}
