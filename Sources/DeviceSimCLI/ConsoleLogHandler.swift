import Foundation
import Logging

/// Diagnostics of the subcommands that talk to gpsd or serve clients (`live`, `record`, `serve`), on
/// standard error: through the ``LiveConsole`` when there is one, so they scroll above the status
/// line instead of breaking into it. Those subcommands report what a user needs in their own words
/// (gpsd out of reach, a connection dropped, a client refused), so only errors are logged unless
/// `DEVICESIM_LOG_LEVEL` (trace, debug, info, notice, warning, error, critical) asks for more.
///
/// ```swift
/// ConsoleLogHandler.bootstrap()                     // record, serve
/// ConsoleLogHandler.bootstrap(console: console)     // live
/// ```
struct ConsoleLogHandler: LogHandler {
    let label: String
    let console: LiveConsole?
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]

    /// The level asked for with `DEVICESIM_LOG_LEVEL`; errors only without it (or with a value that is
    /// no level).
    static var requestedLevel: Logger.Level {
        ProcessInfo.processInfo.environment["DEVICESIM_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .error
    }

    init(label: String, console: LiveConsole?) {
        self.label = label
        self.console = console
        logLevel = Self.requestedLevel
    }

    /// Makes every logger of the process (swift-log's, whose default prints `info` and up) write
    /// here. Called by the subcommand that runs, before it creates anything that logs; swift-log
    /// allows one bootstrap per process, so a second call (a host program that runs two commands)
    /// keeps the first.
    static func bootstrap(console: LiveConsole? = nil) {
        bootstrapLock.lock()
        defer { bootstrapLock.unlock() }
        guard !bootstrapped else { return }
        bootstrapped = true
        LoggingSystem.bootstrap { label in ConsoleLogHandler(label: label, console: console) }
    }

    private static let bootstrapLock = NSLock()
    nonisolated(unsafe) private static var bootstrapped = false   // guarded by bootstrapLock

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        let details = merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        let line = "\(event.level) \(label): \(event.message)\(details.isEmpty ? "" : " " + details)"
        if let console { console.line(line, to: .standardError) } else { Terminal.standardError.write(line + "\n") }
    }
}
