import DeviceSimHAL
import DeviceSimTime

/// Checks a scenario's expectations as events go by, keeping only what each expectation needs (a
/// count and the first match, or the latest position by its instant), so a run of any length can be
/// judged without holding its trace. ``ExpectationEvaluator`` judges a whole trace the same way.
///
/// ```swift
/// let tally = ExpectationTally(scenario.expectations)
/// recorder.forward(to: tally)                    // with TraceRecorder(keepsEvents: false)
/// ...
/// for outcome in tally.outcomes { print(outcome.passed, outcome.observed) }
/// ```
public final class ExpectationTally: EventSink {
    private enum Progress {
        case event(EventExpectation, window: ClosedRange<VirtualInstant>?, count: Int, first: TraceEvent?, misses: Misses)
        case position(PositionExpectation, at: VirtualInstant, latest: TraceEvent?)
        case order(OrderExpectation, window: ClosedRange<VirtualInstant>?, firsts: [(index: Int, event: TraceEvent)?])
        /// Each alternative tallied on its own.
        case anyOf(AnyOfExpectation, alternatives: ExpectationTally)
    }

    /// How many events were recorded: the next event's place in the trace.
    private var recorded = 0
    /// The values the expectations capture, kept as the events go by for `where:` values that use them.
    private let captured: CapturedValues

    /// The events of an expectation's name (and device) that it did not count: outside its window, or
    /// with other field values. A failed expectation shows the closest (the fewest differences; the
    /// earliest of those), so its author sees what happened instead.
    struct Misses {
        var count = 0
        var closest: TraceEvent?
        var closestDifferences = Int.max

        /// The captured values when the closest was seen, for what its `${name}` fields stood for.
        var closestVariables: [String: String] = [:]

        mutating func record(_ event: TraceEvent, against expected: EventExpectation, window: ClosedRange<VirtualInstant>?, variables: [String: String]) {
            count += 1
            var differences = window.map { $0.contains(event.time) ? 0 : 1 } ?? 0
            for condition in expected.fields where !condition.matches(event[condition.key], variables: variables) { differences += 1 }
            if differences < closestDifferences {
                closest = event
                closestDifferences = differences
                closestVariables = variables
            }
        }

        /// What the misses say about `expected` when too few events matched.
        func describe(against expected: EventExpectation) -> String {
            let on = expected.device.map { " on \($0)" } ?? ""
            guard let first = closest else {
                return "no '\(expected.name)' event\(on) in the whole run (Scenarios/README.md lists the events each app records)"
            }
            var differences: [String] = []
            if let window = expected.window, !window.contains(first.time.offset) {
                differences.append("outside [\(DurationText.format(window.lowerBound)), \(DurationText.format(window.upperBound))]")
            }
            for condition in expected.fields {
                guard let actual = first[condition.key] else {
                    differences.append("no field '\(condition.key)'")
                    continue
                }
                guard !condition.matches(actual, variables: closestVariables) else { continue }
                var wanted = condition.expectedText
                if case .equalsCaptured(let template) = condition.test {
                    wanted += ScenarioVariables.substitute(template, closestVariables).map { " (\($0))" } ?? " (not captured yet)"
                }
                differences.append("\(condition.key)=\(actual.description), not \(wanted)")
            }
            let others = count == 1 ? "1 '\(expected.name)'\(on) did not match" : "\(count) '\(expected.name)'\(on) did not match, the closest"
            return "\(others) at \(DurationText.format(first.time.offset))\(first.device.map { " on \($0)" } ?? ""): \(differences.joined(separator: ", "))"
        }
    }

    private var progress: [Progress]
    /// The event expectations by the event name they wait for, and those of `stored:` and `server:`
    /// expectations by name and probe: an event is held against its own expectations only, so a
    /// scenario of 10,000 `stored:` expectations is judged in linear time (it was quadratic: 27 s).
    private let eventExpectations: [String: [Int]]
    private let probeExpectations: [ProbeKey: Int]
    /// Position and order expectations, which look at every event.
    private let otherExpectations: [Int]

    private struct ProbeKey: Hashable {
        var name: String
        var probe: String
    }

    /// The events a `stored:` or `server:` expectation reads (``StoredProbe``), one per probe.
    private static let probeEventNames: Set<String> = ["stored.rows", "server.rows"]

