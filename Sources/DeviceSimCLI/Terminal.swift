import ArgumentParser
import DeviceSimScenario
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writing to the terminal, with colour only where it belongs (a TTY, no NO_COLOR).
struct Terminal: Sendable {
    let descriptor: Int32

    static let standardOutput = Terminal(descriptor: 1)
    static let standardError = Terminal(descriptor: 2)

    /// Whether colour codes should be written here.
    var supportsColor: Bool {
        isatty(descriptor) == 1 && ProcessInfo.processInfo.environment["NO_COLOR"] == nil
            && ProcessInfo.processInfo.environment["TERM"] != "dumb"
    }

    /// Whether this is a terminal that can redraw a line in place (a TTY, not `TERM=dumb`).
    var isInteractive: Bool {
        isatty(descriptor) == 1 && ProcessInfo.processInfo.environment["TERM"] != "dumb"
    }

    /// The terminal's width in columns (nil when it is not a terminal or does not say).
    var columns: Int? {
        var size = winsize()
        guard ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// Writes `text` whole. A write that fails (standard output on a full disk, `> /dev/full`) ends
    /// the process with exit status 1 and the reason on standard error: Foundation's
    /// `FileHandle.write` stopped it with a runtime trap instead.
    func write(_ text: String) {
        var text = text
        text.withUTF8 { write(UnsafeRawBufferPointer($0)) }
    }

    /// Writes `bytes` whole; a failure ends the process as for text.
    func write(_ bytes: UnsafeRawBufferPointer) {
        var offset = 0
        var failure: Int32?
        while offset < bytes.count {
            let written = Glibc_write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                failure = errno
                break
            }
            offset += written
        }
        guard let failure else { return }
        if descriptor != 2 {
            Terminal.standardError.write("error: cannot write \(descriptor == 1 ? "standard output" : "descriptor \(descriptor)"): \(String(cString: strerror(failure)))\n")
        }
        exit(1)
    }
}

/// ANSI styles, applied only when enabled.
struct Style: Sendable {
    let enabled: Bool

    func green(_ text: String) -> String { wrap(text, "32") }
    func red(_ text: String) -> String { wrap(text, "31") }
    func yellow(_ text: String) -> String { wrap(text, "33") }
    func dim(_ text: String) -> String { wrap(text, "2") }
    func bold(_ text: String) -> String { wrap(text, "1") }

    private func wrap(_ text: String, _ code: String) -> String {
        enabled ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
    }
}

/// `--color auto|always|never`.
enum ColorChoice: String, ExpressibleByArgument, CaseIterable, Sendable {
    case auto, always, never

    func enabled(for terminal: Terminal) -> Bool {
        switch self {
        case .auto: terminal.supportsColor
        case .always: true
        case .never: false
        }
    }
}



extension ScenarioDiscovery {
    /// The scenario files named by `paths` (with `scenariosOnly`, without the world and game files of
    /// the folders); prints the problem and exits 2 when a path does not exist or names no scenario file.
    static func findOrExit(_ paths: [String], scenariosOnly: Bool = false) throws -> [Found] {
        let found: [Found]
        do {
            found = try find(paths, scenariosOnly: scenariosOnly)
        } catch {
            Terminal.standardError.write("error: \(error)\n")
            throw ExitCode(2)
        }
        if found.isEmpty {
            Terminal.standardError.write("error: no scenario files (.yaml, .yml) in \(paths.joined(separator: ", "))\n")
            throw ExitCode(2)
        }
        return found
    }
}

/// The C library's `write`, named apart from ``Terminal/write(_:)``.
private func Glibc_write(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int { write(descriptor, bytes, count) }
