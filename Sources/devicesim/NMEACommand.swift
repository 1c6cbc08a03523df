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
        let input: FileHandle
        if file == "-" {
            input = FileHandle.standardInput
        } else {
            guard let handle = FileHandle(forReadingAtPath: file) else {
                Terminal.standardError.write("error: cannot open \(file): no such file or not readable\n")
                throw ExitCode(2)
            }
            input = handle
        }
        var decoder = NMEADecoder(maximumSentenceLength: maxSentenceLength)
        var out: [UInt8] = []
        out.reserveCapacity(1 << 21)
        let skipSky = noSky
        let output = FileHandle.standardOutput
        func emit(_ report: NMEAFixAssembler.Report) {
            if skipSky, case .sky = report { return }
            GPSDJSON.append(report, to: &out)
        }
        while true {
            let chunk = input.readData(ofLength: 1 << 20)
            if chunk.isEmpty { break }
            chunk.withUnsafeBytes { decoder.feed($0, emit: emit) }
            if out.count >= 1 << 20 {
                output.write(Data(out))
                out.removeAll(keepingCapacity: true)
            }
        }
        decoder.finish(emit: emit)
        output.write(Data(out))
        if stats {
            let statistics = decoder.statistics
            var text = ""
            for (name, value) in statistics.counts { text += "\(name): \(value)\n" }
            Terminal.standardError.write(text)
        }
    }
}
