import Foundation
import Logging

/// Diagnostics of a live run, written through the ``LiveConsole`` so they scroll above the status
/// line instead of breaking into it. Live mode reports gpsd's problems in its own words, so only
/// errors are logged unless `DEVICESIM_LOG_LEVEL` (trace, debug, info, notice, warning, error,
/// critical) asks for more.
struct ConsoleLogHandler: LogHandler {
    let label: String
    let console: LiveConsole
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]

    init(label: String, console: LiveConsole) {
        self.label = label
        self.console = console
        logLevel = ProcessInfo.processInfo.environment["DEVICESIM_LOG_LEVEL"].flatMap(Logger.Level.init(rawValue:)) ?? .error
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        let details = merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        console.line("\(event.level) \(label): \(event.message)\(details.isEmpty ? "" : " " + details)", to: .standardError)
    }
}
