import DeviceSimScenario
import DeviceSimHAL
import DeviceSimSimulated
import DeviceSimTime

/// Where a scenario's device physically was at any instant, worked out from the scenario file alone
/// (its start, its route, its GPX track and the timeline's `move`, `teleport` and `follow-route` steps,
/// the last planned again on the world's roads as the run planned it), with the same ``DeviceMotion``
/// the simulation moves it with, so a report can draw tracks and place events without running the
/// simulation again. Devices that play an NMEA log have no replay (their positions come from the trace).
///
/// ```swift
/// let replay = DeviceMotionReplay(scenario.devices[0], scenario: scenario)
/// replay?.position(at: VirtualInstant(offset: .seconds(90)))
/// ```
public struct DeviceMotionReplay {
    /// One stretch of motion: from `start` on, the device moves as `motion` says.
    private struct Stretch {
        var start: VirtualInstant
        var motion: DeviceMotion
    }

    private var stretches: [Stretch]
    /// The instants at which the motion changes (a route starts, a step moves the device), in order.
    public var changes: [VirtualInstant] { stretches.map(\.start) }
    /// The instants at which the device is somewhere else at once (a teleport, a GPX track starting
    /// again from its beginning, a route that starts away from the device), in order.
    public private(set) var jumps: [VirtualInstant] = []

    /// Positions closer than this across a change of motion are one place (no jump).
    static let jumpDistance = 1.0

    /// The replay of `device` in `scenario`, or nil when an NMEA log stands in for its motion.
    public init?(_ device: DeviceSpec, scenario: Scenario) {
        if case .nmea? = device.track?.source { return nil }
        let end = VirtualInstant(offset: scenario.duration)
        stretches = [Stretch(start: .zero, motion: DeviceMotion(at: device.start, altitude: device.altitude))]
        if let track = device.track, case .gpx(_, let route) = track.source {
            followTrack(route, track: track, from: .zero, until: end)
        }
        // The simulation schedules the device's route before the timeline, and steps in file order.
        var changes: [(at: VirtualInstant, change: Change)] = []
        if let route = device.route { changes.append((VirtualInstant(offset: device.routeStart), .route(route))) }
        for step in scenario.timeline where step.device == device.id {
            switch step.action {
            case .move(let partial): changes.append((VirtualInstant(offset: step.at), .move(partial)))
            case .teleport(let coordinate): changes.append((VirtualInstant(offset: step.at), .teleport(coordinate)))
            case .followRoute(let spec): changes.append((VirtualInstant(offset: step.at), .followRoute(spec)))
            default: break
            }
        }
        let ordered = changes.enumerated().sorted { ($0.element.at, $0.offset) < ($1.element.at, $1.offset) }.map(\.element)
        for (at, change) in ordered {
            switch change {
            case .route(let route):
                append(at) { $0.follow(route, from: at) }
            case .move(let partial):
                let here = position(at: at)
                append(at) { $0.follow(partial.from(here), from: at) }
            case .teleport(let coordinate):
                append(at) { $0.place(at: coordinate) }
            case .followRoute(let spec):
                // Unreachable stops leave the device doing what it did, as in the run.
                guard let roads = scenario.world?.roads, case let (route?, _) = spec.plan(on: roads, from: position(at: at)) else { continue }
                append(at) { $0.follow(route, from: at) }
            }
        }
        for index in stretches.indices.dropFirst() {
            let at = stretches[index].start
            let before = stretches[index - 1].motion.state(at: at).coordinate, after = stretches[index].motion.state(at: at).coordinate
            if before.distance(to: after) > Self.jumpDistance { jumps.append(at) }
        }
    }

    private enum Change {
        case route(Route)
        case move(Route.Partial)
        case teleport(GeoCoordinate)
        case followRoute(FollowRouteSpec)
    }

    /// Where the device was at `instant`.
    public func position(at instant: VirtualInstant) -> GeoCoordinate {
        stretch(at: instant).motion.state(at: instant).coordinate
    }

    /// The track from `start` to `end`: a position every `interval` and at every change of motion,
    /// runs of standing still kept to their first and last point, and a break at every jump (the
    /// position just before it ends a piece, the one after it starts the next).
    public func track(from start: VirtualInstant = .zero, to end: VirtualInstant, every interval: Duration) -> ReportTrack {
        var times: [VirtualInstant] = []
        var instant = start
        while instant < end {
            times.append(instant)
            instant = instant.advanced(by: interval)
        }
        times.append(end)
        for change in changes where change > start && change < end { times.append(change) }
        times.sort()
        let jumps = Set(jumps)
        var points: [ReportTrack.Point] = []
        var breaks: [Int] = []
        var pieceStart = 0
        for time in times {
            if let last = points.last, last.time == time { continue }
            if jumps.contains(time), let index = stretches.firstIndex(where: { $0.start == time }), index > 0 {
                points.append((time, stretches[index - 1].motion.state(at: time).coordinate))
                breaks.append(points.count)
                pieceStart = points.count
            }
            let here = position(at: time)
            if points.count - pieceStart >= 2, points[points.count - 1].coordinate == here, points[points.count - 2].coordinate == here {
                points[points.count - 1].time = time   // still standing: move the run's last point on
                continue
            }
            points.append((time, here))
        }
        return ReportTrack(points: points, breaks: breaks)
    }

    private func stretch(at instant: VirtualInstant) -> Stretch {
        var low = 0, high = stretches.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if stretches[middle].start <= instant { low = middle } else { high = middle - 1 }
        }
        return stretches[low]
    }

    /// A new stretch from `at`: the motion so far, changed by `change`.
    private mutating func append(_ at: VirtualInstant, _ change: (DeviceMotion) -> Void) {
        let here = stretch(at: at).motion.state(at: at)
        let motion = DeviceMotion(at: here.coordinate, altitude: here.altitude)
        change(motion)
        insert(Stretch(start: at, motion: motion))
    }

    /// Puts `stretch` in time order, replacing one that starts at the same instant.
    private mutating func insert(_ stretch: Stretch) {
        stretches.removeAll { $0.start == stretch.start }
        let index = stretches.firstIndex { $0.start > stretch.start } ?? stretches.count
        stretches.insert(stretch, at: index)
    }

    /// The GPX track at its rate and offset, started again at its end when it loops (as the simulation does).
    private mutating func followTrack(_ route: Route, track: TrackSpec, from instant: VirtualInstant, until end: VirtualInstant) {
        var track = track
        var instant = instant
        while instant < end {
            let motion = DeviceMotion(at: route.start)
            motion.follow(track.playing(route), from: track.routeStart(forPassAt: instant))
            insert(Stretch(start: instant, motion: motion))
            guard track.loop, let routeEnd = motion.routeEnd, routeEnd > instant else { return }
            instant = routeEnd
            track.startOffset = .zero
        }
    }
}
