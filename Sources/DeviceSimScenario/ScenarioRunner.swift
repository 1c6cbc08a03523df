import DeviceSimHAL
import DeviceSimTime

/// What one expectation came to.
public struct ExpectationOutcome: Sendable {
    /// Whether it held.
    public var passed: Bool
    /// What was expected, in words.
    public var expected: String
    /// What was observed, in words.
    public var observed: String
    /// Where the expectation is written.
    public var location: SourceLocation
    /// Whether later events cannot change it: a count already over its maximum (`never:`,
    /// `at-most:`, an exact count), a minimum with no maximum already met (an event that exists,
    /// `at-least:`), an order whose items are found or whose later item came before an earlier one.
    /// A run stopped early (``LiveJudgement``) judges these whatever their window.
    public var settled: Bool

    /// An outcome: whether it `passed`, what was `expected` and `observed`, in words, where the
    /// expectation is written, and whether later events cannot change it (`settled`).
    public init(passed: Bool, expected: String, observed: String, location: SourceLocation, settled: Bool = false) {
        self.passed = passed
        self.expected = expected
        self.observed = observed
        self.location = location
        self.settled = settled
    }
}

/// The result of running one scenario.
public struct ScenarioResult: Sendable {
    /// The scenario.
    public var scenario: Scenario
    /// The seed used.
    public var seed: UInt64
    /// Every event, in order (only those the expectations look at, when the run streamed its trace to a
    /// file without keeping events).
    public var events: [TraceEvent]
    /// One outcome per expectation, in file order.
    public var outcomes: [ExpectationOutcome]
    /// Set when the simulation itself stopped early (a runaway bound).
    public var runError: String?
    /// How many scheduler events ran.
    public var eventCount: Int
    /// Why the trace file could not be written, when the run streamed one and that failed.
    public var traceFileError: String? = nil
    /// Set when the run stopped because of its input, not its flows: a file it plays that cannot be
    /// played (an NMEA log whose time never advances), a world no phone could range (see
    /// ``DeviceSimTime/EventScheduler/stop(because:)``). The scenario is then invalid input.
    public var inputError: String? = nil

    /// Whether the scenario passed: it ran to its end and every expectation held.
    public var passed: Bool { runError == nil && outcomes.allSatisfy(\.passed) }

    /// The trace as JSON Lines.
    public var traceJSONLines: String { TraceEvent.jsonLines(events) }
}

/// Runs scenarios and checks their expectations against the trace.
///
/// ```swift
/// let result = ScenarioRunner().run(try ScenarioParser.parse(contentsOf: path))
/// result.passed
/// ```
public struct ScenarioRunner: Sendable {
    /// Replaces every scenario's seed, when set.
    public var seedOverride: UInt64?
    /// Bounds on each run.
    public var limits: RunLimits
    /// When set, a scenario's event bound is at least this many events per device per simulated hour
    /// (a fleet of 10,000 devices for an hour runs some 90 million events, more than the default
    /// bound of 50 million, which is meant to stop a runaway scenario, not a large one). A device
    /// ranging beacons and taking GPS fixes every second runs about 7,300 events an hour. Nil (the
    /// default): ``limits`` as given; `devicesim run` sets ``fleetEventLimitPerDeviceHour`` unless
    /// `--max-events` is given.
    public var eventLimitPerDeviceHour: Int?
    /// The bound per device per simulated hour that `devicesim run` uses by default.
    public static let fleetEventLimitPerDeviceHour = 20_000
    /// The run's data folder: each scenario's devices keep their databases in a folder inside it
    /// (named like its trace file); nil: each scenario gets a temporary folder, removed after it.
    public var dataDirectory: String?

    /// Creates a runner.
    public init(seedOverride: UInt64? = nil, limits: RunLimits = RunLimits()) {
        self.seedOverride = seedOverride
        self.limits = limits
    }

    /// Runs `scenario` and evaluates its expectations; the result holds every event.
    public func run(_ scenario: Scenario) -> ScenarioResult {
        run(scenario, traceFile: nil, keepingEvents: true)
    }

