import DeviceSim
import DeviceSimHAL
@testable import DeviceSimReport
@testable import DeviceSimScenario
import DeviceSimTime
import Foundation
import Testing

/// What a report's data holds beyond events: tracks of every motion source, broken where the device
/// did not travel; the streets; every expectation with its circle or its events; the steps; what the
/// apps showed; a sweep grouped per scenario.
@Suite struct ReportContentsTests {
    init() throws { try ScenarioAppRegistry.register(BundledApps.all) }

    static let root = ReportDataTests.repositoryRoot

    @Test func aDeviceThatFollowsARouteOnTheRoadsIsReplayedWhereTheRunMovedIt() throws {
        let scenario = try ScenarioParser.parse(contentsOf: Self.root + "/Scenarios/roads/walk-station-to-senate-square.yaml")
        let simulation = ScenarioSimulation(scenario)
        var simulated: [GeoCoordinate] = []
        let probes = stride(from: 0, through: 1200, by: 7).map { VirtualInstant(offset: .seconds($0)) }
        for probe in probes {
            simulation.scheduler.schedule(at: probe) { simulated.append(simulation.devices[0].motion.state(at: probe).coordinate) }
        }
        try simulation.run()
        let replay = try #require(DeviceMotionReplay(scenario.devices[0], scenario: scenario))
        #expect(probes.map { replay.position(at: $0) } == simulated)
        let events = ScenarioRunner().run(scenario).events
        let section = ReportSection(name: "walk", record: nil, scenario: scenario, events: events)
        let track = try #require(section.tracks(pointsPerDevice: 10_000).first)
        let walked = zip(track.points, track.points.dropFirst()).reduce(0.0) { $0 + $1.0.coordinate.distance(to: $1.1.coordinate) }
        // The route the run planned (its length is in the step's trace event) is the line drawn.
        let planned = try #require(events.first { $0.name == "step" && $0["do"]?.description == "follow-route" }?["length"]?.description).flatMap(Double.init)
        let length = try #require(planned)
        #expect(abs(walked - length) < length * 0.02, "the walk of \(length) m along the streets is drawn: \(walked) m")
        #expect(track.breaks.isEmpty)
    }

    @Test func aTeleportBreaksTheTrackAndTheDrawnLineNeverStraysFromWhereTheDeviceWas() throws {
        let scenario = try ScenarioParser.parse("""
            name: a jump
            duration: 10m
            devices:
              - { id: walker, at: [52.5, 13.4], route: { waypoints: [[52.5, 13.41]] } }
            timeline:
              - { at: 5m, device: walker, do: teleport, to: [52.52, 13.45] }
              - { at: 6m, device: walker, do: move, waypoints: [[52.52, 13.46]] }
            """, file: "jump.yaml")
        let section = ReportSection(name: "jump", record: nil, scenario: scenario, events: ScenarioRunner().run(scenario).events)
        let track = try #require(section.tracks(pointsPerDevice: 1000).first)
        #expect(track.breaks.count == 1)
        let breakAt = try #require(track.breaks.first)
        #expect(track.points[breakAt - 1].time == track.points[breakAt].time, "the position before and after the jump, at its instant")
        #expect(track.points[breakAt].time == VirtualInstant(offset: .seconds(300)))
        #expect(track.points[breakAt].coordinate.distance(to: GeoCoordinate(latitude: 52.52, longitude: 13.45)) < 0.01)
        var report = HTMLReport()
        report.add(section, record: nil)
        let data = try ReportDataTests.embeddedData(report.html(wallSeconds: nil))
        let sections = try #require(data["sections"] as? [[String: Any]])
        #expect(sections[0]["tracksBreaks"] as? [[Int]] == [[breakAt]])

        // A device that zig-zags 200 m east and west, 20 m further north each time, 2,000 fixes,
        // thinned to 60 points: every drawn line passes within the tolerance of the fixes it stands for.
        let start = GeoCoordinate(latitude: 60.17, longitude: 24.94)
        let fixes: [ReportTrack.Point] = (0..<2000).map { index in
            let leg = index / 50, along = Double(index % 50) * 4
            return (VirtualInstant(offset: .seconds(Int64(index))), start.offsetBy(east: leg % 2 == 0 ? along : 200 - along, north: Double(leg) * 20))
        }
        let thinned = ReportTrack(points: fixes).thinned(to: 60, tolerance: 5)
        #expect(thinned.points.count <= 60 && thinned.points.count >= 40)
        #expect(!thinned.breaks.isEmpty, "60 points cannot keep 40 legs: the track breaks")
        var original = 0
        for piece in thinned.pieces {
            for (a, b) in zip(thinned.points[piece], thinned.points[piece].dropFirst()) {
                while fixes[original].time < a.time { original += 1 }
                var index = original
                while index < fixes.count, fixes[index].time <= b.time {
                    let distance = Self.distance(fixes[index].coordinate, fromSegment: a.coordinate, b.coordinate)
                    #expect(distance <= 5.01, "the line from \(a.time) to \(b.time) passes \(distance) m from the fix at \(fixes[index].time)")
                    index += 1
                }
            }
        }
        // Within the limit, nothing is left out or broken.
        #expect(ReportTrack(points: Array(fixes.prefix(50))).thinned(to: 60, tolerance: 5).points.count == 50)
    }

