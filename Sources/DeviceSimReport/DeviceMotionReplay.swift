import DeviceSimScenario
import DeviceSimHAL
import DeviceSimSimulated
import DeviceSimTime

/// Where a scenario's device physically was at any instant, worked out from the scenario file alone
/// (its start, its route, its GPX track and the timeline's `move` and `teleport` steps), with the same
/// ``DeviceMotion`` the simulation moves it with, so a report can draw tracks and place events without
/// running the simulation again. Devices that play an NMEA log have no replay (their positions come
/// from the trace).
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
            }
        }
    }

    private enum Change {
        case route(Route)
        case move(Route.Partial)
        case teleport(GeoCoordinate)
    }

    /// Where the device was at `instant`.
    public func position(at instant: VirtualInstant) -> GeoCoordinate {
        stretch(at: instant).motion.state(at: instant).coordinate
    }

    /// Positions from `start` to `end`: one every `interval`, and at every change of motion, with
    /// runs of standing still kept to their first and last point.
    public func samples(from start: VirtualInstant = .zero, to end: VirtualInstant, every interval: Duration) -> [(time: VirtualInstant, coordinate: GeoCoordinate)] {
        var times: [VirtualInstant] = []
        var instant = start
        while instant < end {
            times.append(instant)
            instant = instant.advanced(by: interval)
        }
        times.append(end)
        for change in changes where change > start && change < end { times.append(change) }
        times.sort()
        var samples: [(time: VirtualInstant, coordinate: GeoCoordinate)] = []
        for time in times {
            if let last = samples.last, last.time == time { continue }
            let here = position(at: time)
            if samples.count >= 2, samples[samples.count - 1].coordinate == here, samples[samples.count - 2].coordinate == here {
                samples[samples.count - 1].time = time   // still standing: move the run's last point on
                continue
            }
            samples.append((time, here))
        }
        return samples
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
