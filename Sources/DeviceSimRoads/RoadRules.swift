import Foundation

/// Who may use an OSM `highway` way, in which directions, and how fast: the rules the road graph is
/// built with.
///
/// **Classes and default speeds** (km/h; a dash: the mode may not use the class unless an access
/// tag allows it):
///
/// | highway                        | car | bike | foot |
/// |--------------------------------|-----|------|------|
/// | motorway                       | 100 | -    | -    |
/// | motorway_link                  | 60  | -    | -    |
/// | trunk                          | 80  | -    | -    |
/// | trunk_link                     | 50  | -    | -    |
/// | primary, secondary             | 50  | 18   | 5    |
/// | primary_link, secondary_link   | 40  | 18   | 5    |
/// | tertiary (and _link)           | 40  | 18   | 5    |
/// | unclassified, road             | 40  | 18   | 5    |
/// | residential                    | 30  | 18   | 5    |
/// | service, track                 | 20  | 15   | 5    |
/// | living_street                  | 10  | 10   | 5    |
/// | cycleway                       | -   | 18   | 5    |
/// | path, trail (2)                | -   | 12   | 5    |
/// | pedestrian, footway, corridor  | -   | 5 (1)| 5    |
/// | steps                          | -   | -    | 2.5  |
///
/// (1) Bicycles on pedestrian streets and footways only where `bicycle=yes` or `designated`, at
/// walking pace. (2) `trail` is not an OSM standard value but tags 159 paths of the Helsinki extract.
/// Other classes (construction, proposed, platform, bus_guideway, raceway...) and ways
/// tagged `area=yes` are not roads.
///
/// **Speed**: a car drives at the way's `maxspeed` when it has one (km/h, `mph`, `FI:urban` and
/// similar country codes, `walk`), else at the class default; bicycles ride at the class speed but
/// never faster than `maxspeed`; people walk at the class speed.
///
/// **Access**: the first of the mode's tags present decides (foot: `foot`, `access`; bike:
/// `bicycle`, `vehicle`, `access`; car: `motorcar`, `motor_vehicle`, `vehicle`, `access`), each read
/// as `tag:forward` / `tag:backward` for the direction before `tag`: `no`, `private`,
/// `agricultural`, `forestry`, `delivery`, `use_sidepath` close the way that way, any other value
/// opens it (`yes`, `designated`, `permissive`, `destination`...). `service=emergency_access` is
/// closed to cars, car parks and driveways are driven at 10 km/h; `motorroad=yes` closes the way to
/// foot and bike; `bicycle=dismount` makes a bicycle walk.
///
/// **One-way**: per mode the first of `oneway:foot` (foot); `oneway:bicycle`, `oneway:vehicle`,
/// `oneway` (bike; `cycleway=opposite*` both ways); `oneway:motorcar`, `oneway:motor_vehicle`,
/// `oneway:vehicle`, `oneway` (car): `yes/true/1` forward only, `-1/reverse` backward only, `no`
/// both; implied for bike and car by `junction=roundabout`/`circular` and motorways.
///
/// The user's table of these rules: docs/road-rules.md.
public enum RoadRules {
    /// Default speeds per class, km/h, as (car, bike, foot); nil: not allowed by default.
    public static let classSpeeds: [String: (car: Double?, bike: Double?, foot: Double?)] = [
        "motorway": (100, nil, nil), "motorway_link": (60, nil, nil),
        "trunk": (80, nil, nil), "trunk_link": (50, nil, nil),
        "primary": (50, 18, 5), "primary_link": (40, 18, 5),
        "secondary": (50, 18, 5), "secondary_link": (40, 18, 5),
        "tertiary": (40, 18, 5), "tertiary_link": (40, 18, 5),
        "unclassified": (40, 18, 5), "road": (40, 18, 5),
        "residential": (30, 18, 5),
        "service": (20, 15, 5), "track": (20, 15, 5),
        "living_street": (10, 10, 5),
        "cycleway": (nil, 18, 5),
        "path": (nil, 12, 5), "trail": (nil, 12, 5),
        "pedestrian": (nil, nil, 5), "footway": (nil, nil, 5), "corridor": (nil, nil, 5),
        "steps": (nil, nil, 2.5),
    ]
    /// The speed of a bicycle on a footway or pedestrian street where bicycles are allowed, km/h.
    public static let bikeOnFootwaySpeed = 5.0
    /// Access values that close a way to a mode.
    public static let closingAccessValues: Set<String> = ["no", "private", "agricultural", "forestry", "delivery", "use_sidepath"]
    /// `maxspeed` values that name an implicit limit (km/h).
    public static let implicitSpeedLimits: [String: Double] = [
        "walk": 7, "FI:urban": 50, "FI:rural": 80, "FI:living_street": 20, "FI:motorway": 120,
        "DE:urban": 50, "DE:rural": 100, "DE:living_street": 7, "SE:urban": 50, "SE:rural": 70,
    ]

