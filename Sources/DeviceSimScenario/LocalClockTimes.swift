import Foundation
import DeviceSimSimulated

/// Instants written on the scenario's local clock: a step's or a probe's `at:` and the bounds of a
/// `within:` may be `YYYY-MM-DD HH:MM local` (or `HH:MM:SS`), a wall-clock time in the scenario's
/// `time-zone:` (UTC without one), daylight saving included. Before the rest of the file is read
/// each such value becomes its offset from `start-time`; a time before the start, one that does not
/// exist on that clock (skipped when the clocks go forward) or one it shows twice (when they go
/// back) is refused at its line and column.
///
/// ```yaml
/// start-time: 2026-09-05T21:50:00Z
/// time-zone: Europe/Oslo
/// timeline:
///   - { at: 2026-09-06 00:01 local, do: join-game }      # 11 minutes after the start
/// expect:
///   - { event: game.join-shown, within: [2026-09-06 00:01 local, 2026-09-06 00:02 local] }
/// ```
enum LocalClockTimes {
    /// The keys whose values (or, for `within`, whose items) may be local clock times.
    static let keys: Set<String> = ["at", "within"]

    /// `root` with every local clock time under ``keys`` replaced by its offset in seconds from
    /// `start` (`123s`), on `timeZone`'s clock.
    static func resolve(_ root: YAMLNode, start: Date, timeZone: TimeZone) throws(ScenarioError) -> YAMLNode {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        // The scalars to rewrite, found with the key each value stands under.
        var clockTimes: Set<UInt32> = []
        func find(_ node: YAMLNode, underKey key: String?) {
            if let pairs = node.pairs {
                for (name, value) in pairs { find(value, underKey: name.scalarText) }
            } else if let items = node.items {
                // A `within: [from, until]` keeps its key for its items; other lists start afresh.
                for item in items { find(item, underKey: key == "within" ? key : nil) }
            } else if let key, keys.contains(key), node.scalarText?.hasSuffix(" local") == true {
                clockTimes.insert(node.index)
            }
        }
        find(root, underKey: nil)
        guard !clockTimes.isEmpty else { return root }
        let copied = try root.copy(file: root.file, places: root.places) { (node) throws(ScenarioError) -> YAMLNode.Replacement in
            guard clockTimes.contains(node.index) else { return .keep }
            return .text(try offset(of: node, start: start, calendar: calendar), style: .plain)
        }
        return copied ?? root
    }

    /// `2026-09-06 00:00 local` as seconds after `start` (`"660s"`).
    static func offset(of scalar: YAMLNode, start: Date, calendar: Calendar) throws(ScenarioError) -> String {
        let text = scalar.scalarText ?? ""
        let location = scalar.location
        let clock = String(text.dropLast(" local".count)).trimmingCharacters(in: .whitespaces)
        let parts = clock.split(separator: " ")
        let date = parts.first.map { $0.split(separator: "-").compactMap { Int($0) } } ?? []
        let time = parts.count == 2 ? parts[1].split(separator: ":").compactMap { Int($0) } : []
        guard parts.count == 2, date.count == 3, (2...3).contains(time.count), parts[0].split(separator: "-").count == 3,
              parts[1].split(separator: ":").count == time.count else {
            throw ScenarioError("expected a local clock time such as 2026-09-06 00:00 local (YYYY-MM-DD HH:MM[:SS] local), found '\(MessageText.excerpt(text))'", at: location)
        }
        var wanted = DateComponents()
        (wanted.year, wanted.month, wanted.day, wanted.hour, wanted.minute, wanted.second) = (date[0], date[1], date[2], time[0], time[1], time.count == 3 ? time[2] : 0)
        let zone = calendar.timeZone.identifier
        var noon = wanted
        (noon.hour, noon.minute, noon.second) = (12, 0, 0)
        guard noon.isValidDate(in: calendar), (0...23).contains(time[0]), (0...59).contains(time[1]), (0...59).contains(wanted.second ?? 0),
              let instant = calendar.date(from: wanted) else {
            throw ScenarioError("'\(MessageText.excerpt(text))' is not a date and time", at: location)
        }
        // Read back on the clock: a time skipped when the clocks go forward comes back as another.
        let shown = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: instant)
        guard shown.year == wanted.year, shown.month == wanted.month, shown.day == wanted.day, shown.hour == wanted.hour,
              shown.minute == wanted.minute, shown.second == wanted.second else {
            throw ScenarioError("'\(MessageText.excerpt(clock))' does not happen in \(zone): the clocks skip it (daylight saving begins); write the time after the jump", at: location)
        }
        // A time the clock shows twice (the clocks go back): refused, the offset would be a guess.
        let hourLater = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: instant.addingTimeInterval(3600))
        if hourLater == shown || calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: instant.addingTimeInterval(-3600)) == shown {
            throw ScenarioError("'\(MessageText.excerpt(clock))' happens twice in \(zone) (daylight saving ends); write an offset from the start (such as 2h30m) instead", at: location)
        }
        let seconds = instant.timeIntervalSince(start)
        guard seconds >= 0 else {
            throw ScenarioError("'\(MessageText.excerpt(clock))' (\(zone)) is before the scenario's start-time", at: location)
        }
        return seconds.rounded() == seconds ? "\(Int64(seconds))s" : "\(seconds)"
    }
}
