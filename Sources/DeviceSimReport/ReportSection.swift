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
            failures = zip(scenario.expectations, zip(tally.outcomes, tally.firstMatches)).filter { !$0.1.0.passed }.map { expectation, judged in
                let (outcome, first) = judged
                return Failure(location: outcome.location.description, expected: outcome.expected, observed: outcome.observed, moment: Self.moment(of: expectation, firstMatch: first))
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
    }

    /// The moment a failed expectation concerns: its first matching event, else the start of its
    /// window; a position check's time.
    static func moment(of expectation: Expectation, firstMatch: TraceEvent?) -> VirtualInstant? {
        switch expectation {
        case .event(let expected):
            return firstMatch?.time ?? expected.window.map { VirtualInstant(offset: $0.lowerBound) }
        case .position(let expected):
            return VirtualInstant(offset: expected.at)
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

    /// Each device's track: replayed from the scenario file, or else the coordinates its events report;
    /// at most about `pointsPerDevice` points each.
    public func tracks(pointsPerDevice: Int) -> [[(time: VirtualInstant, coordinate: GeoCoordinate)]] {
        let points = max(pointsPerDevice, 2)
        var reported: [[(time: VirtualInstant, coordinate: GeoCoordinate)]] = Array(repeating: [], count: devices.count)
        let index = Dictionary(devices.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { first, _ in first })
        for event in events {
            guard let name = event.device, let device = index[name], replays[device] == nil, played[device] == nil, let coordinate = event.coordinate else { continue }
            reported[device].append((event.time, coordinate))
        }
        let seconds = max(end.seconds, 1)
        let interval = Duration.milliseconds(Int64(max(1000, (seconds / Double(points) * 1000).rounded(.up))))
        return devices.indices.map { device in
            if let replay = replays[device] { return replay.samples(to: end, every: interval) }
            let track = played[device] ?? reported[device]
            guard track.count > points else { return track }
            let stride = Double(track.count - 1) / Double(points - 1)
            return (0..<points).map { track[Int((Double($0) * stride).rounded())] }
        }
    }
}