    /// Which directions a mode may travel a way in.
    public struct Directions: Sendable, Hashable {
        /// Along the way's node order.
        public var forward: Bool
        /// Against it.
        public var backward: Bool

        /// Creates directions.
        public init(forward: Bool, backward: Bool) {
            self.forward = forward
            self.backward = backward
        }
    }

    /// `service=` values a car may not use.
    public static let closedServiceValues: Set<String> = ["emergency_access"]
    /// `service=` values a car drives at ``carOnMinorServiceSpeed`` (car parks, driveways, alleys).
    public static let minorServiceValues: Set<String> = ["parking_aisle", "driveway", "alley", "drive-through", "drive-thru"]
    /// A car's speed on the minor service roads of ``minorServiceValues``, km/h.
    public static let carOnMinorServiceSpeed = 10.0

    /// A direction along a way.
    public enum Direction: String, Sendable, Hashable, CaseIterable {
        case forward, backward
    }

    /// The access value that decides for `mode` in `direction`: of the mode's tags (most specific
    /// first) the first present, each read as `tag:direction` before `tag`; nil when none is.
    public static func access(of mode: TravelMode, tags: [String: String], direction: Direction) -> String? {
        for key in mode.accessTags {
            if let value = tags["\(key):\(direction.rawValue)"] ?? tags[key] { return value }
        }
        return nil
    }

    /// The speed of `mode` on a way with `tags`, in km/h, or nil when the mode may use it in
    /// neither direction.
    public static func speed(of mode: TravelMode, tags: [String: String]) -> Double? {
        speed(of: mode, tags: tags, direction: .forward) ?? speed(of: mode, tags: tags, direction: .backward)
    }

    /// The speed of `mode` on a way with `tags` in `direction`, in km/h, or nil when the mode may not
    /// use it that way (one-way rules aside: see ``directions(of:tags:)``).
    public static func speed(of mode: TravelMode, tags: [String: String], direction: Direction) -> Double? {
        guard let highway = tags["highway"], tags["area"] != "yes", let defaults = classSpeeds[highway] else { return nil }
        var classSpeed: Double?
        switch mode {
        case .car: classSpeed = defaults.car
        case .bike: classSpeed = defaults.bike
        case .foot: classSpeed = defaults.foot
        }
        if mode != .car, tags["motorroad"] == "yes" { return nil }
        if mode == .car, highway == "service", let service = tags["service"] {
            if closedServiceValues.contains(service) { return nil }
            if minorServiceValues.contains(service) { classSpeed = carOnMinorServiceSpeed }
        }
        let access = access(of: mode, tags: tags, direction: direction)
        if let access {
            if closingAccessValues.contains(access) { return nil }
            if mode == .bike, access == "dismount" { return bikeOnFootwaySpeed }
            if classSpeed == nil {
                // Explicitly allowed on a class the mode does not use by default.
                switch mode {
                case .bike where ["pedestrian", "footway", "corridor"].contains(highway): classSpeed = bikeOnFootwaySpeed
                case .bike: classSpeed = highway == "steps" ? nil : 12
                case .foot: classSpeed = 5
                case .car: classSpeed = ["cycleway", "path", "pedestrian", "footway"].contains(highway) ? 10 : nil
                }
            }
        }
        guard var speed = classSpeed else { return nil }
        if let limit = tags["maxspeed"].flatMap(parseMaxspeed) {
            switch mode {
            case .car: speed = minorServiceValues.contains(tags["service"] ?? "") ? min(speed, limit) : limit
            case .bike: speed = min(speed, limit)
            case .foot: break
            }
        }
        return speed > 0 ? speed : nil
    }

