import DeviceSimHAL
import DeviceSimTime

/// The expectations of a run on the wall clock (`devicesim live`, `devicesim serve`), judged knowing
/// how the run went. A run stopped early (Ctrl-C, `--duration`) judges an expectation only when its
/// outcome is already decided at the stop:
/// - a count already past its maximum (`never:`, `at-most:`, an exact count) failed, whatever its window;
/// - a minimum with no maximum already met (an event that exists, `at-least:`) passed, and an order
///   whose items were all found is decided either way (one found before a missing earlier item failed);
/// - one whose window (or instant, for `position:`, `stored:` and `server:`) ended at or before the
///   stop is judged as `devicesim run` would judge it;
/// - anything else is not judged: a window not ended yet cannot pass `never:`, an exact count or
///   `at-most:` (more may come), nor fail `at-least:` (they may still come).
///
/// A person who answered the prompts differently from the script made the scripted flow's
/// expectations false: such failures are said as what they are. Only the other failures fail the run.
///
/// ```swift
/// let judged = LiveJudgement(scenario, outcomes: tally.outcomes, stoppedAt: scheduler.now, ownAnswers: answers)
/// for line in judged.lines { print(line) }
/// if judged.failed { throw ExitCode(1) }
/// ```
public struct LiveJudgement: Sendable {
    /// How one expectation came out.
    public enum Verdict: Sendable, Equatable {
        /// It held.
        case passed
        /// It did not hold, and nothing about the run excuses it.
        case failed
        /// Not decided: the run stopped before its window ended and what was seen by then does not
        /// settle it (the reason, in words).
        case notReached(String)
        /// It did not hold after the person's own answers, which differ from the script's (in words).
        case afterOwnAnswers(String)
    }

    /// Each expectation's outcome with its verdict, in file order.
    public let entries: [(outcome: ExpectationOutcome, verdict: Verdict)]

    /// Judges `outcomes` (one per expectation of `scenario`, from an ``ExpectationTally`` that saw
    /// the run's events) of a run that stopped at `stoppedAt`; `ownAnswers` says how a person's
    /// answers differed from the script's, if they did.
    public init(_ scenario: Scenario, outcomes: [ExpectationOutcome], stoppedAt: VirtualInstant, ownAnswers: String? = nil) {
        let stop = stoppedAt.offset
        let ranToTheEnd = stop >= scenario.duration
        entries = zip(scenario.expectations, outcomes).map { expectation, outcome in
            let end = expectation.judgedUntil(scenario.duration)
            guard ranToTheEnd || end <= stop || outcome.settled else {
                let window = expectation.windowText ?? "the whole run (\(DurationText.format(scenario.duration)))"
                return (outcome, .notReached("the run stopped at \(DurationText.format(stop)), before the end of \(window)"))
            }
            if outcome.passed { return (outcome, .passed) }
            if let ownAnswers { return (outcome, .afterOwnAnswers(ownAnswers)) }
            return (outcome, .failed)
        }
    }

    /// Whether an expectation failed that the run's early stop or the person's answers do not explain.
    public var failed: Bool { entries.contains { $0.verdict == .failed } }

    /// One line per expectation: `✓`, `✗`, or `–` (not judged) with the reason and without the observation.
    public var lines: [String] {
        entries.map { outcome, verdict in
            let body = "expected \(outcome.expected); observed \(outcome.observed)"
            switch verdict {
            case .passed: return "✓ \(body)"
            case .failed: return "✗ \(body)"
            // What was observed by the stop says nothing about the window: left out.
            case .notReached(let reason): return "– not judged (\(reason)): expected \(outcome.expected)"
            case .afterOwnAnswers(let reason): return "✗ after your own answers (\(reason)): \(body)"
            }
        }
    }
}

extension Expectation {
    /// The last instant the expectation looks at (a run of `duration` for one with no window).
    func judgedUntil(_ duration: Duration) -> Duration {
        switch self {
        case .event(let expected): expected.window?.upperBound ?? duration
        case .order(let expected): expected.window?.upperBound ?? duration
        case .position(let expected): expected.at
        case .anyOf(let expected): expected.alternatives.map { $0.judgedUntil(duration) }.max() ?? duration
        }
    }

    /// The expectation's window or instant in words (nil: the whole run).
    var windowText: String? {
        let window: ClosedRange<Duration>?
        switch self {
        case .event(let expected): window = expected.window
        case .order(let expected): window = expected.window
        case .position(let expected): return "its instant \(DurationText.format(expected.at))"
        case .anyOf: return nil
        }
        return window.map { "its window [\(DurationText.format($0.lowerBound)), \(DurationText.format($0.upperBound))]" }
    }
}

/// Watches how a person answered a device's prompts against the script's answers that were skipped
/// for them (`step.skipped` of `do: answer`), for ``LiveJudgement``.
public final class OwnAnswerLog: EventSink {
    private let devices: Set<String>
    private var scripted: [(device: String, prompt: String, choice: String)] = []
    private var answered: [(device: String, prompt: String, choice: String)] = []

    /// Watches the prompts of `devices` (those a person answers).
    public init(devices: Set<String>) {
        self.devices = devices
    }

    public func record(_ event: TraceEvent) {
        guard let device = event.device, devices.contains(device) else { return }
        if event.name == "step.skipped", event["do"]?.description == "answer",
            let prompt = event["prompt"]?.description, let choice = event["choice"]?.description {
            scripted.append((device, prompt, choice))
        } else if event.name == "prompt.answered", let prompt = event["prompt"]?.description, let choice = event["choice"]?.description {
            answered.append((device, prompt, choice))
        }
    }

    /// The first way the person's answers differ from the script's, in words (nil: they agree).
    public var difference: String? {
        for script in scripted {
            let own = answered.filter { $0.device == script.device && $0.prompt == script.prompt }.map(\.choice)
            if own.contains(script.choice) { continue }
            let said = own.isEmpty ? "you did not answer it" : "you answered \(own.joined(separator: ", "))"
            return "the script answers \(script.prompt) with \(script.choice) on \(script.device); \(said)"
        }
        return nil
    }
}
