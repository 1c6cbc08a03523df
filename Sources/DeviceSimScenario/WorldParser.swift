import DeviceSimHAL
import DeviceSimRoads
import DeviceSimSimulated
import Foundation

/// Reads world files (Simulator/worlds/*.yaml): places, hotspots with their access points, beacons
/// and their fences, and the radio settings; errors carry `file:line:column` as in scenario files.
///
/// ```yaml
/// name: campus
/// roads: { osm: campus.osm.pbf }   # an OpenStreetMap extract, relative to the world file
/// radio: { wifi-exponent: 3.0, shadowing: 5 }
/// places:
///   library: [52.5125, 13.3269]
/// hotspots:
///   - name: library
///     area: { center: library, radius: 40 }
///     fence: library-beacons
///     access-points:
///       - { ssid: eduroam, bssid: "02:00:00:00:01:01", at: [52.5125, 13.3270], power: 20, channel: 6 }
/// beacons:
///   - ibeacon: { uuid: F7826DA6-4FA2-4E98-8024-BC5B71E0893E, major: 1, minor: 1 }
///     at: [52.51252, 13.32692]
///     measured-power: -59
///     fence: library-beacons
///   - eddystone: { namespace: edd1ebeac04e5defa017, instance: 0123456789ab }
///     eddystone-url: https://example.com    # sends URL frames too
///     advertising-interval: 100ms           # the default
///     at: [52.51260, 13.32700]
/// ```
public enum WorldParser {
    static let topLevelKeys = ["name", "description", "radio", "places", "hotspots", "beacons", "roads"]
    static let radioKeys = [
        "wifi-reference-loss", "wifi-exponent", "wifi-breakpoint", "beacon-exponent", "shadowing", "shadowing-distance", "shadowing-time", "wifi-sensitivity",
        "beacon-sensitivity", "beacon-fading",
    ]
    static let hotspotKeys = ["name", "area", "fence", "access-points"]
    static let areaKeys = ["center", "radius", "polygon"]
    static let accessPointKeys = ["ssid", "bssid", "at", "power", "channel"]
    static let beaconKeys = ["ibeacon", "eddystone", "eddystone-url", "at", "measured-power", "advertising-interval", "fence"]
    /// The largest world file accepted: 4 MiB, a dozen times a city of 1,000 hotspots (larger worlds
    /// are generated data, better kept in an OpenStreetMap extract).
    public static let maximumFileSize = 4 << 20

    /// Reads and parses the world file at `path` (once per process while the file is unchanged:
    /// the scenario files of a run share their worlds). Errors name the file relative to the current
    /// folder when it lies below it (``ShownPath``), as the scenario's own errors do.
    public static func parse(contentsOf path: String) throws(ScenarioError) -> World {
        try ParsedFileCache.worlds.value(at: path) { path throws(ScenarioError) in
            let shown = ShownPath.of(path)
            return try parse(ScenarioParser.readText(of: path, kind: "world", limit: maximumFileSize, shownAs: shown), file: shown)
        }
    }

    /// Parses world text; `file` names it in errors.
    public static func parse(_ text: String, file: String) throws(ScenarioError) -> World {
        try parseWithLocations(text, file: file).world
    }