    /// Starts tallying `expectations` (in file order).
    public init(_ expectations: [Expectation]) {
        captured = CapturedValues(expectations)
        var byName: [String: [Int]] = [:]
        var byProbe: [ProbeKey: Int] = [:]
        var others: [Int] = []
        for (index, expectation) in expectations.enumerated() {
            guard case .event(let expected) = expectation else {
                others.append(index)
                continue
            }
            if Self.probeEventNames.contains(expected.name), let probe = Self.probe(of: expected), byProbe[ProbeKey(name: expected.name, probe: probe)] == nil {
                byProbe[ProbeKey(name: expected.name, probe: probe)] = index
            } else {
                byName[expected.name, default: []].append(index)
            }
        }
        eventExpectations = byName
        probeExpectations = byProbe
        otherExpectations = others
        progress = expectations.map { expectation in
            switch expectation {
            case .event(let expected):
                .event(
                    expected, window: expected.window.map { VirtualInstant(offset: $0.lowerBound)...VirtualInstant(offset: $0.upperBound) },
                    count: 0, first: nil, misses: Misses())
            case .position(let expected):
                .position(expected, at: VirtualInstant(offset: expected.at), latest: nil)
            case .order(let expected):
                .order(
                    expected, window: expected.window.map { VirtualInstant(offset: $0.lowerBound)...VirtualInstant(offset: $0.upperBound) },
                    firsts: Array(repeating: nil, count: expected.items.count))
            case .anyOf(let expected):
                .anyOf(expected, alternatives: ExpectationTally(expected.alternatives))
            }
        }
    }

    /// The probe an expectation of a `stored.rows` or `server.rows` event waits for (its fixed
    /// `probe` field).
    private static func probe(of expected: EventExpectation) -> String? {
        for condition in expected.fields where condition.key == "probe" {
            if case .equals(let value) = condition.test { return value }
        }
        return nil
    }

    /// The expectations `event` may count for or miss, in file order.
    private func candidates(for event: TraceEvent) -> [Int] {
        var indices = otherExpectations + (eventExpectations[event.name] ?? [])
        if Self.probeEventNames.contains(event.name), case .string(let probe)? = event["probe"],
            let index = probeExpectations[ProbeKey(name: event.name, probe: probe)] {
            indices.append(index)
        }
        if indices.count > 1, !otherExpectations.isEmpty { indices.sort() }
        return indices
    }

    public func record(_ event: TraceEvent) {
        captured.record(event)
        let variables = captured.values
        for index in candidates(for: event) {
            switch progress[index] {
            case .event(let expected, let window, let count, let first, var misses):
                guard event.name == expected.name, expected.device == nil || event.device == expected.device else { continue }
                guard window?.contains(event.time) ?? true, expected.fields.allSatisfy({ $0.matches(event[$0.key], variables: variables) }) else {
                    misses.record(event, against: expected, window: window, variables: variables)
                    progress[index] = .event(expected, window: window, count: count, first: first, misses: misses)
                    continue
                }
                progress[index] = .event(expected, window: window, count: count + 1, first: first ?? event, misses: misses)
            case .position(let expected, let at, _):
                guard event.time <= at, expected.events.contains(event.name),
                    expected.device == nil || event.device == expected.device, event.coordinate != nil
                else { continue }
                progress[index] = .position(expected, at: at, latest: event)
            case .order(let expected, let window, var firsts):
                guard expected.device == nil || event.device == expected.device, window?.contains(event.time) ?? true else { continue }
                var changed = false
                for (item, entry) in expected.items.enumerated() where firsts[item] == nil && entry.matches(event, variables: variables) {
                    firsts[item] = (recorded, event)
                    changed = true
                }
                if changed { progress[index] = .order(expected, window: window, firsts: firsts) }
            case .anyOf(_, let alternatives):
                alternatives.record(event)
            }
        }
        recorded += 1
    }

    /// One outcome per expectation, for the events seen so far.
    public var outcomes: [ExpectationOutcome] {
        progress.map { entry in
            switch entry {
            case .event(let expected, _, let count, let first, let misses): Self.outcome(expected, count: count, first: first, misses: misses)
            case .position(let expected, _, let latest): Self.outcome(expected, latest: latest)
            case .order(let expected, _, let firsts): Self.outcome(expected, firsts: firsts)
            case .anyOf(let expected, let alternatives): expected.outcome(of: alternatives.outcomes)
            }
        }
    }

