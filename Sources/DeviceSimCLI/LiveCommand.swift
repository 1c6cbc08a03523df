#if canImport(DeviceSimGPSD)
import ArgumentParser
import DeviceSimGPSD
import DeviceSimHAL
import DeviceSimNMEA
import DeviceSimScenario
import DeviceSimTime
import Foundation
import Logging

/// `devicesim live`: a scenario's flows on the wall clock, with real fixes from gpsd.
struct LiveCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "live",
        abstract: "Run a scenario's app flows on the wall clock with real fixes from a GPS receiver through gpsd.",
        discussion: """
            The chosen device takes its location from gpsd; everything else (timeline, other devices, simulated radios) comes from the scenario. Events print as they happen, problems with gpsd or the receiver when they start and end, and on a terminal a status line shows the fix, satellites, HDOP, position and age of the last fix. On a terminal the device's prompts are answered with a keypress (1, 2, ...) and the scenario's scripted answers for it are skipped; in a pipe the script answers. The trace streams to --trace as events happen; Ctrl-C or SIGTERM stops cleanly, with the trace and the recording complete. Without a receiver, serve a log with Simulator/fake-gpsd/serve.sh. Example:
              devicesim live --gpsd localhost:2947 Scenarios/dog-walk/walk-2km.yaml \\
                --trace live.jsonl

            gpsd out of reach is said at once, and the connection is retried, waiting 0.25 s doubling to 4 s. A fix whose position is out of range (latitude beyond ±90, longitude beyond ±180) never reaches the app; a line gpsd sends that cannot be used is skipped, and a line too long or left unfinished drops the connection, which is then retried waiting longer each time (up to 30 s). The first of each kind is said; the last line of the summary counts the fixes used and those dropped, and why.

            The expectations are judged at the end: ✓ held, ✗ failed, – not judged. A run stopped early (Ctrl-C, --duration) judges only what is already decided: a 'never', 'at-most' or exact count already exceeded fails and an 'at-least' (or an event that must exist) already met passes, whatever the window; one whose window (or instant) ended by the stop is judged as 'run' judges it; the others are not judged. One that failed after you answered a prompt differently from the scenario's script says so ("✗ after your own answers (the script answers ... with ...; you answered ...)").

            Exit status: 0 the run ended and no expectation failed (those not judged, and those failed after your own answers, do not count); 1 an expectation failed, the app's main-actor code held the main thread past the limit (5 s; DEVICESIM_MAIN_THREAD_LIMIT=30s changes it), or writing the trace or the recording failed during the run; 2 invalid input or usage (a scenario that does not parse, a bad option, a file that cannot be created, a --trace or --record that is the scenario file, one of its track files or the other output); 3 gpsd was never reached during the run.
            """
    )

    @Argument(help: "The scenario whose app and timeline to run.", completion: .file(extensions: ["yaml", "yml"]))
    var scenario: String

    @Option(help: ArgumentHelp("gpsd's address, HOST[:PORT].", valueName: "host:port"))
    var gpsd: String = "localhost:2947"

    @Option(help: ArgumentHelp("The scenario device that uses the receiver (default: the first).", valueName: "id"))
    var device: String?

    @Option(help: ArgumentHelp("Only this gpsd device, e.g. /dev/ttyACM0 (default: every device).", valueName: "path"))
    var gpsdDevice: String?

    @Option(help: ArgumentHelp("Write the trace as JSON Lines to this file, line by line.", valueName: "file"))
    var trace: String?

    @Option(help: ArgumentHelp("Also record the receiver's NMEA to this file, for playback.", valueName: "file"))
    var record: String?

    @Option(parsing: .unconditional, help: "Stop after this long, longer than 0s (default: the scenario's duration).")
    var duration: String?

    @Option(parsing: .unconditional, help: "Location becomes unavailable after this long without a fix.")
    var staleAfter: String = "5s"

    @Flag(name: .shortAndLong, help: "Print no events and no status line, only problems with gpsd and the summary.")
    var quiet = false

    func validate() throws {
        do { _ = try GPSDEndpoint(parsing: gpsd) } catch { throw ValidationError("--gpsd: \(error)") }
        if let duration { _ = try OptionValues.positiveDuration(duration, option: "--duration") }
        _ = try OptionValues.positiveDuration(staleAfter, option: "--stale-after")
    }

    func run() throws {
        let endpoint = try GPSDEndpoint(parsing: gpsd)
        let parsed = try FileRoles.scenarioToRun(scenario, outputs: [("--trace", trace), ("--record", record)])
        guard let chosen = device.map({ id in parsed.devices.first { $0.id == id } }) ?? parsed.devices.first else {
            Terminal.standardError.write("error: the scenario has no device '\(device ?? "")'; it has \(parsed.devices.map(\.id).joined(separator: ", "))\n")
            throw ExitCode(2)
        }
        let stale = DurationText.parse(staleAfter)!
        let console = LiveConsole(showsStatusLine: !quiet && isatty(1) == 1)
        ConsoleLogHandler.bootstrap(console: console)
        // The trace streams: events go to the file, the printer and the expectation tally as they
        // happen, and none is kept in memory, so a day-long run stays flat.
        let recorder = TraceRecorder(keepsEvents: false)
        let traceWriter = try streamingTrace(to: trace, from: recorder)
        let tally = ExpectationTally(parsed.expectations)
        recorder.forward(to: tally)
        let counter = EventCounter()
        recorder.forward(to: LiveEventPrinter(quiet: quiet, console: console, counter: counter))
        var gps: GPSDLocationProvider?
        let simulation = ScenarioSimulation(parsed, trace: recorder, locationSources: [chosen.id: { scheduler in
            let provider = GPSDLocationProvider(scheduler: scheduler, endpoint: endpoint, device: gpsdDevice, staleAfter: stale)
            provider.start()
            gps = provider
            return provider
        }])
        let gpsStatus = gps!.status
        // On a terminal a person answers the device's prompts; otherwise the scenario's script does.
        var prompts: KeyboardPrompts?
        if KeyboardInput.isInteractive, let simulated = simulation.device(chosen.id) {
            let keyboardPrompts = KeyboardPrompts(notifications: simulated.notifications, scheduler: simulation.scheduler, console: console)
            simulated.device.notifications = keyboardPrompts
            simulation.devicesAnsweredByUser.insert(chosen.id)
            prompts = keyboardPrompts
        }
        let ownAnswers = OwnAnswerLog(devices: simulation.devicesAnsweredByUser)
        recorder.forward(to: ownAnswers)
        let nmeaRecorder = try record.map { path in try GPSDRecorder.open(endpoint: endpoint, device: gpsdDevice, path: path, format: .nmea) }
        nmeaRecorder?.start()
        let stop = StopSignal()
        let handlers = InterruptHandling.install(raising: stop)
        defer { handlers.forEach { $0.cancel() } }
        if !quiet { console.line("live: \(parsed.name) — device \(chosen.id) on gpsd at \(endpoint); Ctrl-C to stop", to: .standardError) }
        let keyboard = prompts.map { KeyboardInput(onKey: $0.keyHandler) }
        keyboard?.start()
        let board = prompts?.board
        let display = RepeatingThread(name: "devicesim.status", every: .milliseconds(250)) {
            let (status, changes) = gpsStatus.take()
            for change in changes { console.line("\(change)", to: .standardError) }
            console.status(LiveStatusLine.render(status, events: counter.value, prompt: board?.oldest, width: LiveConsole.columns() - 1))
        }
        display.start()
        var runError: (any Error)?
        do {
            try simulation.runLive(stop: stop, for: duration.flatMap(DurationText.parse))
        } catch {
            runError = error
        }
        display.stop()
        keyboard?.stop()
        console.finish()
        if let runError { Terminal.standardError.write("error: \(runError)\n") }
        gps?.stop()
        nmeaRecorder?.stop()
        var writeFailed = false
        do {
            try traceWriter?.close()
        } catch {
            Terminal.standardError.write("error: \(error)\n")
            writeFailed = true
        }
        if let error = nmeaRecorder?.writeError {
            Terminal.standardError.write("error: \(error)\n")
            writeFailed = true
        }
        let received = gps?.fixesReceived ?? 0
        Terminal.standardOutput.write("live run: \(DurationText.format(simulation.scheduler.now.offset)), \(Plural.count(received, "fix", plural: "fixes")) from gpsd, \(Plural.count(counter.value, "event"))\n")
        let judged = LiveJudgement(parsed, outcomes: tally.outcomes, stoppedAt: simulation.scheduler.now, ownAnswers: ownAnswers.difference)
        for line in judged.lines { Terminal.standardOutput.write("  \(line)\n") }
        if let progress = nmeaRecorder?.progress {
            Terminal.standardOutput.write("recorded \(progress.lines) NMEA lines to \(record ?? "")\n")
        }
        let statistics = gps?.statistics ?? GPSDStatistics()
        Terminal.standardOutput.write("\(statistics)\n")
        if statistics.connections == 0 {
            Terminal.standardError.write("error: never connected to gpsd at \(endpoint) during the run (\(Plural.count(statistics.attempts, "attempt")))\n")
            throw ExitCode(3)
        }
        // The app's code stopped the run (the main thread blocked): the scenario failed, whatever was judged.
        if writeFailed || judged.failed || simulation.stoppedByAppCode != nil { throw ExitCode(1) }
    }
}

/// Prints events as they happen (above the status line) and counts them.
final class LiveEventPrinter: EventSink {
    let quiet: Bool
    let console: LiveConsole
    let counter: EventCounter

    init(quiet: Bool, console: LiveConsole, counter: EventCounter) {
        self.quiet = quiet
        self.console = console
        self.counter = counter
    }

    func record(_ event: TraceEvent) {
        counter.increment()
        guard !quiet else { return }
        var line = VirtualInstantFormatting.seconds(event.time) + "s  " + (event.device.map { "\($0)  " } ?? "") + event.name
        for (key, value) in event.fields { line += "  \(key)=\(value)" }
        console.line(line)
    }
}
#endif