    /// Parses world text; also returns where each hotspot is written (in the order of `world.hotspots`).
    static func parseWithLocations(_ text: String, file: String) throws(ScenarioError) -> (world: World, hotspotLocations: [SourceLocation]) {
        let root = try YAMLNode.parse(text, file: file)
        // Nothing of a file that is not a world is quoted back (`world: /etc/shadow` quoted a password
        // hash as an unknown key): it is named, with what a world file starts with.
        let notAWorld = "this is not a world file (a world file is YAML whose first key is one of \(topLevelKeys.joined(separator: ", "))); nothing of it is shown"
        guard root.isMapping else { throw ScenarioError(notAWorld, at: SourceLocation(file: file, line: 1, column: 1)) }
        if let first = (try? root.fieldNames())?.first, !topLevelKeys.contains(first) {
            throw ScenarioError(notAWorld, at: SourceLocation(file: file, line: 1, column: 1))
        }
        var hotspotLocations: [SourceLocation] = []
        let map = try root.mapping(allowing: topLevelKeys, what: "world")
        var world = World()
        world.name = try map.optional("name")?.string(what: "a world name") ?? URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
        if let radioNode = map.optional("radio") {
            let radio = try radioNode.mapping(allowing: radioKeys, what: "radio settings")
            func value(_ key: String, _ keyPath: WritableKeyPath<RadioEnvironment, Double>, _ valid: ClosedRange<Double>, _ what: String) throws(ScenarioError) {
                guard let node = radio.optional(key) else { return }
                let number = try node.double(what: what)
                guard valid.contains(number) else { throw node.error("\(key) must be within \(valid.lowerBound)...\(valid.upperBound), found \(number)") }
                world.radio[keyPath: keyPath] = number
            }
            try value("wifi-reference-loss", \.wifiReferenceLoss, 0...120, "a path loss at 1 m in dB")
            try value("wifi-exponent", \.wifiExponent, 1.5...6, "a path-loss exponent")
            try value("wifi-breakpoint", \.wifiBreakpoint, 0...10_000, "a breakpoint distance in metres (0: none)")
            try value("beacon-exponent", \.beaconExponent, 1.5...6, "a path-loss exponent")
            try value("shadowing", \.shadowing, 0...20, "a shadowing standard deviation in dB")
            try value("shadowing-distance", \.shadowingDistance, 0...1000, "a decorrelation distance in metres")
            if let node = radio.optional("shadowing-time") {
                let time = try node.duration(what: "a decorrelation time")
                guard time >= .zero, time <= .seconds(86_400) else { throw node.error("shadowing-time must be within 0s...1d") }
                world.radio.shadowingTime = time.inSeconds
            }
            try value("wifi-sensitivity", \.wifiSensitivity, -120 ... -40, "a sensitivity in dBm")
            try value("beacon-sensitivity", \.beaconSensitivity, -120 ... -40, "a sensitivity in dBm")
            try value("beacon-fading", \.beaconFading, 0...10, "a standard deviation in dB")
        }
        if let roadsNode = map.optional("roads") { (world.roads, world.roadsFile) = try parseRoads(roadsNode, file: file) }
        if let placesNode = map.optional("places") {
            guard placesNode.isMapping else { throw placesNode.error("expected a mapping of place name: [latitude, longitude]") }
            let names = (try? placesNode.fieldNames()) ?? []
            let places = try placesNode.mapping(allowing: names, what: "places")
            for entry in places.entries { world.places[entry.key] = try entry.value.coordinate() }   // one pass: a lookup per name was quadratic
        }
        var bssids: [String: SourceLocation] = [:]
        if let hotspotsNode = map.optional("hotspots") {
            for node in try hotspotsNode.sequence(what: "list of hotspots") {
                let hotspot = try parseHotspot(node, places: world.places, bssids: &bssids)
                if world.hotspots.contains(where: { $0.name == hotspot.name }) { throw node.error("a second hotspot named '\(MessageText.excerpt(hotspot.name))'") }
                world.hotspots.append(hotspot)
                hotspotLocations.append(node.location)
            }
        }
        var beaconIDs = Set<BeaconIdentifier>()
        if let beaconsNode = map.optional("beacons") {
            for node in try beaconsNode.sequence(what: "list of beacons") {
                let beacon = try parseBeacon(node, places: world.places)
                guard beaconIDs.insert(beacon.id).inserted else { throw node.error("a second beacon \(beacon.id)") }
                world.beacons.append(beacon)
            }
        }
        let fences = Set(world.beacons.compactMap(\.fence))
        for (index, hotspot) in world.hotspots.enumerated() {
            if let fence = hotspot.fence, !fences.contains(fence) {
                let node = try map.required("hotspots").sequence()[index]
                throw node.error("hotspot '\(MessageText.excerpt(hotspot.name))' names the fence '\(MessageText.excerpt(fence))', but no beacon belongs to it")
            }
        }
        return (world, hotspotLocations)
    }

