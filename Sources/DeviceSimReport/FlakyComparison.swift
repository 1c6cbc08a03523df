import DeviceSimHAL
import DeviceSimScenario
import DeviceSimTime

/// Why a scenario is flaky, as a report shows it: one seed that passes beside one that fails, the
/// first event where their traces part, the expectation that failed, and where every device (and its
/// app's marker) was at that moment under each seed.
///
/// ```swift
/// let passing = ReportSection(name: "walk.yaml", record: pass, scenario: scenario, events: passEvents)
/// let failing = ReportSection(name: "walk.yaml", record: fail, scenario: scenario, events: failEvents)
/// let comparison = FlakyComparison(passing: passing, failing: failing)
/// comparison.divergence      // 7: the traces agree on their first 7 events
/// comparison.moment          // 5 s: the time of the first event that differs
/// ```
public struct FlakyComparison {
    /// The seed that passes, and its trace.
    public var passing: ReportSection
    /// The seed that fails, and its trace.
    public var failing: ReportSection
    /// How many events the two traces share from their start (nil: they are the same throughout).
    public var divergence: Int?
    /// The moment to look at: the first differing event's time (the earlier of the two), else the
    /// failed expectation's moment, else the end.
    public var moment: VirtualInstant

    /// Compares a passing and a failing run of one scenario.
    public init(passing: ReportSection, failing: ReportSection) {
        self.passing = passing
        self.failing = failing
        divergence = Self.firstDivergence(passing.events, failing.events)
        if let index = divergence {
            let times = [passing.events, failing.events].compactMap { $0.indices.contains(index) ? $0[index].time : nil }
            moment = times.min() ?? failing.end
        } else {
            moment = failing.failures.first?.moment ?? failing.end
        }
    }

    /// How many events `a` and `b` share from the start (nil: all of them, and as many). Events are
    /// the same when their time, device, name and fields are, except the seed `scenario.started` names.
    public static func firstDivergence(_ a: [TraceEvent], _ b: [TraceEvent]) -> Int? {
        func same(_ x: TraceEvent, _ y: TraceEvent) -> Bool {
            guard x.time == y.time, x.device == y.device, x.name == y.name else { return false }
            let ignored: Set<String> = x.name == "scenario.started" ? ["seed"] : []
            let xs = x.fields.filter { !ignored.contains($0.key) }, ys = y.fields.filter { !ignored.contains($0.key) }
            return xs.count == ys.count && zip(xs, ys).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        }
        for index in 0..<min(a.count, b.count) where !same(a[index], b[index]) { return index }
        return a.count == b.count ? nil : min(a.count, b.count)
    }

    /// The comparison as the JSON object the report's script draws (times in milliseconds, positions
    /// in map units of a map fitted to both runs): `passSection` and `failSection` are the two runs'
    /// section numbers in the report (-1: none).
    func json(passSection: Int, failSection: Int, context: Int = 4) -> String {
        var out = ReportJSON()
        func ms(_ instant: VirtualInstant?) -> Int? { instant.map { Int($0.nanoseconds / 1_000_000) } }
        let pointsPerDevice = max(30, 2_000 / max(failing.devices.count, 1))
        let runs = [passing, failing]
        let tracks = runs.map { $0.tracks(pointsPerDevice: pointsPerDevice) }
        let tolerance = ReportSection.span(of: tracks.flatMap { $0 }) / 1000
        let markers = runs.map { $0.markerTracks(pointsPerDevice: pointsPerDevice, tolerance: tolerance) }
        var coordinates = (tracks + markers).flatMap { $0.flatMap { $0.points.map(\.coordinate) } }
        let failedCheck = failing.checks.first { !$0.outcome.passed }
        if let failedCheck, case .position(let expected) = failedCheck.expectation {
            coordinates += [expected.near.offsetBy(east: expected.radius, north: expected.radius), expected.near.offsetBy(east: -expected.radius, north: -expected.radius)]
        }
        let projection = MapProjection(fitting: coordinates)
        func point(_ coordinate: GeoCoordinate) -> [Int] {
            let point = projection.project(coordinate)
            return [Int(point.x.rounded()), Int(point.y.rounded())]
        }
        out.raw("{")
        out.key("name", first: true); out.string(failing.name)
        out.key("title"); out.string(failing.title)
        out.key("passSeed"); out.optionalString(passing.record?.seed.map { String($0) })
        out.key("failSeed"); out.optionalString(failing.record?.seed.map { String($0) })
        out.key("passSection"); out.int(passSection)
        out.key("failSection"); out.int(failSection)
        out.key("index"); out.optionalInt(divergence)
        out.key("t"); out.int(ms(moment)!)
        out.key("failure")
        if let failure = failing.failures.first {
            out.raw("{\"location\":"); out.string(failure.location)
            out.raw(",\"expected\":"); out.string(failure.expected)
            out.raw(",\"observed\":"); out.string(failure.observed)
            out.raw(",\"t\":"); out.optionalInt(ms(failure.moment)); out.raw("}")
        } else {
            out.raw("null")
        }
        out.key("devices"); out.array(failing.devices) { $0.string($1) }
        // The events around the divergence: the last few shared, then each run's next few.
        let start = max(0, (divergence ?? failing.events.count) - context)
        for (key, run) in [("pass", passing), ("fail", failing)] {
            out.key(key)
            out.raw("{\"events\":")
            let shown = run.events.indices.dropFirst(start).prefix(2 * context)
            out.array(shown) { out, index in
                let event = run.events[index]
                out.raw("[\(ms(event.time)!),"); out.optionalString(event.device); out.raw(","); out.string(event.name); out.raw(",")
                out.string(event.fields.map { "\($0.key)=\($0.value.description)" }.joined(separator: " "))
                out.raw(",\(divergence.map { index >= $0 } ?? false ? 1 : 0),\(index == divergence ? 1 : 0)]")
            }
            out.raw(",\"more\":\(max(0, run.events.count - start - 2 * context))}")
        }
        // The two maps: each device's track and its app's marker track, timed, for the script to place both at any moment.
        out.key("map")
        out.raw("{")
        out.key("w", first: true); out.int(Int(projection.width))
        out.key("h"); out.int(Int(projection.height.rounded()))
        out.key("upm"); out.raw(String(format: "%.6g", projection.unitsPerMetre))
        out.key("end"); out.int(ms(max(passing.end, failing.end))!)
        if let failedCheck, case .position(let expected) = failedCheck.expectation {
            out.key("check"); out.ints(point(expected.near) + [max(1, Int(projection.length(metres: expected.radius).rounded()))])
        }
        // Per run: [t, x, y, t, x, y, …] per device, of its track and of its app's marker track.
        for (number, key) in ["pass", "fail"].enumerated() {
            out.key(key)
            out.raw("{")
            for (name, drawn) in [("tracks", tracks[number]), ("markers", markers[number])] {
                out.key(name, first: name == "tracks")
                out.array(drawn) { out, track in
                    out.ints(track.points.flatMap { [Int($0.time.nanoseconds / 1_000_000)] + point($0.coordinate) })
                }
                out.key(name + "Breaks")
                out.array(drawn) { out, track in out.ints(track.breaks) }
            }
            out.raw("}")
        }
        out.raw("}")
        out.raw("}")
        return out.text
    }
}
