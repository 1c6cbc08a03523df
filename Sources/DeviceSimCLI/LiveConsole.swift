import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The terminal of a live run: lines (events, problems, prompts) scroll above one status line that
/// is redrawn in place. Every write goes through one lock, so a line never lands inside the status
/// line, whichever thread writes it.
///
/// ```swift
/// let console = LiveConsole(showsStatusLine: true)
/// console.status("3D fix | sats 8/12 | ...")
/// console.line("12.000s  walker  marker.moved")     // scrolls above the status line
/// console.finish()                                   // clears the status line
/// ```
final class LiveConsole: @unchecked Sendable {
    /// Whether a status line is drawn (standard output is a terminal).
    let showsStatusLine: Bool
    private let lock = NSLock()
    /// The status line on screen now (nil: none drawn).
    private var drawn: String?

    init(showsStatusLine: Bool) {
        self.showsStatusLine = showsStatusLine
    }

    /// Writes `text` as a line of its own on `terminal`, above the status line.
    func line(_ text: String, to terminal: Terminal = .standardOutput) {
        lock.withLock {
            let status = drawn
            if status != nil { Terminal.standardOutput.write("\r\u{1B}[2K") }
            terminal.write(text + "\n")
            if let status { Terminal.standardOutput.write(status) }
        }
    }

    /// Redraws the status line with `text` (cut to the terminal's width, so it never wraps).
    func status(_ text: String) {
        guard showsStatusLine else { return }
        lock.withLock {
            let fitted = Self.fit(text, width: Self.columns() - 1)
            drawn = fitted
            Terminal.standardOutput.write("\r\u{1B}[2K" + fitted)
        }
    }

    /// Clears the status line (before the summary, and on exit).
    func finish() {
        lock.withLock {
            guard drawn != nil else { return }
            drawn = nil
            Terminal.standardOutput.write("\r\u{1B}[2K")
        }
    }

    /// `text` cut to `width` characters.
    static func fit(_ text: String, width: Int) -> String {
        text.count <= width ? text : String(text.prefix(max(0, width - 1))) + "…"
    }

    /// The width of the terminal on standard output (80 when unknown).
    static func columns() -> Int {
        var size = winsize()
        guard ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }
}
