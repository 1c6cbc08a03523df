#if canImport(DeviceSimGPSD)
import ArgumentParser
import DeviceSimGPSD
import DeviceSimNMEA
import DeviceSimScenario
import DeviceSimTime
import Foundation

/// `devicesim record`: record what a GPS receiver sends through gpsd.
struct RecordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record what a GPS receiver sends through gpsd, as NMEA (for playback) or gpsd JSON.",
        discussion: """
            Records until Ctrl-C or for --duration. Lines are written as they arrive: a recording cut short keeps everything received. Play an NMEA recording back in a scenario with
              devices: [{ id: walker, track: { file: walk.nmea } }]
            Example:
              devicesim record --gpsd localhost:2947 --out walk.nmea --duration 10m

            gpsd out of reach is said at once, and the connection is retried, waiting 0.25 s doubling to 4 s. A line too long or left unfinished drops the connection, which is then retried waiting longer each time (up to 30 s); what gpsd sends that cannot be used is said once for each kind, and the last line counts the fixes seen and those dropped (a position out of range), and why. The recording keeps the lines as gpsd sent them.

            Exit status: 0 recorded until --duration or Ctrl-C; 1 writing the recording failed; 2 invalid input or usage (a bad option, a file that cannot be created); 3 gpsd was never reached.
            """
    )

    @Option(help: ArgumentHelp("gpsd's address, HOST[:PORT].", valueName: "host:port"))
    var gpsd: String = "localhost:2947"

    @Option(name: .shortAndLong, help: ArgumentHelp("The recording to write.", valueName: "file"))
    var out: String

    @Option(help: "nmea (sentences, for playback) or json (gpsd reports).")
    var format: String = "nmea"

    @Option(parsing: .unconditional, help: "Stop after this long, longer than 0s, e.g. 90s, 10m (default: until Ctrl-C).")
    var duration: String?

    @Option(name: .customLong("gpsd-device"), help: ArgumentHelp("Only this gpsd device, e.g. /dev/ttyACM0 (default: every device); as live's --gpsd-device.", valueName: "path"))
    var gpsdDevice: String?

    /// The old spelling of `--gpsd-device` (`--device` names a scenario device in live and serve).
    @Option(name: .customLong("device"), help: .hidden)
    var deviceAlias: String?

    /// The gpsd device asked for, by either spelling.
    var device: String? { gpsdDevice ?? deviceAlias }

    @Flag(name: .shortAndLong, help: "Print no progress (problems with gpsd or the receiver still show).")
    var quiet = false

    func validate() throws {
        guard GPSDRecorder.Format(rawValue: format) != nil else { throw ValidationError("--format must be nmea or json.") }
        if let duration { _ = try OptionValues.positiveDuration(duration, option: "--duration") }
        do { _ = try GPSDEndpoint(parsing: gpsd) } catch { throw ValidationError("--gpsd: \(error)") }
    }

    func run() throws {
        let endpoint = try GPSDEndpoint(parsing: gpsd)
        ConsoleLogHandler.bootstrap()
        let recorder = try GPSDRecorder.open(endpoint: endpoint, device: device, path: out, format: GPSDRecorder.Format(rawValue: format)!)
        let stop = StopSignal()
        let handlers = InterruptHandling.install(raising: stop)
        defer { handlers.forEach { $0.cancel() } }
        recorder.start()
        let clock = ContinuousClock()
        let end = duration.flatMap(DurationText.parse).map { clock.now + $0 }
        var lastReport = clock.now
        while !stop.isRaised {
            if let end, clock.now >= end { break }
            Thread.sleep(forTimeInterval: 0.1)
            let progress = recorder.progress
            for change in recorder.status.take().changes { Terminal.standardError.write("\(change)\n") }
            if !quiet, lastReport.duration(to: clock.now) >= .seconds(5) {
                lastReport = clock.now
                Terminal.standardError.write("recorded \(Plural.count(progress.lines, "line")), \(Plural.count(progress.fixes, "fix", plural: "fixes")), \(Plural.count(progress.bytes, "byte"))\n")
            }
            if let error = recorder.writeError {
                recorder.stop()
                Terminal.standardError.write("error: \(error)\n")
                throw ExitCode(1)
            }
        }
        recorder.stop()
        for change in recorder.status.take().changes { Terminal.standardError.write("\(change)\n") }
        if let error = recorder.writeError {
            Terminal.standardError.write("error: \(error)\n")
            throw ExitCode(1)
        }
        let progress = recorder.progress
        Terminal.standardError.write("wrote \(Plural.count(progress.lines, "line")) (\(Plural.count(progress.fixes, "fix", plural: "fixes"))) to \(out)\n")
        let statistics = recorder.statistics
        Terminal.standardError.write("\(statistics)\n")
        if statistics.connections == 0 {
            Terminal.standardError.write("error: never connected to gpsd at \(endpoint) (\(Plural.count(statistics.attempts, "attempt")))\n")
            throw ExitCode(3)
        }
    }
}

extension GPSDRecorder {
    /// A recorder writing to `path`; when the file cannot be created, the error goes to standard error
    /// and the command exits with 2.
    static func open(endpoint: GPSDEndpoint, device: String?, path: String, format: Format) throws -> GPSDRecorder {
        do {
            return try GPSDRecorder(endpoint: endpoint, device: device, output: URL(fileURLWithPath: path), format: format)
        } catch {
            Terminal.standardError.write("error: \(error)\n")
            throw ExitCode(2)
        }
    }
}
#endif