    /// Runs `scenario`, streaming its trace to `traceFile` (JSON Lines) as events happen when one is
    /// given, and evaluates its expectations. With `keepingEvents` false the result's ``ScenarioResult/events``
    /// holds only the events the expectations look at, so memory does not grow with the trace.
    /// The devices' databases go into `dataFolder` (kept) when one is given.
    public func run(_ scenario: Scenario, traceFile: String?, keepingEvents: Bool, dataFolder: String? = nil) -> ScenarioResult {
        var limits = self.limits
        let end = VirtualInstant(offset: scenario.duration)
        if let maximum = limits.maximumVirtualTime, maximum < end { limits.maximumVirtualTime = end }
        if let perDeviceHour = eventLimitPerDeviceHour, let maximum = limits.maximumEvents {
            let hours = max(1, (scenario.duration.inSeconds / 3600).rounded(.up))
            let scaled = Double(perDeviceHour) * Double(scenario.devices.count) * hours
            limits.maximumEvents = max(maximum, Int(min(scaled, Double(Int.max / 2))))
        }
        if let maximum = limits.maximumEventsAtOneInstant {
            // A fleet's devices tick together: a hundred events per device at one instant are no wall.
            limits.maximumEventsAtOneInstant = max(maximum, 100 * scenario.devices.count)
        }
        let recorder = TraceRecorder(keepsEvents: keepingEvents)
        let expected = keepingEvents ? nil : ExpectedEventsRecorder(expectations: scenario.expectations)
        if let expected { recorder.forward(to: expected) }
        let diagnostics = keepingEvents ? nil : DiagnosticEventsRecorder()
        if let diagnostics { recorder.forward(to: diagnostics) }
        var traceFileError: String?
        var writer: TraceFileWriter?
        if let traceFile {
            do { writer = try TraceFileWriter(path: traceFile) } catch { traceFileError = error.message }
        }
        if let writer { recorder.forward(to: writer) }
        let simulation = ScenarioSimulation(scenario, seed: seedOverride, limits: limits, trace: recorder, dataFolder: dataFolder)
        var runError: String?
        var inputError: String?
        if !simulation.setupErrors.isEmpty {
            runError = simulation.setupErrors.joined(separator: "; ")
        } else {
            do {
                try simulation.run()
            } catch {
                runError = error.description
                // Stopped by the app's code (a real-clock sleep, stranded main-actor work): the scenario fails;
                // stopped by its input (a log that cannot be played): the file is invalid.
                if case .stopped = error, simulation.stoppedByAppCode == nil { inputError = error.description }
            }
        }
        if runError == nil, let error = simulation.dataFolderError { runError = "the devices' databases could not be kept: \(error)" }
        do { try writer?.close() } catch { traceFileError = error.message }
        let events = expected?.events ?? recorder.events
        var outcomes = ExpectationEvaluator.evaluate(scenario.expectations, events: events)
        if outcomes.contains(where: { !$0.passed }) {
            let found = diagnostics ?? DiagnosticEventsRecorder()
            if diagnostics == nil { for event in events { found.record(event) } }
            outcomes = RunDiagnostics.annotate(outcomes, with: found.events, total: found.count)
        }
        return ScenarioResult(
            scenario: scenario, seed: simulation.seed, events: events, outcomes: outcomes, runError: runError,
            eventCount: simulation.scheduler.eventCount, traceFileError: traceFileError, inputError: inputError)
    }
}

/// Checks expectations against a trace.
public enum ExpectationEvaluator {
    /// Whether `expectation` holds in `events`, and what was observed.
    /// A `where:` value that uses a captured variable (`${temp}`) matches nothing here: judge it with
    /// the expectation that captures it, through ``evaluate(_:events:)-swift.type.method``.
    public static func evaluate(_ expectation: Expectation, events: [TraceEvent]) -> ExpectationOutcome {
        evaluate([expectation], events: events)[0]
    }

    /// Whether each of `expectations` holds in `events` (variables captured by one are seen by the
    /// others), and what was observed, in order.
    public static func evaluate(_ expectations: [Expectation], events: [TraceEvent]) -> [ExpectationOutcome] {
        let tally = ExpectationTally(expectations)
        for event in events { tally.record(event) }
        return tally.outcomes
    }
}

extension Double {
    func rounded(toPlaces places: Int) -> Double {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        return (self * scale).rounded() / scale
    }
}