    @Test func aWorldFromAnOpenStreetMapExtractDrawsItsStreetsUnderTheTracks() throws {
        let scenario = try ScenarioParser.parse(contentsOf: Self.root + "/Scenarios/roads/walk-station-to-senate-square.yaml")
        let section = ReportSection(name: "walk", record: nil, scenario: scenario, events: ScenarioRunner().run(scenario).events)
        var limits = ReportLimits()
        limits.streetPoints = 4_000
        var report = HTMLReport(limits: limits)
        report.add(section, record: nil)
        let data = try ReportDataTests.embeddedData(report.html(wallSeconds: nil))
        let layers = try #require(data["streets"] as? [[String: Any]])
        #expect(layers.count == 1)
        let points = try #require(layers[0]["points"] as? Int)
        #expect(points > 500 && points <= 4_000, "\(points) points")
        let map = try #require((data["sections"] as? [[String: Any]])?.first?["map"] as? [String: Any])
        let placement = try #require(map["streets"] as? [String: Any])
        #expect(placement["i"] as? Int == 0 && (placement["m"] as? [Double])?.count == 4)

        // The walk follows the streets: every point of its track lies on a drawn street (within the
        // simplification's tolerance and a unit's rounding), but for the few metres from the station
        // to the nearest street at the start (10 s to 17 s) and from the last street to the square.
        let tolerance = try #require(layers[0]["tolerance"] as? Double)
        let network = try #require(scenario.world?.roads)
        let origin = GeoCoordinate(latitude: (network.coordinates.map(\.latitude).min()! * 1e5).rounded(.down) / 1e5, longitude: (network.coordinates.map(\.longitude).min()! * 1e5).rounded(.down) / 1e5)
        let lines = Self.polylines(fromPath: (layers[0]["paths"] as? String ?? "") + (layers[0]["roads"] as? String ?? ""), origin: origin)
        let track = try #require(section.tracks(pointsPerDevice: 400).first)
        let segments = lines.flatMap { zip($0, $0.dropFirst()).map { ($0, $1) } }
        for point in track.points where point.time >= VirtualInstant(offset: .seconds(30)) && point.time <= VirtualInstant(offset: .seconds(940)) {
            let nearest = segments.lazy.map { Self.distance(point.coordinate, fromSegment: $0.0, $0.1) }.min() ?? .infinity
            #expect(nearest <= tolerance + 1.5, "\(point.time): \(nearest) m from the nearest street")
        }
        // Two maps on the same network share one layer.
        var two = HTMLReport()
        two.add(section, record: nil)
        two.add(section, record: nil)
        #expect((try ReportDataTests.embeddedData(two.html(wallSeconds: nil))["streets"] as? [Any])?.count == 1)
    }

