import DeviceSimScenario
import DeviceSimHAL
import DeviceSimSimulated
import DeviceSimTime
import Foundation

/// One scenario's part of an HTML report, worked out from what a run leaves behind: its trace, its
/// record (pass / fail, wall time) and its scenario file (world, devices, expectations), without
/// running anything again.
///
/// ```swift
/// let section = ReportSection(record: record, scenario: scenario, events: try TraceFileReader.read(path: trace))
/// section.failures          // failed expectations, each with the moment to look at
/// section.checks            // every expectation with its outcome and the events it looked at
/// section.steps             // the timeline's steps as they ran, each with its status
/// section.json(limits: .init())
/// ```
public struct ReportSection {
    /// A failed expectation and the moment it concerns.
    public struct Failure: Sendable, Hashable {
        /// `file:line:column` of the expectation.
        public var location: String
        public var expected: String
        public var observed: String
        /// The moment to look at: the first matching event, else the start of the expectation's window,
        /// else (for a position) its time; nil when unknown.
        public var moment: VirtualInstant?
    }

    /// A stretch of time a device spent in some state, drawn on its timeline lane.
    public struct Interval: Sendable, Hashable {
        /// What the state is.
        public enum Kind: String, Sendable, CaseIterable {
            /// The GPS receiver switched off.
            case gpsOff = "gps-off"
            /// The receiver lost the sky (a tunnel).
            case noSignal = "no-signal"
            /// The app had no position (between `location.unavailable` and `location.recovered`).
            case noFix = "no-fix"
            /// The device was offline.
            case offline
            /// Wi-Fi off.
            case wifiOff = "wifi-off"
            /// Bluetooth off.
            case bluetoothOff = "bluetooth-off"
            /// A prompt was on the screen.
            case prompt

            /// Whether the device had no position from GPS then (shaded on its track).
            public var isGPSOutage: Bool { self == .gpsOff || self == .noSignal || self == .noFix }
        }

        public var device: Int
        public var kind: Kind
        public var start: VirtualInstant
        public var end: VirtualInstant
        /// What the prompt said and how it was answered.
        public var label: String?
    }

    /// An expectation, how it came out and where in the trace to look.
    public struct Check: Sendable {
        public var expectation: Expectation
        public var outcome: ExpectationOutcome
        /// The moment it concerns (see ``Failure/moment``).
        public var moment: VirtualInstant?
        /// An event expectation's first counted event, as an index into ``ReportSection/events``.
        public var firstMatch: Int?
        /// The event whose position a position expectation judged (the latest by its time), as an index.
        public var judged: Int?
    }

    /// A step of the timeline as it ran: its trace event, what became of it, and the events after it
    /// on its device until its device's next step (what it caused, and what else happened meanwhile).
    public struct Step: Sendable, Hashable {
        /// What became of a step.
        public enum Status: String, Sendable {
            /// It was done.
            case done
            /// It could not act (`step.skipped`: the app was not running, the device had no Wi-Fi…).
            case skipped
            /// It was done, but the app or the prompt refused it (`action.ignored`, `prompt.answer-rejected`…).
            case refused
            /// It failed (a `follow-route` whose stops cannot be reached).
            case failed
        }

        /// Its `step` or `step.skipped` event, as an index into ``ReportSection/events``.
        public var event: Int
        /// The end (exclusive) of the events that follow it on its device before its device's next step.
        public var followingEnd: Int
        public var status: Status
        /// Why it was skipped, refused or failed.
        public var note: String?
    }

    /// Something the app showed or stopped showing (a screen, a prompt, a form, a menu, a notification),
    /// for the report's "app at time t" panel.
    public struct Display: Sendable, Hashable {
        /// What kind of thing it is.
        public enum Kind: String, Sendable {
            case screen, prompt, form, notification, error, panel
        }

        /// Its event, as an index into ``ReportSection/events``.
        public var event: Int
        public var kind: Kind
        /// Which one of its kind (the prompt's or the form's id, the panel's name).
        public var key: String
        /// Whether it appears (true) or goes away.
        public var shows: Bool
        /// What it says, for people.
        public var text: String
    }

