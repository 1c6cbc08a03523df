import Foundation

/// Every file a scenario's parse reads besides the scenario itself (its world, the world's
/// OpenStreetMap extract, tracks, game files): ``ScenarioParser/parse(_:file:)`` binds one around
/// the parse and keeps what it collected in ``Scenario/inputFiles``, so a command can refuse an
/// output that would replace any of them.
///
/// ```swift
/// let scenario = try ScenarioParser.parse(contentsOf: "walk.yaml")
/// scenario.inputFiles   // ["/…/kumpula.world.yaml", "/…/kumpula.osm.pbf", "/…/walk.gpx"]
/// ```
package final class InputFileLog: @unchecked Sendable {
    private let lock = NSLock()
    private var paths: [String] = []
    private var seen: Set<String> = []

    /// The log the current parse writes to (nil outside a parse).
    @TaskLocal package static var current: InputFileLog?

    package init() {}

    /// Notes that the parse reads `path` (in the current log, if any).
    package static func note(_ path: String) {
        guard let log = current else { return }
        log.lock.withLock { if log.seen.insert(path).inserted { log.paths.append(path) } }
    }

    /// The files noted, in the order they were first read.
    package var files: [String] { lock.withLock { paths } }
}
