import DeviceSimScenario
import DeviceSimHAL
import DeviceSimSimulated
import DeviceSimTime

/// How much an HTML report draws, so that a report of 1,000 devices or a day of 1 Hz fixes stays small
/// and quick to open. Events are never dropped from the event table's data; only what is drawn is
/// thinned out.
public struct ReportLimits: Sendable, Hashable {
    /// Scenarios shown in full (map, timeline, events); the rest get a row in the summary table.
    /// Failed scenarios come first.
    public var detailedScenarios = 100
    /// Track points drawn per scenario, shared among its devices (each keeps at least 30).
    public var trackPoints = 200_000
    /// Event markers drawn on a scenario's map (spread evenly over the trace when there are more).
    public var mapMarkers = 5_000
    /// Points of the streets drawn for one road network (simplified further when there are more).
    public var streetPoints = 25_000
    /// Flaky scenarios shown with a passing and a failing seed side by side.
    public var flakyComparisons = 20

    /// The default limits.
    public init() {}
}

/// Events too frequent to mark on a map: the track already shows where they happened.
private let unmarkedEvents: Set<String> = ["marker.moved", "step", "route.started", "scenario.started", "scenario.finished"]

extension ReportSection {
    /// The section as the JSON object the report's script draws from (times in milliseconds,
    /// positions in map units); the world's streets go into `streets`, shared with other sections.
    func json(limits: ReportLimits, reproduceCommand: String?, streets: inout ReportStreets) -> String {
        var out = ReportJSON(reservingCapacity: 256 + events.count * 48)
        let pointsPerDevice = max(30, limits.trackPoints / max(devices.count, 1))
        let tracks = tracks(pointsPerDevice: pointsPerDevice)
        let tolerance = Self.span(of: tracks) / 1000
        let markerTracks = markerTracks(pointsPerDevice: max(30, pointsPerDevice / 2), tolerance: tolerance)
        var coordinates = tracks.flatMap { $0.points.map(\.coordinate) }
        // The map opens on the devices' tracks, the places events happened and the checked places; the
        // whole world (hotspots, access points, beacons) is what the map spans, a zoom-out away.
        var focused = coordinates
        for event in events { if let coordinate = event.coordinate { focused.append(coordinate) } }
        for check in checks {
            guard case .position(let expected) = check.expectation else { continue }
            focused += [expected.near.offsetBy(east: expected.radius, north: expected.radius), expected.near.offsetBy(east: -expected.radius, north: -expected.radius)]
        }
        if let world = scenario?.world {
            for hotspot in world.hotspots {
                switch hotspot.area {
                case .circle(let center, let radius):
                    coordinates += [center.offsetBy(east: radius, north: radius), center.offsetBy(east: -radius, north: -radius)]
                case .polygon(let corners): coordinates += corners
                }
            }
            coordinates += world.accessPoints.map(\.position) + world.beacons.map(\.position)
        }
        for event in events { if let coordinate = event.coordinate { coordinates.append(coordinate) } }
        for check in checks {
            guard case .position(let expected) = check.expectation else { continue }
            coordinates += [expected.near.offsetBy(east: expected.radius, north: expected.radius), expected.near.offsetBy(east: -expected.radius, north: -expected.radius)]
        }
        let projection = MapProjection(fitting: coordinates)
        let streetLayer = scenario?.world?.roads.flatMap { streets.use($0, covering: coordinates) }
        func point(_ coordinate: GeoCoordinate) -> (Int, Int) {
            let point = projection.project(coordinate)
            return (Int(point.x.rounded()), Int(point.y.rounded()))
        }

        out.raw("{")
        out.key("name", first: true); out.string(name)
        out.key("title"); out.string(title)
        out.key("file"); out.optionalString(record?.path ?? scenario?.file)
        out.key("seed"); out.optionalString((record?.seed ?? scenario?.seed).map { String($0) })
        out.key("status"); out.string(record?.invalid != nil ? "invalid" : passed.map { $0 ? "passed" : "failed" } ?? "unknown")
        out.key("reproduce"); out.optionalString(reproduceCommand)
        out.key("end"); out.int(Int(end.nanoseconds / 1_000_000))
        out.key("wall"); out.optionalString(record.map { TraceValue.format(($0.wallSeconds * 1000).rounded() / 1000) })
        out.key("expectations"); out.int(expectationCount)
        out.key("runError"); out.optionalString(record?.runError)
        out.key("failures")
        out.array(failures) { out, failure in
            out.raw("{")
            out.key("location", first: true); out.string(failure.location)
            out.key("expected"); out.string(failure.expected)
            out.key("observed"); out.string(failure.observed)
            out.key("t"); out.optionalInt(failure.moment.map { Int($0.nanoseconds / 1_000_000) })
            out.raw("}")
        }
        out.key("devices"); out.array(devices) { $0.string($1) }

        // The map.
        out.key("map")
        out.raw("{")
        out.key("w", first: true); out.int(Int(projection.width))
        out.key("h"); out.int(Int(projection.height.rounded()))
        let bar = projection.scaleBar
        out.key("scale"); out.raw("{\"len\":\(Int(bar.length.rounded())),\"label\":"); out.string(bar.label); out.raw("}")
        out.key("upm"); out.raw(String(format: "%.6g", projection.unitsPerMetre))
        if let focus = projection.focus(on: focused) { out.key("focus"); out.ints(focus.map { Int($0.rounded()) }) }
        let world = scenario?.world
        out.key("hotspots")
        out.array(world?.hotspots ?? []) { out, hotspot in
            out.raw("{\"n\":"); out.string(hotspot.name)
            switch hotspot.area {
            case .circle(let center, let radius):
                let (x, y) = point(center)
                out.raw(",\"c\":[\(x),\(y),\(Int(projection.length(metres: radius).rounded()))]")
            case .polygon(let corners):
                out.raw(",\"p\":"); out.ints(corners.flatMap { let (x, y) = point($0); return [x, y] })
            }
            out.raw("}")
        }
        out.key("aps")
        out.array(world?.hotspots.flatMap { hotspot in hotspot.accessPoints.map { (hotspot.name, $0) } } ?? []) { out, pair in
            let (x, y) = point(pair.1.position)
            out.raw("[\(x),\(y),"); out.string("\(pair.1.ssid) (\(pair.1.bssid)) — \(pair.0)"); out.raw("]")
        }
        out.key("beacons")
        out.array(world?.beacons ?? []) { out, beacon in
            let (x, y) = point(beacon.position)
            out.raw("[\(x),\(y),"); out.string(beacon.fence.map { "\(beacon.id) — fence \($0)" } ?? beacon.id.description); out.raw("]")
        }
        // The world's named places (not in a crowded world), for the places expectations name.
        let places = (world?.places ?? [:]).sorted { $0.key < $1.key }
        out.key("places")
        out.array(places.count <= 200 ? places : []) { out, place in
            let (x, y) = point(place.value)
            out.raw("[\(x),\(y),"); out.string(place.key); out.raw("]")
        }
        out.key("streets")
        if let streetLayer {
            let placed = ReportStreets.placement(of: streetLayer.origin, on: projection)
            out.raw("{\"i\":\(streetLayer.index),\"m\":[")
            out.raw([placed.a, placed.d, placed.e, placed.f].map { String(format: "%.7g", $0) }.joined(separator: ","))
            out.raw("]}")
        } else {
            out.raw("null")
        }
        out.raw("}")

        // Tracks: [t, x, y, t, x, y, …] per device, and where each breaks (point numbers that start a piece).
        func trackJSON(_ tracks: [ReportTrack], key: String) {
            out.key(key)
            out.array(tracks) { out, track in
                out.ints(track.points.flatMap { sample -> [Int] in
                    let (x, y) = point(sample.coordinate)
                    return [Int(sample.time.nanoseconds / 1_000_000), x, y]
                })
            }
            out.key(key + "Breaks")
            out.array(tracks) { out, track in out.ints(track.breaks) }
        }
        trackJSON(tracks, key: "tracks")
        trackJSON(markerTracks, key: "markerTracks")
        out.key("intervals")
        out.array(intervals) { out, interval in
            out.raw("[\(interval.device),"); out.string(interval.kind.rawValue)
            out.raw(",\(interval.start.nanoseconds / 1_000_000),\(interval.end.nanoseconds / 1_000_000)")
            if let label = interval.label { out.raw(","); out.string(label) }
            out.raw("]")
        }

        // Events, as columns; their positions on the map where known.
        var names: [String] = []
        var nameIndex: [String: Int] = [:]
        let deviceIndex = Dictionary(devices.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { first, _ in first })
        var times: [Int] = [], eventDevices: [Int] = [], eventNames: [Int] = [], xs: [Int] = [], ys: [Int] = []
        times.reserveCapacity(events.count)
        var markerCandidates: [Int] = []
        var trackCursor = Array(repeating: 0, count: devices.count)
        for (position, event) in events.enumerated() {
            times.append(Int(event.time.nanoseconds / 1_000_000))
            let device = event.device.flatMap { deviceIndex[$0] } ?? -1
            eventDevices.append(device)
            let nameNumber: Int
            if let known = nameIndex[event.name] { nameNumber = known } else {
                nameNumber = names.count
                nameIndex[event.name] = nameNumber
                names.append(event.name)
            }
            eventNames.append(nameNumber)
            var place: GeoCoordinate? = event.coordinate
            if place == nil, device >= 0 {
                place = replayedPosition(ofDevice: device, at: event.time) ?? Self.interpolate(tracks[device].points, at: event.time, cursor: &trackCursor[device])
            }
            if let place {
                let (x, y) = point(place)
                xs.append(x); ys.append(y)
                if device >= 0, !unmarkedEvents.contains(event.name) { markerCandidates.append(position) }
            } else {
                xs.append(-1); ys.append(-1)
            }
        }
        var markers = markerCandidates
        if markers.count > limits.mapMarkers {
            let stride = Double(markers.count) / Double(limits.mapMarkers)
            markers = (0..<limits.mapMarkers).map { markerCandidates[Int(Double($0) * stride)] }
        }
        out.key("names"); out.array(names) { $0.string($1) }
        out.key("events")
        out.raw("{")
        out.key("t", first: true); out.ints(times)
        out.key("d"); out.ints(eventDevices)
        out.key("n"); out.ints(eventNames)
        out.key("x"); out.ints(xs)
        out.key("y"); out.ints(ys)
        out.key("f")
        var details = ""
        out.array(events) { out, event in
            details.removeAll(keepingCapacity: true)
            for (index, field) in event.fields.enumerated() {
                if index > 0 { details += " " }
                details += field.key
                details += "="
                details += field.value.description
            }
            out.string(details)
        }
        out.raw("}")
        out.key("markers"); out.ints(markers)
        out.key("markersLeftOut"); out.int(markerCandidates.count - markers.count)

        // Every expectation: how it came out, its moment, the events it looked at, a position's circle.
        out.key("checks")
        out.array(checks) { out, check in
            out.raw("{")
            out.key("passed", first: true); out.bool(check.outcome.passed)
            out.key("location"); out.string(check.outcome.location.description)
            out.key("expected"); out.string(check.outcome.expected)
            out.key("observed"); out.string(check.outcome.observed)
            out.key("t"); out.optionalInt(check.moment.map { Int($0.nanoseconds / 1_000_000) })
            out.key("first"); out.optionalInt(check.firstMatch)
            out.key("judged"); out.optionalInt(check.judged)
            switch check.expectation {
            case .event, .order, .anyOf:
                let (device, window): (String?, ClosedRange<Duration>?) = switch check.expectation {
                case .event(let expected): (expected.device, expected.window)
                case .order(let expected): (expected.device, expected.window)
                case .position, .anyOf: (nil, nil)
                }
                out.key("kind"); out.string("event")
                out.key("d"); out.int(device.flatMap { deviceIndex[$0] } ?? -1)
                out.key("w")
                if let window {
                    out.raw("[\(Int(window.lowerBound.wholeNanoseconds / 1_000_000)),\(Int(window.upperBound.wholeNanoseconds / 1_000_000))]")
                } else {
                    out.raw("null")
                }
            case .position(let expected):
                out.key("kind"); out.string("position")
                out.key("d"); out.int(expected.device.flatMap { deviceIndex[$0] } ?? -1)
                let (x, y) = point(expected.near)
                out.key("near"); out.raw("[\(x),\(y),\(max(1, Int(projection.length(metres: expected.radius).rounded())))]")
                out.key("radius"); out.raw(TraceValue.format(expected.radius))
            }
            out.raw("}")
        }
        // The steps: [event, end of the events after it on its device, status, note].
        out.key("steps")
        out.array(steps) { out, step in
            out.raw("[\(step.event),\(step.followingEnd),"); out.string(step.status.rawValue); out.raw(",")
            out.optionalString(step.note); out.raw("]")
        }
        // What the apps showed: [event, kind, key, 1 shows / 0 goes, text].
        out.key("ui")
        out.array(displays) { out, display in
            out.raw("[\(display.event),"); out.string(display.kind.rawValue); out.raw(","); out.string(display.key)
            out.raw(",\(display.shows ? 1 : 0),"); out.string(display.text); out.raw("]")
        }
        // The network panel: [sent, device, source, label, arrived, ended, outcome, lost, event] (times in ms, null: unknown).
        out.key("network")
        out.array(NetworkExchange.exchanges(in: events)) { out, row in
            func ms(_ instant: VirtualInstant?) -> Int? { instant.map { Int($0.nanoseconds / 1_000_000) } }
            out.raw("[\(ms(row.sent)!),\(row.device.flatMap { deviceIndex[$0] } ?? -1),"); out.string(row.source.rawValue)
            out.raw(","); out.string(row.label); out.raw(","); out.optionalInt(ms(row.arrived)); out.raw(","); out.optionalInt(ms(row.ended))
            out.raw(","); out.string(row.outcome); out.raw(","); out.optionalString(row.lost); out.raw(",\(row.event)]")
        }
        out.raw("}")
        return out.text
    }