    /// The scenario's file name relative to the folder searched (or the trace's name).
    public var name: String
    public var title: String
    public var record: RunRecord?
    public var scenario: Scenario?
    /// Every event of the trace, in order.
    public var events: [TraceEvent]
    /// The devices: the scenario's, then any others the trace names.
    public private(set) var devices: [String]
    /// Failed expectations (with their moments when the scenario file is known).
    public private(set) var failures: [Failure]
    /// Every expectation with its outcome (empty without the scenario file).
    public private(set) var checks: [Check] = []
    /// The timeline's steps as the trace shows them, in order.
    public private(set) var steps: [Step] = []
    /// What the apps showed, in trace order.
    public private(set) var displays: [Display] = []
    /// How many expectations were checked.
    public private(set) var expectationCount: Int
    /// State intervals per device (outages, offline, radios off, prompts).
    public private(set) var intervals: [Interval]
    /// Passed, failed, or unknown (a trace with neither record nor scenario file).
    public var passed: Bool?
    /// The virtual time the scenario ran.
    public var end: VirtualInstant

    private var replays: [DeviceMotionReplay?]
    /// The fixes of devices that play an NMEA log, played again from the log (nil for other devices).
    private var played: [[(time: VirtualInstant, coordinate: GeoCoordinate)]?]

