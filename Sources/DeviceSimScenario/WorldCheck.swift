import DeviceSimHAL
import DeviceSimSimulated
import Foundation

/// A world file checked on its own, as `devicesim validate` does: parsed (errors with
/// `file:line:column`), then warned about where its hotspots' access points cannot cover their areas.
///
/// ```swift
/// let check = try WorldCheck(contentsOf: "Simulator/worlds/hall.yaml")
/// for warning in check.warnings { print("\(warning)") }
/// ```
public struct WorldCheck: Sendable {
    /// The weakest signal the friend-locator app counts by default, dBm (its `minimum-rssi`).
    public static let defaultMinimumRSSI: Double = -70

    /// The world.
    public var world: World
    /// Warnings, each at the hotspot it concerns.
    public var warnings: [ScenarioError]

    /// Reads and checks the world file at `path`, against `minimumRSSI`.
    public init(contentsOf path: String, minimumRSSI: Double = WorldCheck.defaultMinimumRSSI) throws(ScenarioError) {
        let parsed = try WorldParser.parseWithLocations(ScenarioParser.readText(of: path, kind: "world", limit: WorldParser.maximumFileSize), file: path)
        world = parsed.world
        warnings = zip(parsed.world.hotspots, parsed.hotspotLocations).compactMap { hotspot, location in
            Self.coverageWarning(for: hotspot, environment: parsed.world.radio, minimumRSSI: minimumRSSI).map { ScenarioError("warning: \($0)", at: location) }
        }
    }

    /// What is wrong with `hotspot`'s coverage, or nil when, on average, one of its access points
    /// reaches `minimumRSSI` at its centre, at every corner and edge middle (polygons) or around its
    /// rim (circles).
    public static func coverageWarning(for hotspot: Hotspot, environment: RadioEnvironment, minimumRSSI: Double) -> String? {
        var worst: (point: GeoCoordinate, rssi: Double, distance: Double)?
        for point in hotspot.area.outline {
            var best = -Double.infinity, nearest = Double.infinity
            for accessPoint in hotspot.accessPoints {
                let distance = point.distance(to: accessPoint.position)
                best = max(best, RadioModel.wifiRSSI(transmitPower: accessPoint.transmitPower, distance: distance, environment: environment))
                nearest = min(nearest, distance)
            }
            if best < minimumRSSI, best < (worst?.rssi ?? .infinity) { worst = (point, best, nearest) }
        }
        guard let worst else { return nil }
        func format(_ value: Double, _ places: Int) -> String { String(format: "%.\(places)f", value) }
        return "hotspot '\(hotspot.name)': its access points cannot cover its area: at [\(format(worst.point.latitude, 6)), \(format(worst.point.longitude, 6))], "
            + "\(format(worst.distance, 0)) m from the nearest access point, the strongest signal is \(format(worst.rssi, 1)) dBm on average, "
            + "below the app's \(format(minimumRSSI, 0)) dBm; Wi-Fi alone cannot detect a device there (only the area, with a location fix, can). "
            + "Add an access point there, raise its power, or shrink the area"
    }

    /// Whether the YAML file at `path` is a world file (it has world keys and no `devices`), as opposed
    /// to a scenario; nil when it cannot be read or parsed (the scenario parser then says why).
    public static func isWorldFile(_ path: String) -> Bool? {
        YAMLFileKind(contentsOf: path).map { $0 == .world }
    }

    /// The world file `scenario` names, if any, relative to the current folder when it lies below it
    /// (read from the parsed scenario: parsing the file a second time to find it took a third of
    /// `validate`'s time on a large fleet).
    public static func worldPath(of scenario: Scenario) -> String? {
        scenario.worldFile.map(ShownPath.of)
    }
}
