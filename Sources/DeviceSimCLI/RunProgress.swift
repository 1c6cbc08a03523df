import DeviceSimScenario
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The progress line of `devicesim run` on a terminal: runs done of the total, failures so far, time
/// elapsed and an estimate of the time left, on standard error, redrawn in place (and every second, so
/// one long scenario does not look like a hang). Other output clears it first and it is drawn again
/// after; it is erased when the run ends. Made only when standard error is a terminal: in a pipe or
/// a file nothing of it is written.
///
/// ```
/// 1,204 / 27,800 runs · 2 failed · 21s elapsed · about 7m50s left
/// ```
final class RunProgress: @unchecked Sendable {
    private let lock = NSLock()
    private let total: Int
    private let noun: String
    private let terminal: Terminal
    private let clock = ContinuousClock()
    private let started: ContinuousClock.Instant
    private var done = 0
    private var failed = 0
    /// Whether a line is on the screen now.
    private var shown = false
    private var lastDrawn: ContinuousClock.Instant?
    private var ticker: RepeatingThread?

    /// Draws at most this often when runs finish quickly one after another.
    private static let minimumRedrawInterval = Duration.milliseconds(100)

    /// A progress line for `total` runs on standard error, or nil when standard error is not a terminal.
    static func onTerminal(total: Int, noun: String) -> RunProgress? {
        let terminal = Terminal.standardError
        guard terminal.isInteractive else { return nil }
        return RunProgress(total: total, noun: noun, terminal: terminal)
    }

    init(total: Int, noun: String, terminal: Terminal) {
        self.total = total
        self.noun = noun
        self.terminal = terminal
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

    /// Counts one finished run and redraws the line (at most every tenth of a second).
    func finished(passed: Bool) {
        lock.withLock {
            done += 1
            if !passed { failed += 1 }
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

    /// The line's text for `columns` columns (cut short rather than wrapped: a wrapped line could not
    /// be erased in place).
    static func text(done: Int, total: Int, failed: Int, noun: String, elapsed: Duration, columns: Int) -> String {
        var parts = ["\(grouped(done)) / \(grouped(total)) \(noun)\(total == 1 ? "" : "s")"]
        parts.append("\(grouped(failed)) failed")
        let seconds = Int(elapsed.components.seconds)
        parts.append("\(DurationText.format(.seconds(seconds))) elapsed")
        if done > 0, done < total {
            let left = Double(seconds) + Double(elapsed.components.attoseconds) / 1e18
            let estimate = left / Double(done) * Double(total - done)
            parts.append("about \(DurationText.format(.seconds(Int(estimate.rounded(.up))))) left")
        }
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
        let line = Self.text(done: done, total: total, failed: failed, noun: noun, elapsed: started.duration(to: clock.now), columns: terminal.columns ?? 80)
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
