import DeviceSimHAL
import DeviceSimScenario
import DeviceSimSimulated

/// A campus game file: the game's time zone, the day its week starts on, and its objectives at real
/// buildings. Errors carry `file:line:column` like scenario files.
///
/// ```yaml
/// name: TU Berlin campus hunt
/// time-zone: Europe/Berlin          # IANA name (UTC)
/// week-starts: monday               # (monday)
/// objectives:
///   - { id: library, name: University Library, at: [52.51080, 13.33050], radius: 30, points: 10, info: "Opened in 2004." }
/// ```
public struct GameDefinition: Sendable, Hashable {
    /// The game's name.
    public var name: String
    /// The game's IANA time zone: days and weeks roll over at its local midnight.
    public var timeZone: String
    /// The first day of the week.
    public var weekStarts: GameCalendar.Weekday
    /// The objectives of every day's game.
    public var objectives: [GameObjective]
}

/// Reads game files.
public enum GameFileParser {
    static let keys = ["name", "time-zone", "week-starts", "objectives"]
    static let objectiveKeys = ["id", "name", "at", "radius", "points", "info"]
    /// The most points one objective gives (scores add them up over weeks of many players).
    public static let maximumPoints = 1_000_000

    /// The largest game file read: 8 MiB (about 100,000 objectives of one line each), which validates
    /// in under 5 s (`Benchmarks/limits/validate-at-limits.py game`; 16 MiB took 10.6 s of CPU).
    public static let maximumFileSize = 8 << 20

    /// Reads the game file at `path`; errors name it relative to the current folder when it lies
    /// below it (``ShownPath``), as the scenario's own errors do.
    public static func parse(contentsOf path: String) throws(ScenarioError) -> GameDefinition {
        let shown = ShownPath.of(path)
        return try parse(ScenarioParser.readText(of: path, kind: "game", limit: maximumFileSize, shownAs: shown), file: shown)
    }

    /// Reads a game file's text.
    public static func parse(_ text: String, file: String) throws(ScenarioError) -> GameDefinition {
        let root = try YAMLNode.parse(text, file: file)
        if let error = root.notAMappingError(in: text, expected: "a game file with keys \(keys.joined(separator: ", "))") { throw error }
        let map = try root.mapping(allowing: keys, what: "game file")
        let name = try map.optional("name")?.string(what: "the game's name") ?? "campus game"
        var timeZone = "UTC"
        if let node = map.optional("time-zone") {
            timeZone = try node.string(what: "an IANA time zone name")
            do { _ = try GameCalendar(startDate: .init(timeIntervalSince1970: 0), timeZone: timeZone) } catch { throw node.error(error.description) }
        }
        var weekStarts = GameCalendar.Weekday.monday
        if let node = map.optional("week-starts") {
            weekStarts = GameCalendar.Weekday(rawValue: try node.choice(GameCalendar.Weekday.allCases.map(\.rawValue), what: "a day of the week"))!
        }
        let list = try map.required("objectives").sequence(what: "list of objectives")
        guard !list.isEmpty else { throw try map.required("objectives").error("a game needs at least one objective") }
        var objectives: [GameObjective] = []
        var ids: Set<String> = []   // a set, not a scan of the list: 200,000 objectives took minutes
        for item in list {
            let objective = try item.mapping(allowing: objectiveKeys, what: "objective")
            let id = try objective.requiredText("id", what: "an objective id")
            let idNode = try objective.required("id")
            guard ids.insert(id).inserted else { throw idNode.error("two objectives have the id '\(MessageText.excerpt(id))'") }
            let radiusNode = try objective.required("radius")
            let radius = try radiusNode.double(what: "a radius in metres")
            guard radius > 0, radius <= 5_000 else { throw radiusNode.error("radius must be more than 0 and at most 5000 metres, found \(radius)") }
            let pointsNode = try objective.required("points")
            let points = try pointsNode.int(what: "a number of points")
            guard (1...maximumPoints).contains(points) else { throw pointsNode.error("points must be within 1...\(maximumPoints), found \(points)") }
            objectives.append(GameObjective(
                id: id, name: try objective.optional("name").map { (node) throws(ScenarioError) in try objective.requiredText("name", what: "the building's name") },
                center: try position(of: objective.required("at")), radius: radius, points: points,
                info: try objective.optional("info")?.string(what: "the building's info message") ?? ""))
        }
        return GameDefinition(name: name, timeZone: timeZone, weekStarts: weekStarts, objectives: objectives)
    }

    /// An objective's position: `[lat, lon]` or `{lat: …, lon: …}`. A game file has no world, so a
    /// place name is refused with what to write instead.
    static func position(of node: YAMLNode) throws(ScenarioError) -> GeoCoordinate {
        if let name = node.scalarText, Double(name) == nil {
            throw node.error("expected the objective's position as [latitude, longitude], found the place name '\(MessageText.excerpt(name))': a game file has no world, so place names cannot be used here (copy the place's [lat, lon] from the world file)")
        }
        return try node.coordinate()
    }
}
