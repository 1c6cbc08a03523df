#if canImport(DeviceSimGPSD)
import ArgumentParser
import DeviceSim
import DeviceSimGPSD
import Foundation

/// `devicesim live`: a scenario's flows on the wall clock, with real fixes from gpsd.
struct LiveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "live",
        abstract: "Run a scenario's app flows on the wall clock with real fixes from a GPS receiver through gpsd.",
        discussion: """
            The chosen device takes its location from gpsd; everything else (timeline, other devices,
            simulated radios) comes from the scenario. Events print as they happen; Ctrl-C stops
            cleanly, with the trace written. Without a receiver, serve a log with
            Simulator/fake-gpsd/serve.sh. Example:
              devicesim live --gpsd localhost:2947 Scenarios/dog-walk/walk-2km.yaml --trace live.jsonl
            """
    )

    @Argument(help: "The scenario whose app and timeline to run.", completion: .file(extensions: ["yaml", "yml"]))
    var scenario: String

    @Option(help: ArgumentHelp("gpsd's address, HOST[:PORT].", valueName: "host:port"))
    var gpsd: String = "localhost:2947"

    @Option(help: "The scenario device that uses the receiver (default: the first).")
    var device: String?

    @Option(help: "Only this gpsd device, e.g. /dev/ttyACM0 (default: any).")
    var gpsdDevice: String?

    @Option(help: ArgumentHelp("Write the trace as JSON Lines to this file, line by line.", valueName: "file"))
    var trace: String?

    @Option(help: ArgumentHelp("Also record the receiver's NMEA to this file, for playback.", valueName: "file"))
    var record: String?

    @Option(help: "Stop after this long (default: the scenario's duration).")
    var duration: String?

    @Option(help: "Location becomes unavailable after this long without a fix.")
    var staleAfter: String = "5s"

    @Flag(name: .shortAndLong, help: "Print no events, only the summary.")
    var quiet = false

    func validate() throws {
        do { _ = try GPSDEndpoint(parsing: gpsd) } catch { throw ValidationError("--gpsd: \(error)") }
        if let duration, DurationText.parse(duration) == nil { throw ValidationError("--duration must be a duration such as 90s or 10m.") }
        guard DurationText.parse(staleAfter) != nil else { throw ValidationError("--stale-after must be a duration such as 5s.") }
    }

    func run() throws {
        let endpoint = try GPSDEndpoint(parsing: gpsd)
        let parsed: Scenario
        do {
            parsed = try ScenarioParser.parse(contentsOf: scenario)
        } catch {
            Terminal.standardError.write("error: \(error)\n")
            throw ExitCode(2)
        }
        guard let chosen = device.map({ id in parsed.devices.first { $0.id == id } }) ?? parsed.devices.first else {
            Terminal.standardError.write("error: the scenario has no device '\(device ?? "")'; it has \(parsed.devices.map(\.id).joined(separator: ", "))\n")
            throw ExitCode(2)
        }
        let stale = DurationText.parse(staleAfter)!
        let recorder = TraceRecorder()
        var traceFile: FileHandle?
        if let trace {
            guard FileManager.default.createFile(atPath: trace, contents: nil), let handle = FileHandle(forWritingAtPath: trace) else {
                Terminal.standardError.write("error: cannot write the trace \(trace)\n")
                throw ExitCode(2)
            }
            traceFile = handle
        }
        recorder.forward(to: LiveEventPrinter(quiet: quiet, file: traceFile))
        var gps: GPSDLocationProvider?
        let simulation = ScenarioSimulation(parsed, trace: recorder, locationSources: [chosen.id: { scheduler in
            let provider = GPSDLocationProvider(scheduler: scheduler, endpoint: endpoint, device: gpsdDevice, staleAfter: stale)
            provider.start()
            gps = provider
            return provider
        }])
        let nmeaRecorder = try record.map { path in try GPSDRecorder.open(endpoint: endpoint, device: gpsdDevice, path: path, format: .nmea) }
        nmeaRecorder?.start()
        let stop = StopSignal()
        let handlers = InterruptHandling.install(raising: stop)
        defer { handlers.forEach { $0.cancel() } }
        if !quiet { Terminal.standardError.write("live: \(parsed.name) — device \(chosen.id) on gpsd at \(endpoint); Ctrl-C to stop\n") }
        do {
            try simulation.runLive(stop: stop, for: duration.flatMap(DurationText.parse))
        } catch {
            Terminal.standardError.write("error: \(error)\n")
        }
        gps?.stop()
        nmeaRecorder?.stop()
        try? traceFile?.close()
        let events = simulation.trace.events
        let outcomes = parsed.expectations.map { ExpectationEvaluator.evaluate($0, events: events) }
        let received = gps?.fixesReceived ?? 0
        Terminal.standardOutput.write("live run: \(VirtualInstantFormatting.seconds(simulation.scheduler.now)) s, \(received) fixes from gpsd, \(events.count) events\n")
        for outcome in outcomes {
            Terminal.standardOutput.write("  \(outcome.passed ? "✓" : "✗") expected \(outcome.expected); observed \(outcome.observed)\n")
        }
        if let progress = nmeaRecorder?.progress {
            Terminal.standardOutput.write("recorded \(progress.lines) NMEA lines to \(record ?? "")\n")
        }
    }
}

/// Prints events as they happen and appends them to a JSON Lines file.
final class LiveEventPrinter: EventSink {
    let quiet: Bool
    let file: FileHandle?

    init(quiet: Bool, file: FileHandle?) {
        self.quiet = quiet
        self.file = file
    }

    func record(_ event: TraceEvent) {
        if let file { try? file.write(contentsOf: Data((event.jsonLine + "\n").utf8)) }
        guard !quiet else { return }
        var line = VirtualInstantFormatting.seconds(event.time) + "s  " + (event.device.map { "\($0)  " } ?? "") + event.name
        for (key, value) in event.fields { line += "  \(key)=\(value)" }
        Terminal.standardOutput.write(line + "\n")
    }
}
#endif
