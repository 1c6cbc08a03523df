/// A value of a TPV report that has a valid range. libgps passes on whatever number gpsd sent (a
/// latitude of 1e300 included), so the client checks each one before a fix reaches the flows.
public enum GPSDFixField: String, Sendable, Hashable, CaseIterable {
    case latitude, longitude, altitude, speed, track, horizontalError, verticalError, hdop

    /// The field in words.
    public var name: String {
        switch self {
        case .latitude: "latitude"
        case .longitude: "longitude"
        case .altitude: "altitude"
        case .speed: "speed"
        case .track: "track"
        case .horizontalError: "horizontal error"
        case .verticalError: "vertical error"
        case .hdop: "HDOP"
        }
    }

    /// The values accepted. Beyond the earth's coordinates the bounds are generous: they keep
    /// absurd numbers (1e300) out, not unusual ones.
    public var range: ClosedRange<Double> {
        switch self {
        case .latitude: -90...90
        case .longitude: -180...180
        case .altitude: -100_000...1_000_000
        case .speed: 0...20_000
        case .track: 0...360
        case .horizontalError, .verticalError: 0...10_000_000
        case .hdop: 0...100
        }
    }

    /// The range with its unit, for messages.
    var rangeText: String {
        switch self {
        case .latitude: "-90...90 degrees"
        case .longitude: "-180...180 degrees"
        case .altitude: "-100000...1000000 m"
        case .speed: "0...20000 m/s"
        case .track: "0...360 degrees"
        case .horizontalError, .verticalError: "0...10000000 m"
        case .hdop: "0...100"
        }
    }

    /// Whether a value out of range makes the whole fix unusable (a position does; the others are
    /// dropped from the fix).
    public var dropsFix: Bool { self == .latitude || self == .longitude }

    /// `fix` with its values checked: nil when its position is out of range, otherwise the fix with
    /// each value out of range removed; and what was out of range.
    public static func check(_ fix: GPSDFix) -> (fix: GPSDFix?, problems: [GPSDUnusableInput]) {
        var checked = fix
        var problems: [GPSDUnusableInput] = []
        func inspect(_ field: GPSDFixField, _ value: WritableKeyPath<GPSDFix, Double?>) {
            guard let number = checked[keyPath: value], !field.range.contains(number) else { return }
            if field.dropsFix {
                problems.append(.positionOutOfRange(field: field, value: number))
            } else {
                problems.append(.valueOutOfRange(field: field, value: number))
                checked[keyPath: value] = nil
            }
        }
        inspect(.latitude, \.latitude)
        inspect(.longitude, \.longitude)
        inspect(.altitude, \.altitudeMSL)
        inspect(.speed, \.speed)
        inspect(.track, \.track)
        inspect(.horizontalError, \.horizontalError)
        inspect(.verticalError, \.verticalError)
        inspect(.hdop, \.hdop)
        let positionBad = problems.contains { if case .positionOutOfRange = $0 { true } else { false } }
        return (positionBad ? nil : checked, problems)
    }
}
