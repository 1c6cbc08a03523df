import ArgumentParser
import DeviceSimHAL
import DeviceSimNMEA
import DeviceSimScenario
import DeviceSimSimulated
import DeviceSimTime
import Foundation

/// `devicesim serve`: a scenario on the wall clock, its devices' simulated receivers served as NMEA
/// over TCP for gpsd and every GPS client.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run a scenario on the wall clock and serve its devices' simulated GPS receivers as NMEA 0183 over TCP.",
        discussion: """
            Each chosen device's receiver is served on its own port (PORT, PORT+1, ...), an epoch a fix: GGA, RMC, GSA, GSV and VTG with correct checksums and the scenario's UTC date and time. Without a fix (GPS off, a tunnel, before the first fix) the receiver keeps talking with fix quality 0, status V and no satellites used. Any number of clients may connect; a slow one never holds the simulation up (its oldest epochs are dropped, and counted). When the run ends, serve waits up to 2 seconds for each client to take what is queued for it; what a client has not taken by then is counted as dropped for it too.

            Feed it to gpsd, then use any gpsd client (cgps, gpspipe, gpsmon, an app on libgps):
              devicesim serve Scenarios/dog-walk/walk-2km.yaml --nmea-tcp 127.0.0.1:10110
              gpsd -N -n -S 2947 tcp://127.0.0.1:10110
              cgps 127.0.0.1:2947

            Each port serves at most --max-clients clients at once (each has a thread, a descriptor and a queue of up to 256 KiB); a connection beyond them is closed as soon as it is accepted. When the process runs out of file descriptors ('ulimit -n'), the newest connection is closed the same way and serve keeps accepting once descriptors are free. Either is said once (until a client is served again) and counted in the summary.

            The expectations are judged at the end: ✓ held, ✗ failed, – not judged. A run stopped early (Ctrl-C, --duration) judges only what is already decided: a 'never', 'at-most' or exact count already exceeded fails and an 'at-least' (or an event that must exist) already met passes, whatever the window; one whose window (or instant) ended by the stop is judged as 'run' judges it; the others are not judged.

            Exit status: 0 the scenario ran and no expectation failed (those not judged do not count); 1 an expectation failed, the app's main-actor code held the main thread past the limit (5 s; DEVICESIM_MAIN_THREAD_LIMIT=30s changes it), or writing the trace failed during the run; 2 invalid input or usage (a scenario that does not parse, a bad option, a port that cannot be listened on, a trace file that cannot be created, a --trace that is the scenario file or one of its track files).
            """
    )

    @Argument(help: "The scenario to run.", completion: .file(extensions: ["yaml", "yml"]))
    var scenario: String

    @Option(name: .customLong("nmea-tcp"), help: ArgumentHelp("Serve NMEA on [HOST:]PORT (the first device; the next ones on PORT+1, ...). Default host 127.0.0.1.", valueName: "host:port"))
    var nmeaTCP: String

    @Option(name: .customLong("device"), parsing: .singleValue, help: ArgumentHelp("A scenario device to serve (repeat for several; default: every device, in the scenario's order).", valueName: "id"))
    var devices: [String] = []

    @Option(parsing: .unconditional, help: "Virtual seconds per wall second (100: a day in about 15 minutes).")
    var speed: Double = 1

    @Option(parsing: .unconditional, help: "Stop after this much virtual time, longer than 0s (default: the scenario's duration).")
    var duration: String?

    @Option(help: "The talker id of the sentences: GP (GPS) or GN (several constellations).")
    var talker: String = "GP"

    @Option(name: .customLong("start-time"), help: ArgumentHelp("The UTC date and time of the scenario's start in the sentences: 'now' (the wall clock, for apps that reject old fixes) or ISO 8601 such as 2026-05-01T08:00:00Z, from 2000-01-01T00:00:00Z, with the run over before 2080 (RMC's two-digit year reads back as written only from 2000 to 2079). Default: the scenario's start-time.", valueName: "now|date"))
    var startTime: String?

    @Option(help: ArgumentHelp("Write the trace as JSON Lines to this file, as events happen.", valueName: "file"))
    var trace: String?

    @Option(name: .customLong("max-clients"), parsing: .unconditional, help: ArgumentHelp("The most clients served at once on each port; more are closed as they connect.", valueName: "n"))
    var maximumClients: Int = NMEATCPServer.defaultMaximumClients

    @Flag(name: .customLong("wait-for-client"), help: "Start the scenario only when the first client connects (gpsd started without -n connects when its own first client asks for reports), so no epoch is missed.")
    var waitForClient = false

    @Flag(name: .shortAndLong, help: "Print no events, only the summary.")
    var quiet = false

    /// The speeds `--speed` takes: the wall-clock driver's slowest, and at most 10,000 (a served
    /// receiver's clients cannot follow faster).
    static let speeds: ClosedRange<Double> = WallClockDriver.speeds.lowerBound...10_000

    func validate() throws {
        guard Self.speeds.contains(speed) else {
            throw ValidationError("--speed must be from \(Self.speeds.lowerBound) to \(Int(Self.speeds.upperBound)) virtual seconds per wall second, found \(speed).")
        }
        if let duration { _ = try OptionValues.positiveDuration(duration, option: "--duration") }
        guard ["GP", "GN"].contains(talker) else { throw ValidationError("--talker must be GP or GN.") }
        guard (1...10_000).contains(maximumClients) else { throw ValidationError("--max-clients must be 1 to 10000, found \(maximumClients).") }
        if let startTime, startTime != "now",
            !(ISO8601DateFormatter().date(from: startTime).map { NMEADate.unixSecondsReadBack.contains($0.timeIntervalSince1970) } ?? false)
        {
            throw ValidationError("--start-time must be 'now' or an ISO 8601 date and time from \(NMEADate.yearsReadBackText), such as 2026-05-01T08:00:00Z (\(NMEADate.yearsReadBackReason)).")
        }
        _ = try endpoint()
    }

    /// `[HOST:]PORT`.
    func endpoint() throws -> (host: String, port: UInt16) {
        let parts = nmeaTCP.split(separator: ":", omittingEmptySubsequences: false)
        let host = parts.count == 2 ? String(parts[0]) : "127.0.0.1"
        guard parts.count <= 2, let port = UInt16(parts.last ?? ""), !host.isEmpty else {
            throw ValidationError("--nmea-tcp must be [HOST:]PORT, e.g. 127.0.0.1:10110 or 10110.")
        }
        return (host, port)
    }

    func run() throws {
        ConsoleLogHandler.bootstrap()
        var parsed = try FileRoles.scenarioToRun(scenario, outputs: [("--trace", trace)])
        let chosen = devices.isEmpty ? parsed.devices.map(\.id) : devices
        for id in chosen where !parsed.devices.contains(where: { $0.id == id }) {
            Terminal.standardError.write("error: the scenario has no device '\(id)'; it has \(parsed.devices.map(\.id).joined(separator: ", "))\n")
            throw ExitCode(2)
        }
        if startTime != "now" {
            // The sentences' dates, from the first to the last, must read back as written.
            let start = startTime.flatMap { ISO8601DateFormatter().date(from: $0) } ?? parsed.startDate
            let length = duration.flatMap(DurationText.parse) ?? parsed.duration
            let first = start.timeIntervalSince1970, last = first + length.inSeconds
            if !NMEADate.unixSecondsReadBack.contains(first) || !NMEADate.unixSecondsReadBack.contains(last) {
                let formatter = ISO8601DateFormatter()
                let from = startTime == nil ? "the scenario's start-time \(formatter.string(from: start))" : "--start-time \(formatter.string(from: start))"
                Terminal.standardError.write("error: the sentences would be dated from \(from) to \(formatter.string(from: Date(timeIntervalSince1970: last))), outside \(NMEADate.yearsReadBackText) (\(NMEADate.yearsReadBackReason)): give a --start-time within it, or 'now'\n")
                throw ExitCode(2)
            }
        }
        let (host, firstPort) = try endpoint()
        var servers: [(device: String, server: NMEATCPServer)] = []
        do {
            for (index, id) in chosen.enumerated() {
                guard Int(firstPort) + index <= Int(UInt16.max) else { throw ServeError("not enough ports above \(firstPort) for \(chosen.count) devices") }
                let server = try NMEATCPServer(host: host, port: firstPort == 0 ? 0 : firstPort + UInt16(index), maximumClients: maximumClients)
                server.start()
                servers.append((id, server))
                Terminal.standardError.write("serve: \(id) on tcp://\(server.host):\(server.port)\n")
            }
        } catch {
            Terminal.standardError.write("error: \(error)\n")
            throw ExitCode(2)
        }
        let stop = StopSignal()
        let handlers = InterruptHandling.install(raising: stop)
        defer { handlers.forEach { $0.cancel() } }
        if waitForClient {
            if !quiet { Terminal.standardError.write("serve: waiting for a client (Ctrl-C to stop)\n") }
            while !stop.isRaised, !servers.contains(where: { $0.server.statistics.accepted > 0 }) { Thread.sleep(forTimeInterval: 0.01) }
        }
        switch startTime {
        case "now": parsed.startDate = Date()
        case let text?: parsed.startDate = ISO8601DateFormatter().date(from: text) ?? parsed.startDate
        case nil: break
        }
        // Events stream to the trace file, the printer and the expectation tally; none is kept, so a
        // long run stays flat.
        let recorder = TraceRecorder(keepsEvents: false)
        let traceWriter = try streamingTrace(to: trace, from: recorder)
        let tally = ExpectationTally(parsed.expectations)
        recorder.forward(to: tally)
        recorder.forward(to: ServeEventPrinter(quiet: quiet))
        let simulation = ScenarioSimulation(parsed, trace: recorder)
        guard simulation.setupErrors.isEmpty else {
            Terminal.standardError.write("error: \(simulation.setupErrors.joined(separator: "; "))\n")
            throw ExitCode(2)
        }
        var configuration = NMEAReceiverOutput.Configuration()
        configuration.talker = talker
        var outputs: [NMEAReceiverOutput] = []
        for (id, server) in servers {
            guard let device = simulation.device(id)?.device else { continue }
            let output = NMEAReceiverOutput(device: device, startDate: parsed.startDate, configuration: configuration) { server.broadcast($0) }
            output.start()
            outputs.append(output)
        }
        if !quiet {
            Terminal.standardError.write("serve: \(parsed.name) at \(speed == 1 ? "real time" : "\(speed)x"); Ctrl-C to stop\n")
        }
        if startTime == "now" {
            // The wall clock's time as the run begins, so a sentence's time is when it was due.
            let now = Date()
            outputs.forEach { $0.startDate = now }
        }
        do {
            try simulation.runLive(driver: WallClockDriver(speed: speed), stop: stop, for: duration.flatMap(DurationText.parse))
        } catch {
            Terminal.standardError.write("error: \(error)\n")
        }
        outputs.forEach { $0.stop() }
        for (_, server) in servers { server.stop() }
        Terminal.standardOutput.write("served \(DurationText.format(simulation.scheduler.now.offset)) of the scenario\n")
        for ((id, server), output) in zip(servers, outputs) {
            let statistics = server.statistics
            Terminal.standardOutput.write("  \(id): \(Plural.count(output.epochs, "epoch")) (\(output.epochsWithFix) with a fix) on port \(server.port), \(Plural.count(statistics.accepted, "client"))\(statistics.shed > 0 ? " (\(statistics.shed) more \(statistics.shed == 1 ? "connection" : "connections") closed at once: --max-clients or no descriptor left)" : ""), \(Plural.count(statistics.dropped, "epoch")) dropped for slow clients\(statistics.dropped > 0 ? " (\(statistics.droppedByClient.map(String.init).joined(separator: " + ")) in the order they connected)" : "")\n")
        }
        var writeFailed = false
        do {
            try traceWriter?.close()
        } catch {
            Terminal.standardError.write("error: \(error)\n")
            writeFailed = true
        }
        let judged = LiveJudgement(parsed, outcomes: tally.outcomes, stoppedAt: simulation.scheduler.now)
        for line in judged.lines { Terminal.standardOutput.write("  \(line)\n") }
        // The app's code stopped the run (the main thread blocked): the scenario failed, whatever was judged.
        if writeFailed || judged.failed || simulation.stoppedByAppCode != nil { throw ExitCode(1) }
    }
}

/// Prints events as they happen (not the per-second steps of the receiver).
final class ServeEventPrinter: EventSink {
    let quiet: Bool

    init(quiet: Bool) { self.quiet = quiet }

    func record(_ event: TraceEvent) {
        guard !quiet else { return }
        var line = VirtualInstantFormatting.seconds(event.time) + "s  " + (event.device.map { "\($0)  " } ?? "") + event.name
        for (key, value) in event.fields { line += "  \(key)=\(value)" }
        Terminal.standardOutput.write(line + "\n")
    }
}