    /// The first event each event expectation counted (nil for a position, or when none matched).
    package var firstMatches: [TraceEvent?] {
        progress.map { entry in
            if case .event(_, _, _, let first, _) = entry { return first }
            return nil
        }
    }

    static func outcome(_ expected: EventExpectation, count: Int, first: TraceEvent?, misses: Misses = Misses()) -> ExpectationOutcome {
        let passed = count >= expected.minimum && expected.maximum.map { count <= $0 } ?? true
        var quantity: String
        switch (expected.minimum, expected.maximum) {
        case (0, 0?): quantity = "no"
        case (let low, let high?) where low == high: quantity = "exactly \(low)"
        case (let low, nil): quantity = "at least \(low)"
        case (0, let high?): quantity = "at most \(high)"
        case (let low, let high?): quantity = "\(low) to \(high)"
        }
        var text = "\(quantity) '\(expected.name)'"
        if !expected.fields.isEmpty { text += " with " + expected.fields.map(\.description).joined(separator: ", ") }
        if let device = expected.device { text += " on \(device)" }
        if let range = expected.window { text += " within [\(DurationText.format(range.lowerBound)), \(DurationText.format(range.upperBound))]" }
        var observed = "\(count) found"
        if let first { observed += ", first at \(DurationText.format(first.time.offset))" }
        if count < expected.minimum, count == 0 || misses.count > 0 { observed += "; " + misses.describe(against: expected) }
        // Counts only grow: one past the maximum stays failed, a minimum with no maximum stays met.
        let settled = expected.maximum.map { count > $0 } ?? (count >= expected.minimum)
        return ExpectationOutcome(passed: passed, expected: text, observed: observed, location: expected.location, settled: settled)
    }

    static func outcome(_ expected: OrderExpectation, firsts: [(index: Int, event: TraceEvent)?]) -> ExpectationOutcome {
        var text = expected.items.map(\.text).joined(separator: ", then ")
        if let device = expected.device { text += " on \(device)" }
        if let range = expected.window { text += " within [\(DurationText.format(range.lowerBound)), \(DurationText.format(range.upperBound))]" }
        text += ", in this order"
        let missing = zip(expected.items, firsts).filter { $0.1 == nil }.map(\.0.text)
        guard missing.isEmpty else {
            // An item found before an earlier one that is still missing: that one, found later,
            // comes after it, so the order fails whatever follows.
            let lastFound = firsts.lastIndex { $0 != nil }
            let settled = lastFound.map { found in firsts[..<found].contains { $0 == nil } } ?? false
            return ExpectationOutcome(
                passed: false, expected: text, observed: "no \(missing.joined(separator: ", no "))", location: expected.location, settled: settled)
        }
        let found = firsts.compactMap { $0 }
        let at = { (event: TraceEvent) in "\(DurationText.format(event.time.offset))\(event.device.map { " on \($0)" } ?? "")" }
        // Every item's first event is known and never changes: the order is settled either way.
        for position in found.indices.dropFirst() where found[position].index < found[position - 1].index {
            return ExpectationOutcome(
                passed: false, expected: text,
                observed: "\(expected.items[position].text) at \(at(found[position].event)) came before \(expected.items[position - 1].text) at \(at(found[position - 1].event))",
                location: expected.location, settled: true)
        }
        return ExpectationOutcome(
            passed: true, expected: text, observed: found.map { "'\($0.event.name)' at \(at($0.event))" }.joined(separator: ", then "),
            location: expected.location, settled: true)
    }

    static func outcome(_ expected: PositionExpectation, latest: TraceEvent?) -> ExpectationOutcome {
        let text = "\(expected.probe) of \(expected.device ?? "the device") at \(DurationText.format(expected.at)) within \(TraceValue.double(expected.radius)) m of \(expected.near)"
        guard let latest, let coordinate = latest.coordinate else {
            return ExpectationOutcome(passed: false, expected: text, observed: "no \(expected.events.joined(separator: "/")) event by then", location: expected.location)
        }
        let distance = coordinate.distance(to: expected.near)
        return ExpectationOutcome(
            passed: distance <= expected.radius, expected: text,
            observed: "\(TraceValue.format(distance.rounded(toPlaces: 1))) m away at (\(TraceValue.format(coordinate.latitude.rounded(toPlaces: 6))), \(TraceValue.format(coordinate.longitude.rounded(toPlaces: 6)))) (from '\(latest.name)' at \(DurationText.format(latest.time.offset)))",
            location: expected.location)
    }
}
