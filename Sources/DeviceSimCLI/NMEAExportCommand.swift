import ArgumentParser
import DeviceSimHAL
import DeviceSimNMEA
import DeviceSimScenario
import DeviceSimSimulated
import Foundation

/// `devicesim nmea export`: a route, a GPX file or a scenario device's walk, written as an NMEA log.
struct NMEAExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a route as an NMEA log (GGA, RMC and GSA each second) for gpsd's gpsfake or for playback.",
        discussion: """
            Give exactly one source:
              --gpx FILE                  a GPX track (played at its recorded timing) or route (at --speed)
              --waypoints "LAT,LON;..."   a route from the first point through the others, at --speed
              --scenario FILE [--device ID]  the route of a scenario's device, from its start position
            Examples:
              devicesim nmea export --waypoints "52.5145,13.3501;52.5145,13.3650" --speed walk --out walk.nmea
              devicesim nmea export --scenario Scenarios/dog-walk/walk-2km.yaml --out walk.nmea
              gpsfake -c 0.1 -P 2947 walk.nmea
            Fixes are written as they are made (constant memory), at most 2592000 of them (30 days
            at 1 s); a longer route is refused before anything is written. Exit codes: 0 written,
            1 the output could not be written, 2 invalid input or usage (including an --out, or a
            standard output, that is the GPX or scenario file read).
            """
    )

    @Option(help: ArgumentHelp("A GPX file.", valueName: "file"), completion: .file(extensions: ["gpx"]))
    var gpx: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Waypoints as LAT,LON pairs separated by ';' (south and west negative).", valueName: "points"))
    var waypoints: String?

    @Option(help: ArgumentHelp("A scenario file whose device's route to export.", valueName: "file"), completion: .file(extensions: ["yaml", "yml"]))
    var scenario: String?

    @Option(help: "The scenario device (default: the first with a route).")
    var device: String?

    @Option(parsing: .unconditional, help: "Speed where the source has no timing: walk, run, bike, drive, or metres per second (0.01 to 400).")
    var speed: String = "walk"

    @Option(help: "UTC time of the first fix, ISO 8601, from 2000-01-01T00:00:00Z; the last fix must be before 2080 (RMC's two-digit year reads back as written only from 2000 to 2079). Default: the GPX track's first time, the scenario's start time, or 2026-01-01T00:00:00Z.")
    var start: String?

    @Option(parsing: .unconditional, help: "Time between fixes, e.g. 1s, 200ms (10ms to 1d).")
    var interval: String = "1s"

    @Option(name: .shortAndLong, help: ArgumentHelp("Write here instead of standard output.", valueName: "file"))
    var out: String?

    /// The most fixes one export writes: 30 days at one a second.
    static let maximumFixes = 2_592_000

    func validate() throws {
        let sources = [gpx, waypoints, scenario].compactMap { $0 }
        guard sources.count == 1 else { throw ValidationError("Give exactly one of --gpx, --waypoints or --scenario.") }
        guard let step = DurationText.parse(interval), step >= .milliseconds(10), step <= .seconds(86_400) else {
            throw ValidationError("--interval must be a duration from 10ms to 1d, e.g. 1s.")
        }
        guard parsedSpeed != nil else { throw ValidationError("--speed must be walk, run, bike, drive or a number of metres per second from 0.01 to 400.") }
        if let start, !(ISO8601DateFormatter().date(from: start).map { NMEADate.unixSecondsReadBack.contains($0.timeIntervalSince1970) } ?? false) {
            throw ValidationError("--start must be an ISO 8601 UTC time from \(NMEADate.yearsReadBackText), such as 2026-05-01T08:00:00Z (\(NMEADate.yearsReadBackReason)).")
        }
    }

    /// Why a log from `startDate` lasting `duration` cannot be dated so that its RMC dates read
    /// back as written (nil: it can); `start` is the `--start` given, if any.
    static func datingProblem(from startDate: Date, lasting duration: Duration, start: String?) -> String? {
        let first = startDate.timeIntervalSince1970, last = first + duration.inSeconds
        guard !NMEADate.unixSecondsReadBack.contains(first) || !NMEADate.unixSecondsReadBack.contains(last) else { return nil }
        let formatter = ISO8601DateFormatter()
        let from = start == nil ? "its source's time \(formatter.string(from: startDate))" : "--start \(formatter.string(from: startDate))"
        return "the log would be dated from \(from) to \(formatter.string(from: Date(timeIntervalSince1970: last))), outside \(NMEADate.yearsReadBackText) (\(NMEADate.yearsReadBackReason)): give a --start within it"
    }

    private var parsedSpeed: Double? {
        if let preset = SpeedPreset(rawValue: speed) { return preset.metresPerSecond }
        guard let value = Double(speed), (0.01...400).contains(value) else { return nil }
        return value
    }

    func run() throws {
        var files = FileRoles()
        if let gpx { files.input("the GPX file", gpx) }
        if let scenario { files.input("the scenario file", scenario) }
        files.output("--out", out)
        try files.check()
        var startDate = start.flatMap { ISO8601DateFormatter().date(from: $0) } ?? Date(timeIntervalSince1970: 1_767_225_600)
        let route: Route
        do {
            if let gpx {
                let document = try GPXDocument(contentsOf: URL(fileURLWithPath: gpx))
                route = try document.route(speed: parsedSpeed!)
                if start == nil, document.isTimed, let first = document.points.first?.time { startDate = first }
            } else if let waypoints {
                route = try Self.route(from: waypoints, speed: parsedSpeed!)
            } else {
                let parsed = try ScenarioParser.parse(contentsOf: scenario!)
                guard let spec = parsed.devices.first(where: { device == nil ? $0.route != nil : $0.id == device }) else {
                    throw ValidationError(device.map { "The scenario has no device '\($0)'." } ?? "No device of the scenario has a route.")
                }
                guard let deviceRoute = spec.route else { throw ValidationError("Device '\(spec.id)' has no route.") }
                route = deviceRoute
                if start == nil { startDate = parsed.startDate.addingTimeInterval(spec.routeStart.inSeconds) }
            }
        } catch let error as ValidationError {
            throw error
        } catch {
            Terminal.standardError.write("error: \(error)\n")
            throw ExitCode(2)
        }
        let timeline = RouteTimeline(route)
        let step = DurationText.parse(interval)!
        let fixes = (timeline.duration.inSeconds / step.inSeconds).rounded(.up) + 1
        guard fixes <= Double(Self.maximumFixes) else {
            let length = timeline.duration == RouteTimeline.longestDuration ? "more than \(DurationText.format(timeline.duration))" : DurationText.format(timeline.duration)
            Terminal.standardError.write("error: the route takes \(length) (\(Int(route.length.rounded())) m), \(fixes < 1e15 ? String(Int(fixes)) : "too many") fixes at \(interval); an export holds at most \(Self.maximumFixes) fixes (30 days at 1s): export a shorter route, or give a longer --interval\n")
            throw ExitCode(2)
        }
        if let problem = Self.datingProblem(from: startDate, lasting: timeline.duration, start: start) {
            Terminal.standardError.write("error: \(problem)\n")
            throw ExitCode(2)
        }
        let output: WritableFile
        do throws(WriteError) {
            output = if let out { try WritableFile(path: out) } else { .standardOutput() }
        } catch {
            throw OutputFile.exit(error)
        }
        let startNanos = Int64((startDate.timeIntervalSince1970 * 1e9).rounded())
        var text = ""
        var elapsed = Duration.zero
        var count = 0
        do throws(WriteError) {
            // Streamed: a piece of about 64 KiB at a time, whatever the route's length.
            while true {
                let state = timeline.state(at: elapsed)
                var fix = NMEAFix()
                fix.setTime(unixNanoseconds: startNanos + elapsed.wholeNanoseconds)
                fix.mode = 3
                fix.quality = 1
                fix.latitude = state.coordinate.latitude
                fix.longitude = state.coordinate.longitude
                fix.altitudeMSL = state.altitude ?? 35
                fix.geoidSeparation = 0
                fix.speed = state.speed
                fix.track = state.course ?? 0
                fix.hdop = 0.9
                fix.pdop = 1.6
                fix.vdop = 1.3
                fix.satellitesUsed = 9
                text += NMEASentenceWriter.epoch(fix)
                count += 1
                if text.utf8.count >= 64 << 10 {
                    try output.write(text)
                    text.removeAll(keepingCapacity: true)
                }
                if state.finished || elapsed > timeline.duration { break }
                elapsed += step
            }
            try output.write(text)
            try output.close()
        } catch {
            throw OutputFile.exit(error)
        }
        if let out {
            Terminal.standardError.write("wrote \(Plural.count(count, "fix", plural: "fixes")) (\(DurationText.format(timeline.duration)), \(Int(route.length.rounded())) m) to \(out)\n")
        }
    }

    static func route(from text: String, speed: Double) throws -> Route {
        var points: [GeoCoordinate] = []
        for pair in text.split(separator: ";") {
            let parts = pair.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, let lat = Double(parts[0]), let lon = Double(parts[1]), abs(lat) <= 90, abs(lon) <= 180 else {
                throw ValidationError("--waypoints: '\(pair)' is not LAT,LON (degrees).")
            }
            points.append(GeoCoordinate(latitude: lat, longitude: lon))
        }
        guard points.count >= 2 else { throw ValidationError("--waypoints needs at least two points.") }
        return Route(start: points[0], waypoints: points.dropFirst().map { Route.Waypoint($0) }, speed: speed)
    }
}