    /// Where each device's app showed its marker (`marker.shown`, `marker.moved`), as tracks thinned
    /// like the devices' own (drawn with half their points).
    func markerTracks(pointsPerDevice: Int, tolerance: Double) -> [ReportTrack] {
        var points: [[ReportTrack.Point]] = Array(repeating: [], count: devices.count)
        let index = Dictionary(devices.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { first, _ in first })
        for event in events where event.name == "marker.shown" || event.name == "marker.moved" {
            guard let name = event.device, let device = index[name], let coordinate = event.coordinate else { continue }
            points[device].append((event.time, coordinate))
        }
        return points.map { ReportTrack(points: $0).brokenAtJumps().thinned(to: pointsPerDevice, tolerance: tolerance) }
    }

    /// The position on `track` at `instant` (linear between samples); `cursor` speeds up calls in time order.
    static func interpolate(_ track: [(time: VirtualInstant, coordinate: GeoCoordinate)], at instant: VirtualInstant, cursor: inout Int) -> GeoCoordinate? {
        guard let first = track.first else { return nil }
        if instant <= first.time { return first.coordinate }
        if cursor >= track.count || track[cursor].time > instant { cursor = 0 }
        while cursor + 1 < track.count && track[cursor + 1].time <= instant { cursor += 1 }
        guard cursor + 1 < track.count else { return track[cursor].coordinate }
        let a = track[cursor], b = track[cursor + 1]
        let span = Double(a.time.duration(to: b.time).wholeNanoseconds)
        let fraction = span > 0 ? Double(a.time.duration(to: instant).wholeNanoseconds) / span : 0
        return a.coordinate.interpolated(to: b.coordinate, fraction: fraction)
    }
}