    private static func parseRoads(_ node: YAMLNode, file: String) throws(ScenarioError) -> (RoadNetwork, String) {
        let roads = try node.mapping(allowing: ["osm"], what: "roads")
        let osmNode = try roads.required("osm")
        let name = try osmNode.string(what: "an OpenStreetMap extract (.osm.pbf) path")
        // `file` may be relative to the current folder (as errors show it): its folder is made absolute first.
        let url = URL(fileURLWithPath: name, relativeTo: URL(fileURLWithPath: file).absoluteURL.deletingLastPathComponent()).standardizedFileURL
        // Errors name the file as the user would type it: relative to the current folder when below it.
        let shown = ShownPath.of(url.path)
        guard FileManager.default.fileExists(atPath: url.path) else { throw osmNode.error("no OpenStreetMap extract at \(shown)") }
        if let refusal = InputFile.refusal(atPath: url.path) { throw osmNode.error("cannot read the OpenStreetMap extract \(shown): \(refusal)") }
        if let escape = ContainedPath.linkEscape(of: url.path) { throw osmNode.error("cannot read the OpenStreetMap extract: \(escape.replacingOccurrences(of: url.path, with: shown))") }
        do {
            // Read from its prepared file (RoadNetworkCache) when one was made from this extract.
            return (try ParsedFileCache.roadNetworks.value(at: url.path) { path throws(OSMReadError) in
                if let cache = RoadNetworkCache.standard { return try cache.network(contentsOf: path).network }
                return try RoadNetwork(contentsOf: path)
            }, url.path)
        } catch {
            throw osmNode.error("\(error)".replacingOccurrences(of: url.path, with: shown))
        }
    }

    private static func parseHotspot(_ node: YAMLNode, places: [String: GeoCoordinate], bssids: inout [String: SourceLocation]) throws(ScenarioError) -> Hotspot {
        let map = try node.mapping(allowing: hotspotKeys, what: "hotspot")
        let name = try map.requiredText("name", what: "a hotspot name")
        let areaNode = try map.required("area")
        let area = try areaNode.mapping(allowing: areaKeys, what: "area")
        let parsedArea: HotspotArea
        if let polygonNode = area.optional("polygon") {
            if area.optional("center") != nil || area.optional("radius") != nil { throw areaNode.error("an area is a circle (center, radius) or a polygon, not both") }
            var corners: [GeoCoordinate] = []
            for corner in try polygonNode.sequence(what: "list of corners") { corners.append(try corner.coordinate(places: places)) }
            guard corners.count >= 3 else { throw polygonNode.error("a polygon needs at least 3 corners, found \(corners.count)") }
            parsedArea = .polygon(corners)
        } else {
            let radiusNode = try area.required("radius")
            let radius = try radiusNode.double(what: "a radius in metres")
            guard radius > 0, radius <= 50_000 else { throw radiusNode.error("radius must be greater than 0 and at most 50 km") }
            parsedArea = .circle(center: try area.required("center").coordinate(places: places), radius: radius)
        }
        let fence = try map.optional("fence")?.string(what: "a beacon fence name")
        var accessPoints: [AccessPoint] = []
        for apNode in try map.required("access-points").sequence(what: "list of access points") {
            let ap = try apNode.mapping(allowing: accessPointKeys, what: "access point")
            let bssidNode = try ap.required("bssid")
            let bssid = try bssidNode.string(what: "a BSSID").lowercased()
            guard isMACAddress(bssid) else { throw bssidNode.error("expected a BSSID such as 02:00:00:00:01:01, found '\(MessageText.excerpt(bssid))'") }
            if let first = bssids[bssid] { throw bssidNode.error("BSSID \(bssid) is already used at \(first)") }
            bssids[bssid] = bssidNode.location
            var accessPoint = AccessPoint(
                ssid: try ap.required("ssid").string(what: "a network name"), bssid: bssid,
                position: try ap.optional("at")?.coordinate(places: places) ?? parsedArea.center)
            if let n = ap.optional("power") {
                accessPoint.transmitPower = try n.double(what: "a transmit power in dBm")
                guard (-10...36).contains(accessPoint.transmitPower) else { throw n.error("power must be within -10...36 dBm") }
            }
            if let n = ap.optional("channel") {
                accessPoint.channel = try n.int(what: "a channel number")
                guard (1...233).contains(accessPoint.channel) else { throw n.error("channel must be within 1...233") }
            }
            accessPoints.append(accessPoint)
        }
        guard !accessPoints.isEmpty else { throw try map.required("access-points").error("a hotspot needs at least one access point") }
        return Hotspot(name: name, area: parsedArea, accessPoints: accessPoints, fence: fence)
    }