    @Test func everyExpectationIsInTheDataWithItsCircleOrItsEvents() throws {
        let scenario = try ReportDataTests().parse()
        let result = ScenarioRunner().run(scenario)
        let section = ReportSection(name: "report-data.yaml", record: nil, scenario: scenario, events: result.events)
        var report = HTMLReport()
        report.add(section, record: nil)
        let data = try ReportDataTests.embeddedData(report.html(wallSeconds: nil))
        let json = try #require((data["sections"] as? [[String: Any]])?.first)
        let checks = try #require(json["checks"] as? [[String: Any]])
        #expect(checks.count == scenario.expectations.count)
        #expect(checks.map { $0["passed"] as? Bool } == result.outcomes.map(\.passed))
        let names = try #require(json["names"] as? [String])
        let eventNames = try #require((json["events"] as? [String: Any])?["n"] as? [Int])
        // The hotspot expectation's first match is a hotspot.entered event.
        let first = try #require(checks[0]["first"] as? Int)
        #expect(names[eventNames[first]] == "hotspot.entered")
        // The position: south-gate's point, 5 m, and the map-center event judged at 9m.
        let position = checks[3]
        #expect(position["kind"] as? String == "position" && position["passed"] as? Bool == false && position["radius"] as? Double == 5)
        let near = try #require(position["near"] as? [Int])
        let map = try #require(json["map"] as? [String: Any])
        let upm = try #require(map["upm"] as? Double)
        #expect(near.count == 3 && abs(Double(near[2]) - 5 * upm) <= 1)
        #expect(position["judged"] is NSNull, "bob's app shows no map: \(result.outcomes[3].observed)")
        #expect(position["observed"] as? String == result.outcomes[3].observed)

        // A position the app showed: the marker event judged is the one the run's outcome names.
        let drive = try ScenarioParser.parse(contentsOf: Self.root + "/Scenarios/roads/drive-by-name.yaml")
        let driven = ScenarioRunner().run(drive)
        var driveReport = HTMLReport()
        driveReport.add(ReportSection(name: "drive", record: nil, scenario: drive, events: driven.events), record: nil)
        let driveChecks = try #require((try ReportDataTests.embeddedData(driveReport.html(wallSeconds: nil))["sections"] as? [[String: Any]])?.first?["checks"] as? [[String: Any]])
        let judged = try #require(driveChecks[1]["judged"] as? Int)
        let event = driven.events[judged]
        #expect(event.name == "marker.moved" && event.time <= VirtualInstant(offset: .seconds(19 * 60)))
        #expect(driven.events[(judged + 1)...].first { $0.name == "marker.moved" }.map { $0.time > VirtualInstant(offset: .seconds(19 * 60)) } ?? true, "the latest by 19m")
        #expect(driven.outcomes[1].observed.hasSuffix("(from 'marker.moved' at \(DurationText.format(event.time.offset)))"), "\(driven.outcomes[1].observed)")
    }

    @Test func stepsHaveTheirStatusAndTheEventsThatFollowThem() throws {
        func event(_ t: Int, _ device: String, _ name: String, _ fields: [(key: String, value: TraceValue)] = []) -> TraceEvent {
            TraceEvent(time: VirtualInstant(offset: .seconds(Int64(t))), device: device, name: name, fields: fields)
        }
        let events = [
            event(0, "a", "step", [("do", .string("start-service"))]),
            event(0, "a", "screen.shown", [("screen", .string("map"))]),
            event(1, "b", "step", [("do", .string("follow-route")), ("unreachable", .string("no road near kiasma"))]),
            event(2, "a", "step", [("do", .string("click-poo"))]),
            event(2, "a", "action.ignored", [("action", .string("click-poo")), ("reason", .string("the menu is not shown"))]),
            event(3, "b", "step.skipped", [("do", .string("click-pee")), ("reason", .string("the app is not running"))]),
            event(4, "a", "step", [("do", .string("answer")), ("prompt", .string("p")), ("choice", .string("yes"))]),
            event(4, "a", "prompt.shown", [("prompt", .string("p")), ("message", .string("Share?")), ("choices", .string("yes|no"))]),
            event(5, "a", "prompt.answered", [("prompt", .string("p")), ("choice", .string("yes"))]),
            event(6, "a", "business-menu.shown", [("buttons", .string("pee|poo"))]),
            event(7, "a", "business-menu.hidden"),
            event(8, "a", "form.shown", [("form", .string("route-name"))]),
            event(9, "a", "notification.posted", [("message", .string("hello"))]),
        ]
        let section = ReportSection(name: "steps", record: nil, scenario: nil, events: events)
        #expect(section.steps.map(\.status) == [.done, .failed, .refused, .skipped, .done])
        #expect(section.steps.map(\.event) == [0, 2, 3, 5, 6])
        #expect(section.steps.map(\.followingEnd) == [3, 5, 6, 13, 13], "each up to its device's next step")
        #expect(section.steps[1].note == "no road near kiasma")
        #expect(section.steps[2].note == "action.ignored: the menu is not shown")
        #expect(section.steps[3].note == "the app is not running")
        let shown = section.displays.map { "\($0.kind.rawValue) \($0.key) \($0.shows)" }
        #expect(shown == ["screen screen true", "prompt p true", "prompt p false", "panel business-menu true", "panel business-menu false", "form route-name true", "notification notification true"])
        #expect(section.displays[1].text == "Share? [yes / no]")
    }

