import DeviceSimScenario
import DeviceSimSimulated
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The progress line of `devicesim run` on a terminal: runs done of the total, failures so far, time
/// elapsed, an estimate of the time left and the scenario (and seed) it is on, on standard error,
/// redrawn in place (and every second, so one long scenario does not look like a hang). Other output
/// clears it first and it is drawn again after; it is erased when the run ends. Made only when
/// standard error is a terminal: in a pipe or a file nothing of it is written.
///
/// The estimate adds up, for every run not done, the mean wall time of the finished runs of its
/// scenario file (of all finished runs while its file has none), divided by the number of jobs: a
/// sweep whose scenarios differ a hundredfold in length does not swing with the order they finish in.
///
/// ```
/// 1,204 / 27,800 runs · 2 failed · 21s elapsed · about 7m50s left · friend-locator/03-outage.yaml seed 17
/// ```
final class RunProgress: @unchecked Sendable {
    private let lock = NSLock()
    private let total: Int
    private let noun: String
    private let jobs: Int
    private let terminal: Terminal
    private let clock = ContinuousClock()
    private let started: ContinuousClock.Instant
    private var done = 0
    private var failed = 0
    /// Runs not done yet, per scenario file (its relative name).
    private var remaining: [String: Int]
    /// Finished runs' wall seconds per scenario file: their count and sum.
    private var wallTimes: [String: (count: Int, seconds: Double)] = [:]
    /// The runs under way, by their place in the plan: what the line names.
    private var running: [Int: String] = [:]
    /// Set after the first Ctrl-C: the line says the run is stopping.
    private var stopping = false
    /// Whether a line is on the screen now.
    private var shown = false
    private var lastDrawn: ContinuousClock.Instant?
    private var ticker: RepeatingThread?

    /// Draws at most this often when runs finish quickly one after another.
    private static let minimumRedrawInterval = Duration.milliseconds(100)

    /// A progress line for the runs of `plan` on standard error, or nil when standard error is not a terminal.
    static func onTerminal(plan: [ScenarioBatch.Item], noun: String, jobs: Int) -> RunProgress? {
        let terminal = Terminal.standardError
        guard terminal.isInteractive else { return nil }
        return RunProgress(plan: plan, noun: noun, jobs: jobs, terminal: terminal)
    }

    init(plan: [ScenarioBatch.Item], noun: String, jobs: Int, terminal: Terminal) {
        total = plan.count
        self.noun = noun
        self.jobs = max(1, min(jobs, plan.count))
        self.terminal = terminal
        remaining = plan.reduce(into: [:]) { $0[$1.found.relativeName, default: 0] += 1 }
        started = clock.now
    }

    /// Draws the line now and every second from now on.
    func start() {
        let ticker = RepeatingThread(name: "devicesim run progress", every: .seconds(1)) { [weak self] in
            guard let self else { return }
            lock.withLock { draw() }
        }
        self.ticker = ticker
        ticker.start()
    }

    /// Notes a run that started (called from the worker that runs it).
    func started(_ item: ScenarioBatch.Item) {
        lock.withLock { running[item.position] = item.seed.map { "\(item.found.relativeName) seed \($0)" } ?? item.found.relativeName }
    }

    /// Says on the line that no new run starts (the first Ctrl-C) and redraws it.
    func stopStarting() {
        lock.withLock {
            stopping = true
            draw()
        }
    }

    /// Counts one finished run and redraws the line (at most every tenth of a second).
    func finished(_ record: RunRecord) {
        lock.withLock {
            done += 1
            if !record.passed { failed += 1 }
            running[record.position] = nil
            remaining[record.name, default: 1] -= 1
            if record.invalid == nil {
                let times = wallTimes[record.name] ?? (0, 0)
                wallTimes[record.name] = (times.count + 1, times.seconds + record.wallSeconds)
            }
            if let lastDrawn, lastDrawn.duration(to: clock.now) < Self.minimumRedrawInterval { return }
            draw()
        }
    }

    /// Runs `write` (which prints to the terminal) with the line cleared, then draws the line again.
    func withLineCleared(_ write: () -> Void) {
        lock.lock()
        defer { lock.unlock() }
        clear()
        write()
        draw()
    }

    /// Stops redrawing and erases the line.
    func stop() {
        ticker?.stop()
        ticker = nil
        lock.withLock { clear() }
    }

    /// Seconds left: each scenario's runs not done times its finished runs' mean wall time (all
    /// finished runs' mean where it has none), over `jobs`; nil before any run finished.
    static func estimatedSecondsLeft(remaining: [String: Int], wallTimes: [String: (count: Int, seconds: Double)], jobs: Int) -> Double? {
        let all = wallTimes.values.reduce((count: 0, seconds: 0.0)) { ($0.count + $1.count, $0.seconds + $1.seconds) }
        guard all.count > 0 else { return nil }
        let overallMean = all.seconds / Double(all.count)
        let work = remaining.reduce(0.0) { sum, entry in
            let mean = wallTimes[entry.key].map { $0.seconds / Double($0.count) } ?? overallMean
            return sum + Double(max(0, entry.value)) * mean
        }
        return work / Double(max(1, jobs))
    }

    /// The line's text for `columns` columns (cut short rather than wrapped: a wrapped line could not
    /// be erased in place).
    static func text(done: Int, total: Int, failed: Int, noun: String, elapsed: Duration, secondsLeft: Double?, current: String?, stopping: Bool = false, columns: Int) -> String {
        var parts = ["\(grouped(done)) / \(grouped(total)) \(noun)\(total == 1 ? "" : "s")"]
        parts.append("\(grouped(failed)) failed")
        let seconds = Int(elapsed.components.seconds)
        parts.append("\(DurationText.format(.seconds(seconds))) elapsed")
        if stopping {
            parts.append("interrupted: finishing the runs under way (Ctrl-C again stops at once)")
        } else if done < total, let secondsLeft {
            parts.append("about \(DurationText.format(.seconds(Int(secondsLeft.rounded(.up))))) left")
        }
        if let current { parts.append(current) }
        let line = parts.joined(separator: " · ")
        let width = max(columns - 1, 10)
        return line.count > width ? String(line.prefix(width - 1)) + "…" : line
    }

    /// `12345` as `12,345`.
    static func grouped(_ value: Int) -> String {
        let digits = String(value)
        var out = ""
        for (index, character) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(character)
        }
        return out
    }

    private func draw() {
        let current = running.min { $0.key < $1.key }?.value
        let line = Self.text(
            done: done, total: total, failed: failed, noun: noun, elapsed: started.duration(to: clock.now),
            secondsLeft: Self.estimatedSecondsLeft(remaining: remaining, wallTimes: wallTimes, jobs: jobs),
            current: current.map(MessageText.escapingControls), stopping: stopping, columns: terminal.columns ?? 80)
        terminal.write("\r\u{1B}[2K" + line)
        shown = true
        lastDrawn = clock.now
    }

    private func clear() {
        guard shown else { return }
        terminal.write("\r\u{1B}[2K")
        shown = false
    }
}
