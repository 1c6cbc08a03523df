import DeviceSimHAL
import DeviceSimSimulated

/// A device's geofence monitoring in a scenario file: its timing mode, its region limit and the regions
/// monitored from the start (the app can add its own through `device.geofences`).
///
/// ```yaml
/// devices:
///   - id: commuter
///     at: home
///     geofences:
///       timing: realistic          # or ideal (the default): transitions at once
///       max-regions: 20            # iOS's limit; Android's (the default) is 100
///       regions:
///         - { id: office, at: office, radius: 200, dwell: 1m }
///         - { id: gym, at: [52.5200, 13.4050], radius: 150, notify: [enter, exit] }
/// ```
public struct GeofenceSpec: Sendable {
    /// The monitor's timing and limits.
    public var configuration = SimulatedGeofenceMonitor.Configuration()
    /// Regions monitored from the start.
    public var regions: [GeofenceRegion] = []

    /// No regions, ideal timing.
    public init() {}
}

extension ScenarioParser {
    static let geofenceKeys = ["timing", "max-regions", "regions"]
    static let geofenceRegionKeys = ["id", "at", "radius", "dwell", "notify"]

    /// Reads a device's `geofences:`; `at:` takes a coordinate or a place of the scenario's world.
    static func parseGeofences(_ node: YAMLNode, places: [String: GeoCoordinate]) throws(ScenarioError) -> GeofenceSpec {
        let map = try node.mapping(allowing: geofenceKeys, what: "geofences")
        var spec = GeofenceSpec()
        if let n = map.optional("timing") {
            spec.configuration.timing = try n.choice(["ideal", "realistic"], what: "geofence timing") == "ideal" ? .ideal : .realistic
        }
        if let n = map.optional("max-regions") {
            spec.configuration.maximumRegions = try n.int(what: "a number of regions")
            guard spec.configuration.maximumRegions >= 1 else { throw n.error("max-regions must be at least 1") }
        }
        for regionNode in try map.optional("regions")?.sequence(what: "list of regions") ?? [] {
            let regionMap = try regionNode.mapping(allowing: geofenceRegionKeys, what: "geofence region")
            let idNode = try regionMap.required("id")
            let id = try idNode.string(what: "a region id")
            guard !spec.regions.contains(where: { $0.id == id }) else { throw idNode.error("a second region named '\(MessageText.excerpt(id))'; region ids must differ") }
            let radiusNode = try regionMap.required("radius")
            let radius = try radiusNode.double(what: "a radius in metres")
            guard radius > 0 else { throw radiusNode.error("radius must be a positive number of metres") }
            var region = GeofenceRegion(id: id, center: try regionMap.required("at").coordinate(places: places), radius: radius)
            if let n = regionMap.optional("dwell") { region.loiteringDelay = try n.duration(what: "a loitering delay") }
            if let n = regionMap.optional("notify") {
                region.transitions = []
                for item in try n.sequence(what: "list of transitions") {
                    let name = try item.choice(GeofenceTransition.allCases.map(\.rawValue), what: "transition")
                    region.transitions.insert(GeofenceTransition(rawValue: name)!)
                }
            }
            spec.regions.append(region)
        }
        guard spec.regions.count <= spec.configuration.maximumRegions else {
            throw node.error("\(spec.regions.count) regions but max-regions is \(spec.configuration.maximumRegions)")
        }
        return spec
    }
}
