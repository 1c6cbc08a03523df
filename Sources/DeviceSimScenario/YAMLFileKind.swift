import Foundation

/// What a YAML file beside the scenarios is: a scenario, a world file (places, hotspots, beacons,
/// roads, radio settings) or a data file of a registered app (a campus game's objectives: see
/// ``ScenarioApp/dataFileKeys``), told apart by its top-level keys. Scenario
/// folders may hold a scenario's world and game files next to it: `devicesim run FOLDER` runs only the
/// scenarios, `devicesim validate FOLDER` checks each file as what it is.
///
/// ```swift
/// if YAMLFileKind(contentsOf: "Scenarios/campus-game/otaniemi/otaniemi.yaml") == .world { ... }
/// ```
public enum YAMLFileKind: String, Sendable, Hashable {
    /// A scenario file (it has `devices`).
    case scenario
    /// A world file.
    case world
    /// A data file of a registered app (``ScenarioApp/dataFileKeys``).
    case appData = "app-data"

    /// The keys only a world file has at its top level.
    static let worldKeys: Set<String> = ["radio", "places", "hotspots", "beacons", "roads"]

    /// The kind the top-level `keys` denote: anything with `devices` is a scenario; without them, world
    /// keys make a world file and a registered app's data-file keys its data file; the rest is read as
    /// a scenario (whose parser then says what is missing).
    public init(topLevelKeys keys: [String]) {
        if keys.contains("devices") {
            self = .scenario
        } else if keys.contains(where: Self.worldKeys.contains) {
            self = .world
        } else if ScenarioAppRegistry.dataFileOwner(topLevelKeys: keys) != nil {
            self = .appData
        } else {
            self = .scenario
        }
    }

    /// The kind of the YAML file at `path`; nil when it cannot be read or parsed (the scenario parser
    /// then says why).
    public init?(contentsOf path: String) {
        guard let text = try? ScenarioParser.readText(of: path, kind: "YAML", limit: max(ScenarioParser.maximumFileSize, WorldParser.maximumFileSize)) else {
            return nil
        }
        // A scenario (the usual case) is found without parsing the file: its parser reads it next anyway.
        if Self.hasTopLevelDevicesKey(text) {
            self = .scenario
            return
        }
        // So is a world or an app's data file (a world may be megabytes: parsing it whole only to
        // tell its kind took seconds, before its own reader refused it for its size).
        if Self.worldKeys.contains(where: { Self.topLevelValue(of: $0, in: text) != nil }) {
            self = .world
            return
        }
        if ScenarioAppRegistry.dataFileOwner(ofText: text) != nil {
            self = .appData
            return
        }
        guard let root = try? YAMLNode.parse(text, file: path), let keys = try? root.fieldNames() else { return nil }
        self.init(topLevelKeys: keys)
    }

    /// Whether a line of `text` starts with the key `devices` (at column 1: a top-level key).
    static func hasTopLevelDevicesKey(_ text: String) -> Bool {
        topLevelValue(of: "devices", in: text) != nil
    }

    /// What follows the colon on the first line of `text` that starts with `key` (at column 1: a
    /// top-level key; spaces and tabs may stand before the colon), up to the line's end (its CR
    /// left out); nil when no line does. Found by a scan of the bytes, without parsing.
    static func topLevelValue(of key: String, in text: String) -> String? {
        var text = text
        return text.withUTF8 { bytes in
            let key = Array(key.utf8)
            var lineStart = 0
            while lineStart < bytes.count {
                let lineEnd = bytes[lineStart...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
                if lineEnd - lineStart > key.count, bytes[lineStart..<lineStart + key.count].elementsEqual(key) {
                    var next = lineStart + key.count
                    while next < lineEnd, bytes[next] == UInt8(ascii: " ") || bytes[next] == UInt8(ascii: "\t") { next += 1 }
                    if next < lineEnd, bytes[next] == UInt8(ascii: ":") {
                        var valueEnd = lineEnd
                        if valueEnd > next + 1, bytes[valueEnd - 1] == UInt8(ascii: "\r") { valueEnd -= 1 }
                        return String(decoding: UnsafeBufferPointer(rebasing: bytes[(next + 1)..<valueEnd]), as: UTF8.self)
                    }
                }
                lineStart = lineEnd + 1
            }
            return nil
        }
    }

    /// Why a file with these top-level keys is not a scenario, and what to do with it instead (nil for a
    /// scenario).
    static func notAScenario(topLevelKeys keys: [String]) -> String? {
        switch YAMLFileKind(topLevelKeys: keys) {
        case .scenario: nil
        case .world: "this is a world file, not a scenario: a scenario names it with 'world: <path relative to the scenario>'; check it on its own with 'devicesim validate'"
        case .appData: "this is \(ScenarioAppRegistry.dataFileOwner(topLevelKeys: keys)?.dataFileHint ?? "an app's data file, not a scenario"); check it on its own with 'devicesim validate'"
        }
    }
}