    /// The one-way tags of each mode, most specific first (the first present decides).
    static func onewayTags(of mode: TravelMode) -> [String] {
        switch mode {
        case .foot: ["oneway:foot"]
        case .bike: ["oneway:bicycle", "oneway:vehicle", "oneway"]
        case .car: ["oneway:motorcar", "oneway:motor_vehicle", "oneway:vehicle", "oneway"]
        }
    }

    /// The directions `mode` may travel a way with `tags` in: its one-way rules, then its access in
    /// each direction (`motor_vehicle:forward=no`).
    public static func directions(of mode: TravelMode, tags: [String: String]) -> Directions {
        var directions = onewayDirections(of: mode, tags: tags)
        if directions.forward, speed(of: mode, tags: tags, direction: .forward) == nil { directions.forward = false }
        if directions.backward, speed(of: mode, tags: tags, direction: .backward) == nil { directions.backward = false }
        return directions
    }

    private static func onewayDirections(of mode: TravelMode, tags: [String: String]) -> Directions {
        if mode == .bike, ["opposite", "opposite_lane", "opposite_track"].contains(tags["cycleway"] ?? "") {
            return Directions(forward: true, backward: true)
        }
        let value = onewayTags(of: mode).lazy.compactMap { tags[$0] }.first
        switch value {
        case "yes", "true", "1": return Directions(forward: true, backward: false)
        case "-1", "reverse": return Directions(forward: false, backward: true)
        case "no", "false", "0": return Directions(forward: true, backward: true)
        default:
            let implied = mode != .foot && (["roundabout", "circular"].contains(tags["junction"] ?? "") || tags["highway"] == "motorway")
            return Directions(forward: true, backward: !implied)
        }
    }

    /// Whether a way with `tags` is off the surface, in a tunnel or on a bridge: `tunnel` or `bridge`
    /// with any value but `no` (`tunnel=yes`, `building_passage`, `culvert`; `bridge=yes`, `viaduct`).
    /// Positions join such a way only when no other street the mode may use is within reach, as
    /// GraphHopper snaps with its default `snap_preventions` (tunnel, bridge, ferry). `layer` and
    /// `level` are not read: a tunnel or bridge is one whatever its layer.
    public static func isOffTheSurface(_ tags: [String: String]) -> Bool {
        ["tunnel", "bridge"].contains { key in tags[key].map { $0 != "no" } ?? false }
    }

    /// A `maxspeed` value in km/h: `50`, `30 mph`, `FI:urban`, `walk`; nil for `none`, `signals` and
    /// what cannot be read.
    public static func parseMaxspeed(_ text: String) -> Double? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let implicit = implicitSpeedLimits[trimmed] { return implicit }
        if let value = Double(trimmed), value > 0 { return value }
        if trimmed.hasSuffix("mph"), let value = Double(trimmed.dropLast(3).trimmingCharacters(in: .whitespaces)), value > 0 { return value * 1.609344 }
        if trimmed.hasSuffix("km/h"), let value = Double(trimmed.dropLast(4).trimmingCharacters(in: .whitespaces)), value > 0 { return value }
        return nil
    }
}
