/// How a traveller moves on roads: on foot, by bicycle or by car.
public enum TravelMode: String, Sendable, Hashable, CaseIterable, Codable {
    case foot, bike, car

    /// The access tags that decide whether this mode may use a way, most specific first; the
    /// first one present on the way decides (see ``RoadRules``).
    public var accessTags: [String] {
        switch self {
        case .foot: ["foot", "access"]
        case .bike: ["bicycle", "vehicle", "access"]
        case .car: ["motorcar", "motor_vehicle", "vehicle", "access"]
        }
    }
}
