import ArgumentParser
import DeviceSimNMEA
import DeviceSimReport
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
            Reads FILE (or standard input for '-') in pieces, in constant memory whatever its size, and
            decodes them on every core (--threads); the output is in input order and the same for any
            number of threads. Bad checksums, truncated lines, unknown sentences and binary noise are
            skipped and counted; --stats prints the counts to standard error. Standard output that
            goes to FILE itself is refused (exit 2): it would grow as it is read. Compare the output with
            gpsd's own:
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

    @Option(parsing: .unconditional, help: "Skip sentences longer than this many bytes.")
    var maxSentenceLength = 256

    @Option(parsing: .unconditional, help: "Decode on this many threads (default: one per core). The output is the same for any number.")
    var threads: Int?

    func validate() throws {
        guard maxSentenceLength >= 16 else { throw ValidationError("--max-sentence-length must be at least 16, found \(maxSentenceLength).") }
        guard maxSentenceLength <= 1 << 20 else { throw ValidationError("--max-sentence-length must be at most 1048576, found \(maxSentenceLength).") }
        if let threads, !(1...256).contains(threads) { throw ValidationError("--threads must be between 1 and 256, found \(threads).") }
    }

    func run() throws {
        var files = FileRoles()
        if file != "-" { files.input("the NMEA log", file) }
        try files.check()
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
        let pipeline = NMEADecodePipeline(input: input, inputName: file, maximumSentenceLength: maxSentenceLength, skipSky: noSky)
        pipeline.run(threads: threads ?? ProcessInfo.processInfo.activeProcessorCount)
        if input != STDIN_FILENO { close(input) }
        if let failure = pipeline.readFailure {
            Terminal.standardError.write("error: \(failure)\n")
            throw ExitCode(2)
        }
        if stats {
            var text = ""
            for (name, value) in pipeline.statistics.counts { text += "\(name): \(value)\n" }
            Terminal.standardError.write(text)
        }
    }
}

/// Standard output through one reused buffer: reports are written straight into it, and it goes out
/// in one `write` whenever the next report might not fit.
struct OutputBuffer: ~Copyable {
    private let base: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    private var count = 0

    init(capacity: Int) {
        self.capacity = capacity
        base = .allocate(capacity: capacity)
    }

    deinit {
        base.deallocate()
    }

    mutating func write(_ report: NMEAFixAssembler.Report) {
        // The room the report needs (as GPSDJSON.maximumSize(of:)), without copying a fix to find out.
        let room: Int
        if case .sky(let sky) = report {
            room = GPSDJSON.maximumSize(ofSkyWith: sky.satellites.count)
        } else {
            room = GPSDJSON.maximumFixSize
        }
        if count + room > capacity { flush() }
        if room > capacity {
            var bytes: [UInt8] = []
            GPSDJSON.append(report, to: &bytes)
            bytes.withUnsafeBytes { Terminal.standardOutput.write($0) }
            return
        }
        count += GPSDJSON.write(report, to: base + count)
    }

    mutating func flush() {
        guard count > 0 else { return }
        Terminal.standardOutput.write(UnsafeRawBufferPointer(start: base, count: count))
        count = 0
    }
}