    /// A section from a trace, with the run's record and the scenario file when they are known.
    public init(name: String, record: RunRecord?, scenario: Scenario?, events: [TraceEvent]) {
        self.name = name
        self.record = record
        self.scenario = scenario
        self.events = events
        title = record?.title ?? scenario?.name ?? events.first { $0.name == "scenario.started" }?["name"]?.description ?? name
        var devices = scenario?.devices.map(\.id) ?? []
        var known = Set(devices)
        for event in events {
            if let device = event.device, known.insert(device).inserted { devices.append(device) }
        }
        self.devices = devices
        end = scenario.map { VirtualInstant(offset: $0.duration) } ?? events.last?.time ?? .zero
        if let last = events.last?.time, last > end { end = last }
        let specs = Dictionary((scenario?.devices ?? []).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        replays = devices.map { id in
            guard let scenario, let spec = specs[id] else { return nil }
            return DeviceMotionReplay(spec, scenario: scenario)
        }
        let end = end
        played = devices.map { id in
            guard let spec = specs[id], let track = spec.track, case .nmea(let file) = track.source else { return nil }
            return Self.playNMEA(file, track: track, interval: spec.gps.interval, until: end)
        }
        if let scenario {
            let tally = ExpectationTally(scenario.expectations)
            for event in events { tally.record(event) }
            var checks: [Check] = []
            for (expectation, (outcome, first)) in zip(scenario.expectations, zip(tally.outcomes, tally.firstMatches)) {
                var check = Check(expectation: expectation, outcome: outcome, moment: Self.moment(of: expectation, firstMatch: first))
                check.firstMatch = first.flatMap { Self.index(of: $0, in: events) }
                if case .position(let expected) = expectation { check.judged = Self.judgedEvent(expected, in: events) }
                checks.append(check)
            }
            self.checks = checks
            failures = checks.filter { !$0.outcome.passed }.map { check in
                Failure(location: check.outcome.location.description, expected: check.outcome.expected, observed: check.outcome.observed, moment: check.moment)
            }
            expectationCount = scenario.expectations.count
            passed = record?.passed ?? failures.isEmpty
        } else if let record {
            failures = record.failures.map { Failure(location: $0.location, expected: $0.expected, observed: $0.observed, moment: nil) }
            expectationCount = record.expectations
            passed = record.passed
        } else {
            failures = []
            expectationCount = 0
            passed = nil
        }
        intervals = []
        intervals = Self.intervals(events: events, devices: devices, scenario: scenario, end: end)
        steps = Self.steps(in: events)
        displays = Self.displays(in: events)
    }

    /// The index of `event` in `events` (sorted by time), if it is there.
    static func index(of event: TraceEvent, in events: [TraceEvent]) -> Int? {
        var low = 0, high = events.count
        while low < high {
            let middle = (low + high) / 2
            if events[middle].time < event.time { low = middle + 1 } else { high = middle }
        }
        var index = low
        while index < events.count, events[index].time == event.time {
            if events[index] == event { return index }
            index += 1
        }
        return nil
    }

    /// The event whose position `expected` judges: the latest of its events (on its device, with a
    /// position) at or before its time, as the expectation tally takes it.
    static func judgedEvent(_ expected: PositionExpectation, in events: [TraceEvent]) -> Int? {
        let at = VirtualInstant(offset: expected.at)
        var judged: Int?
        for (index, event) in events.enumerated() {
            if event.time > at { break }
            guard expected.events.contains(event.name), expected.device == nil || event.device == expected.device, event.coordinate != nil else { continue }
            judged = index
        }
        return judged
    }

    /// Events that say a step did not do what was meant (the app or the prompt refused it).
    static let refusals: Set<String> = ["action.ignored", "settings.ignored", "prompt.answer-rejected", "task.not-found"]

    /// The steps of a trace: each `step` and `step.skipped` event, with the events after it on its
    /// device up to that device's next step, and its status from them.
    static func steps(in events: [TraceEvent]) -> [Step] {
        var steps: [Step] = []
        var open: [String: Int] = [:]   // device → its latest step, as an index into `steps`
        func close(_ step: Int, at end: Int) {
            steps[step].followingEnd = end
            guard steps[step].status == .done else { return }
            let device = events[steps[step].event].device
            if let refusal = events[(steps[step].event + 1)..<end].first(where: { $0.device == device && refusals.contains($0.name) }) {
                steps[step].status = .refused
                let reason = refusal["reason"]?.description
                steps[step].note = "\(refusal.name)" + (reason.map { ": \($0)" } ?? "")
            }
        }
        for (index, event) in events.enumerated() where event.name == "step" || event.name == "step.skipped" {
            let device = event.device ?? ""
            if let previous = open[device] { close(previous, at: index) }
            var step = Step(event: index, followingEnd: events.count, status: .done, note: nil)
            if event.name == "step.skipped" {
                step.status = .skipped
                step.note = event["reason"]?.description
            } else if let unreachable = event["unreachable"] {
                step.status = .failed
                step.note = unreachable.description
            }
            open[device] = steps.count
            steps.append(step)
        }
        for (_, step) in open { close(step, at: events.count) }
        return steps
    }

    /// What the apps showed: screens, prompts (until answered, timed out or withdrawn), forms and
    /// panels (`X.shown` / `X-shown` until `X.hidden`, `X-hidden`, `X.closed` or `X-closed`),
    /// notifications and errors.
    static func displays(in events: [TraceEvent]) -> [Display] {
        var displays: [Display] = []
        func text(_ event: TraceEvent, leaving: Set<String> = []) -> String {
            event.fields.filter { !leaving.contains($0.key) && $0.value != .null }.map { "\($0.key)=\($0.value.description)" }.joined(separator: ", ")
        }
        for (index, event) in events.enumerated() where event.device != nil {
            let name = event.name
            switch name {
            case "screen.shown":
                displays.append(Display(event: index, kind: .screen, key: "screen", shows: true, text: [event["screen"]?.description ?? "", text(event, leaving: ["screen"])].filter { !$0.isEmpty }.joined(separator: ": ")))
            case "prompt.shown":
                let choices = event["choices"]?.description.replacingOccurrences(of: "|", with: " / ")
                displays.append(Display(event: index, kind: .prompt, key: event["prompt"]?.description ?? "prompt", shows: true,
                                        text: (event["message"]?.description ?? event["prompt"]?.description ?? "") + (choices.map { " [\($0)]" } ?? "")))
            case "prompt.answered", "prompt.timed-out", "prompt.withdrawn":
                displays.append(Display(event: index, kind: .prompt, key: event["prompt"]?.description ?? "prompt", shows: false, text: name == "prompt.answered" ? "answered: \(event["choice"]?.description ?? "")" : String(name.dropFirst("prompt.".count))))
            case "notification.posted":
                displays.append(Display(event: index, kind: .notification, key: event["notification"]?.description ?? "notification", shows: true, text: event["message"]?.description ?? text(event)))
            case "form.shown", "form.hidden":
                displays.append(Display(event: index, kind: .form, key: event["form"]?.description ?? "form", shows: name == "form.shown", text: text(event, leaving: ["form"])))
            case "error.shown":
                displays.append(Display(event: index, kind: .error, key: "error", shows: true, text: event["message"]?.description ?? text(event)))
            case "marker.shown", "marker.moved":
                continue   // drawn on the map, and read from the events by the panel
            default:
                for (suffixes, shows) in [([".shown", "-shown"], true), ([".hidden", "-hidden", ".closed", "-closed"], false)] {
                    guard let suffix = suffixes.first(where: { name.hasSuffix($0) && name.count > $0.count }) else { continue }
                    displays.append(Display(event: index, kind: .panel, key: String(name.dropLast(suffix.count)), shows: shows, text: text(event)))
                }
            }
        }
        return displays
    }

    /// The moment a failed expectation concerns: its first matching event, else the start of its
    /// window; a position check's time.
    static func moment(of expectation: Expectation, firstMatch: TraceEvent?) -> VirtualInstant? {
        switch expectation {
        case .event(let expected):
            return firstMatch?.time ?? expected.window.map { VirtualInstant(offset: $0.lowerBound) }
        case .position(let expected):
            return VirtualInstant(offset: expected.at)
        case .order(let expected):
            return firstMatch?.time ?? expected.window.map { VirtualInstant(offset: $0.lowerBound) }
        case .anyOf:
            return firstMatch?.time
        }
    }

    /// The states of each device over time, from the scenario's starting states and the trace's steps
    /// and events.
    static func intervals(events: [TraceEvent], devices: [String], scenario: Scenario?, end: VirtualInstant) -> [Interval] {
        let index = Dictionary(devices.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { first, _ in first })
        var open: [Int: [Interval.Kind: (start: VirtualInstant, label: String?)]] = [:]
        var promptsOpen: [Int: [String: (start: VirtualInstant, label: String)]] = [:]
        var done: [Interval] = []
        func begin(_ device: Int, _ kind: Interval.Kind, _ at: VirtualInstant) {
            if open[device, default: [:]][kind] == nil { open[device, default: [:]][kind] = (at, nil) }
        }
        func close(_ device: Int, _ kind: Interval.Kind, _ at: VirtualInstant) {
            guard let started = open[device]?[kind] else { return }
            open[device]?[kind] = nil
            done.append(Interval(device: device, kind: kind, start: started.start, end: at, label: started.label))
        }
        if let scenario {
            for spec in scenario.devices {
                guard let device = index[spec.id] else { continue }
                if !spec.gpsEnabled { begin(device, .gpsOff, .zero) }
                if !spec.online { begin(device, .offline, .zero) }
                if scenario.world != nil {
                    if !spec.wifiEnabled { begin(device, .wifiOff, .zero) }
                    if !spec.bluetoothEnabled { begin(device, .bluetoothOff, .zero) }
                }
            }
        }
        for event in events {
            guard let name = event.device, let device = index[name] else { continue }
            let at = event.time
            switch event.name {
            case "step":
                switch event["do"]?.description {
                case "gps-off": begin(device, .gpsOff, at)
                case "gps-on": close(device, .gpsOff, at); close(device, .noSignal, at)
                case "signal-loss":
                    if let seconds = event["for"]?.number {
                        close(device, .noSignal, at)
                        done.append(Interval(device: device, kind: .noSignal, start: at, end: min(end, at.advanced(by: .milliseconds(Int64((seconds * 1000).rounded())))), label: nil))
                    } else {
                        begin(device, .noSignal, at)
                    }
                case "signal-restore": close(device, .noSignal, at)
                case "go-offline": begin(device, .offline, at)
                case "go-online": close(device, .offline, at)
                case "wifi-off": begin(device, .wifiOff, at)
                case "wifi-on": close(device, .wifiOff, at)
                case "bluetooth-off": begin(device, .bluetoothOff, at)
                case "bluetooth-on": close(device, .bluetoothOff, at)
                default: break
                }
            case "bluetooth.disabled": begin(device, .bluetoothOff, at)
            case "location.unavailable": begin(device, .noFix, at)
            case "location.recovered": close(device, .noFix, at)
            case "prompt.shown":
                let prompt = event["prompt"]?.description ?? "prompt"
                let message = event["message"]?.description ?? prompt
                if promptsOpen[device, default: [:]][prompt] == nil { promptsOpen[device, default: [:]][prompt] = (at, message) }
            case "prompt.answered", "prompt.timed-out":
                let prompt = event["prompt"]?.description ?? "prompt"
                guard let shown = promptsOpen[device]?[prompt] else { break }
                promptsOpen[device]?[prompt] = nil
                let outcome = event.name == "prompt.answered" ? "answered: \(event["choice"]?.description ?? "?")" : "timed out"
                done.append(Interval(device: device, kind: .prompt, start: shown.start, end: at, label: "\(shown.label) — \(outcome)"))
            default: break
            }
        }
        for (device, kinds) in open {
            for (kind, started) in kinds { done.append(Interval(device: device, kind: kind, start: started.start, end: end, label: started.label)) }
        }
        for (device, prompts) in promptsOpen {
            for (_, shown) in prompts { done.append(Interval(device: device, kind: .prompt, start: shown.start, end: end, label: "\(shown.label) — not answered")) }
        }
        return done.sorted { ($0.device, $0.start, $0.kind.rawValue) < ($1.device, $1.start, $1.kind.rawValue) }
    }

    /// The fixes an NMEA log gives, at their instants, played on a scheduler of its own the way the
    /// scenario plays it (rate, offset, loop, fix interval); nil when the log cannot be read.
    static func playNMEA(_ file: URL, track: TrackSpec, interval: Duration, until end: VirtualInstant) -> [(time: VirtualInstant, coordinate: GeoCoordinate)]? {
        let scheduler = EventScheduler()
        var configuration = NMEAPlaybackLocationProvider.Configuration()
        configuration.speedFactor = track.speedFactor
        configuration.startOffset = track.startOffset
        configuration.loop = track.loop
        configuration.interval = interval
        guard let playback = try? NMEAPlaybackLocationProvider(scheduler: scheduler, file: file, configuration: configuration) else { return nil }
        let fixes = FixList()
        let subscription = playback.observe { update in
            if case .fix(let fix) = update { fixes.items.append((scheduler.now, fix.coordinate)) }
        }
        playback.start()
        try? scheduler.run(until: end)
        subscription.cancel()
        playback.stop()
        return fixes.items
    }

    private final class FixList {
        var items: [(time: VirtualInstant, coordinate: GeoCoordinate)] = []
    }

    /// Where device number `device` was at `instant`, when the scenario file says (nil otherwise).
    public func replayedPosition(ofDevice device: Int, at instant: VirtualInstant) -> GeoCoordinate? {
        replays[device]?.position(at: instant)
    }

    /// Each device's track: replayed from the scenario file, or else the coordinates its events report
    /// (or its NMEA log gives), broken where it jumps; at most about `pointsPerDevice` points each,
    /// thinned to keep its shape and broken where thinning would draw it more than `tolerance` metres
    /// from where the device was (nil: a thousandth of the span of all the tracks).
    public func tracks(pointsPerDevice: Int, tolerance: Double? = nil) -> [ReportTrack] {
        let points = max(pointsPerDevice, 2)
        var reported: [[ReportTrack.Point]] = Array(repeating: [], count: devices.count)
        let index = Dictionary(devices.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { first, _ in first })
        for event in events {
            guard let name = event.device, let device = index[name], replays[device] == nil, played[device] == nil, let coordinate = event.coordinate else { continue }
            reported[device].append((event.time, coordinate))
        }
        // Replays are sampled four times as densely as drawn, so thinning keeps their corners.
        let seconds = max(end.seconds, 1)
        let interval = Duration.milliseconds(Int64(max(1000, (seconds / Double(4 * points) * 1000).rounded(.up))))
        let full: [ReportTrack] = devices.indices.map { device in
            if let replay = replays[device] { return replay.track(to: end, every: interval) }
            return ReportTrack(points: played[device] ?? reported[device]).brokenAtJumps()
        }
        let tolerance = tolerance ?? Self.span(of: full) / 1000
        return full.map { $0.thinned(to: points, tolerance: tolerance) }
    }

    /// The larger side, in metres, of the box around every point of `tracks` (at least the map's smallest span).
    static func span(of tracks: [ReportTrack]) -> Double {
        var south = Double.infinity, north = -Double.infinity, west = Double.infinity, east = -Double.infinity
        for track in tracks {
            for point in track.points where point.coordinate.isValid {
                south = min(south, point.coordinate.latitude)
                north = max(north, point.coordinate.latitude)
                west = min(west, point.coordinate.longitude)
                east = max(east, point.coordinate.longitude)
            }
        }
        guard south <= north else { return MapProjection.minimumSpan }
        let metresPerDegree = GeoCoordinate.earthRadius * .pi / 180
        let northSouth = (north - south) * metresPerDegree
        let eastWest = (east - west) * metresPerDegree * max(cos((north + south) / 2 * .pi / 180), 0.01)
        return max(northSouth, eastWest, MapProjection.minimumSpan)
    }
}