    @Test func aSweepIsGroupedPerScenarioWithItsFailingSeedsFlakyOrAlwaysFailing() throws {
        func record(_ name: String, seed: UInt64, passed: Bool, position: Int) -> RunRecord {
            var record = RunRecord(invalid: ScenarioError("x", at: nil), position: position, path: "S/\(name)", name: name, swept: true)
            record.invalid = nil
            record.invalidFile = nil
            record.title = "title of \(name)"
            record.seed = seed
            record.passed = passed
            record.expectations = 1
            record.failures = passed ? [] : [.init(location: "S/\(name):9:5", expected: "something", observed: "nothing")]
            record.virtualSeconds = 60
            record.wallSeconds = 0.0004
            return record
        }
        var report = HTMLReport()
        var position = 0
        for (name, failing) in [("steady.yaml", Set<UInt64>()), ("flaky.yaml", [2, 4]), ("broken.yaml", [1, 2, 3, 4])] {
            for seed in UInt64(1)...4 {
                report.addSummary(of: record(name, seed: seed, passed: !failing.contains(seed), position: position))
                position += 1
            }
        }
        let data = try ReportDataTests.embeddedData(report.html(wallSeconds: 0.004))
        #expect((data["rows"] as? [Any])?.isEmpty == true, "a sweep's runs are grouped, not listed one by one")
        let groups = try #require(data["groups"] as? [[String: Any]])
        #expect(groups.map { $0["name"] as? String } == ["broken.yaml", "flaky.yaml", "steady.yaml"])
        #expect(groups.map { $0["status"] as? String } == ["failing", "flaky", "passed"])
        #expect(groups.map { ($0["failed"] as? [[String: Any]])?.compactMap { $0["seed"] as? String } ?? [] } == [["1", "2", "3", "4"], ["2", "4"], []])
        #expect(groups.map { $0["passedSeeds"] as? String } == ["", "1, 3", "1-4"])
        #expect((groups[1]["failed"] as? [[String: Any]])?.first?["first"] as? String == "S/flaky.yaml:9:5: expected something; observed nothing")
        #expect(groups[0]["title"] as? String == "title of broken.yaml")
        #expect(data["wall"] as? String == "0.004", "a short run's wall time is not rounded to 0")
        #expect(HTMLReport.seedRanges([5, 1, 2, 3, 7, 8]) == "1-3, 5, 7-8")
    }

    /// The polylines of SVG path data written by ``StreetLayer`` (`M x -y` then `l dx -dy …`), as coordinates.
    static func polylines(fromPath path: String, origin: GeoCoordinate) -> [[GeoCoordinate]] {
        path.split(separator: "M").map { part in
            let pieces = part.split(separator: "l", maxSplits: 1)
            let start = pieces[0].split(separator: " ").compactMap { Int($0) }
            var x = start[0], y = start[1]
            var points = [(x, y)]
            let steps = pieces.count > 1 ? pieces[1].split(separator: " ").compactMap { Int($0) } : []
            for index in stride(from: 0, to: steps.count - 1, by: 2) {
                x += steps[index]
                y += steps[index + 1]
                points.append((x, y))
            }
            return points.map { GeoCoordinate(latitude: origin.latitude - Double($0.1) / 1e5, longitude: origin.longitude + Double($0.0) / 1e5) }
        }
    }

    /// Metres from `point` to the segment a-b (locally flat).
    static func distance(_ point: GeoCoordinate, fromSegment a: GeoCoordinate, _ b: GeoCoordinate) -> Double {
        let metresPerDegree = GeoCoordinate.earthRadius * .pi / 180
        let east = metresPerDegree * cos(point.latitude * .pi / 180)
        let bx = (b.longitude - a.longitude) * east, by = (b.latitude - a.latitude) * metresPerDegree
        var px = (point.longitude - a.longitude) * east, py = (point.latitude - a.latitude) * metresPerDegree
        let lengthSquared = bx * bx + by * by
        if lengthSquared > 0 {
            let along = min(max((px * bx + py * by) / lengthSquared, 0), 1)
            px -= along * bx
            py -= along * by
        }
        return (px * px + py * py).squareRoot()
    }
}