    private static func parseBeacon(_ node: YAMLNode, places: [String: GeoCoordinate]) throws(ScenarioError) -> Beacon {
        let map = try node.mapping(allowing: beaconKeys, what: "beacon")
        let id: BeaconIdentifier
        switch (map.optional("ibeacon"), map.optional("eddystone")) {
        case (let ibeacon?, nil):
            let fields = try ibeacon.mapping(allowing: ["uuid", "major", "minor"], what: "iBeacon identity")
            let uuidNode = try fields.required("uuid")
            let uuid = try uuidNode.string(what: "a proximity UUID").uppercased()
            guard UUID(uuidString: uuid) != nil else { throw uuidNode.error("expected a UUID such as F7826DA6-4FA2-4E98-8024-BC5B71E0893E, found '\(MessageText.excerpt(uuid))'") }
            id = .iBeacon(uuid: uuid, major: try uint16(fields.required("major")), minor: try uint16(fields.required("minor")))
        case (nil, let eddystone?):
            let fields = try eddystone.mapping(allowing: ["namespace", "instance"], what: "Eddystone-UID identity")
            let namespace = try fields.required("namespace").string(what: "a namespace (20 hex digits)").lowercased()
            let instance = try fields.required("instance").string(what: "an instance (12 hex digits)").lowercased()
            guard namespace.count == 20, namespace.allSatisfy(\.isHexDigit) else { throw try fields.required("namespace").error("an Eddystone namespace is 20 hex digits") }
            guard instance.count == 12, instance.allSatisfy(\.isHexDigit) else { throw try fields.required("instance").error("an Eddystone instance is 12 hex digits") }
            id = .eddystone(namespace: namespace, instance: instance)
        case (nil, nil):
            throw node.error("a beacon needs an identity: 'ibeacon: {uuid, major, minor}' or 'eddystone: {namespace, instance}'")
        case (_?, _?):
            throw node.error("a beacon is either an iBeacon or an Eddystone beacon, not both")
        }
        var beacon = Beacon(id: id, position: try map.required("at").coordinate(places: places))
        if let n = map.optional("measured-power") {
            beacon.measuredPower = try n.double(what: "the RSSI at 1 m in dBm")
            guard (-100 ... -20).contains(beacon.measuredPower) else { throw n.error("measured-power must be within -100...-20 dBm") }
        }
        if let n = map.optional("eddystone-url") {
            guard case .eddystone = id else { throw n.error("an iBeacon sends no Eddystone-URL frames: give the URL to an 'eddystone:' beacon") }
            let url = try n.string(what: "a URL such as https://example.com")
            guard EddystoneURL.encode(url) != nil else {
                throw n.error("'\(MessageText.excerpt(url))' is not an Eddystone-URL: it starts with http:// or https://, and encodes in at most 17 bytes (.com/, .org/ and the like count as one)")
            }
            beacon.url = url
        }
        if let n = map.optional("advertising-interval") {
            let interval = try n.duration(what: "an advertising interval such as 100ms")
            guard interval >= Beacon.advertisingIntervals.lowerBound, interval <= Beacon.advertisingIntervals.upperBound else {
                throw n.error("advertising-interval must be within 20ms...10.24s (Bluetooth's advertising intervals), found \(interval)")
            }
            beacon.advertisingInterval = interval
        }
        beacon.fence = try map.optional("fence")?.string(what: "a beacon fence name")
        return beacon
    }

    private static func uint16(_ node: YAMLNode) throws(ScenarioError) -> UInt16 {
        let value = try node.int(what: "a number from 0 to 65535")
        guard let small = UInt16(exactly: value) else { throw node.error("expected a number from 0 to 65535, found \(value)") }
        return small
    }

    private static func isMACAddress(_ text: String) -> Bool {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        return parts.count == 6 && parts.allSatisfy { $0.count == 2 && $0.allSatisfy(\.isHexDigit) }
    }
}

extension YAMLNode {
    /// The node as a coordinate, or as the name of one of `places` (nil: no place names here, as in
    /// a world file's own `places:`). A value that is neither is refused with what is accepted, and
    /// the nearest place name.
    func coordinate(places: [String: GeoCoordinate]?) throws(ScenarioError) -> GeoCoordinate {
        if let text = scalarText {
            if let places, let place = places[text] { return place }
            throw error(Self.notAPositionMessage(text, places: places))
        }
        let coordinate = try latitudeAndLongitude()
        if let places, let swapped = Self.swappedIntoPlaces(coordinate, places) {
            throw error(
                "[\(TraceValue.format(coordinate.latitude)), \(TraceValue.format(coordinate.longitude))] lies far from the world's places, and [\(TraceValue.format(swapped.latitude)), \(TraceValue.format(swapped.longitude))] among them: are latitude and longitude swapped? Positions are written [latitude, longitude]")
        }
        return coordinate
    }

    /// Why the text `text` is no position: what a position may be written as, with the nearest of
    /// `places` (nil: place names do not apply).
    static func notAPositionMessage(_ text: String, places: [String: GeoCoordinate]?) -> String {
        let found = text.isEmpty ? "an empty value" : "'\(MessageText.excerpt(text))'"
        guard let places else { return "expected a position, [latitude, longitude] or { lat: …, lon: … }, found \(found)" }
        let names = places.keys.sorted()
        let forms = "a position is [latitude, longitude], { lat: …, lon: … } or a place name of the scenario's world"
        if Double(text.trimmingCharacters(in: .whitespaces)) == nil, !text.isEmpty {
            var message = "unknown place \(found)"
            message += NearestWord.didYouMean(text, among: names)
            if names.isEmpty { return message + " (\(forms); place names come from the `places:` of the file `world:` names, and this scenario has none)" }
            return message + " (\(forms): \(listed(names)))"
        }
        if names.isEmpty { return "expected a position, found \(found) (\(forms))" }
        return "expected a position, found \(found) (\(forms): \(listed(names)))"
    }

    /// Up to 10 of `names`, then how many more.
    private static func listed(_ names: [String]) -> String {
        names.count <= 10 ? names.joined(separator: ", ") : names.prefix(10).joined(separator: ", ") + " and \(names.count - 10) more"
    }

    /// `coordinate` with latitude and longitude swapped, when it lies more than 1° (about 100 km)
    /// outside the area of `places` and the swapped one inside it (within 0.05°, about 5 km).
    static func swappedIntoPlaces(_ coordinate: GeoCoordinate, _ places: [String: GeoCoordinate]) -> GeoCoordinate? {
        guard !places.isEmpty, abs(coordinate.longitude) <= 90 else { return nil }
        var south = 90.0, north = -90.0, west = 180.0, east = -180.0
        for place in places.values {
            south = min(south, place.latitude); north = max(north, place.latitude)
            west = min(west, place.longitude); east = max(east, place.longitude)
        }
        func outside(_ c: GeoCoordinate, by margin: Double) -> Bool {
            c.latitude < south - margin || c.latitude > north + margin || c.longitude < west - margin || c.longitude > east + margin
        }
        let swapped = GeoCoordinate(latitude: coordinate.longitude, longitude: coordinate.latitude)
        return outside(coordinate, by: 1) && !outside(swapped, by: 0.05) ? swapped : nil
    }
}
