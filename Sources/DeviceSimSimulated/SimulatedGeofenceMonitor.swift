import DeviceSimHAL
import DeviceSimTime

/// Geofence region monitoring driven by the device's own location source (a simulated route, an NMEA
/// log played back, or gpsd live), so it runs in virtual time like everything else.
///
/// Two timing modes:
/// - ``Timing/ideal`` (the default, for logic tests): a transition is reported at the first fix on the
///   other side of the boundary, a dwell exactly one loitering delay after the enter.
/// - ``Timing/realistic``: what the platforms document.
///   - Apple, "Monitoring the user's proximity to geographic regions"
///     (https://developer.apple.com/documentation/corelocation/monitoring-the-user-s-proximity-to-geographic-regions):
///     "the user must travel a minimum distance over the boundary and remain on the same side of the
///     boundary for at least 20 seconds before the notifications are reported". Apple does not publish
///     the distance; ``RealisticTiming/boundaryMargin`` is ours (50 m by default).
///   - Android, "Create and monitor geofences"
///     (https://developer.android.com/develop/sensors-and-location/location/geofencing): "For best
///     results, the minimum radius of the geofence should be set between 100 - 150 meters", so a
///     smaller region is monitored as 100 m; dwell follows `setLoiteringDelay`; an app can have
///     "up to 100 active geofences per app, per device user" (iOS allows 20 regions per app).
///
/// Like Android's default initial trigger (`INITIAL_TRIGGER_ENTER`), a region added while the device
/// is already inside reports an enter. Every region with a radius below 100 m is warned about in the
/// trace (`geofence.small-radius`); transitions are traced as `geofence.entered`, `geofence.exited` and
/// `geofence.dwelled`.
///
/// ```swift
/// device.geofences = SimulatedGeofenceMonitor(device: device, configuration: .init(timing: .realistic))
/// ```
public final class SimulatedGeofenceMonitor: GeofenceMonitoring {
    /// When transitions are reported.
    public enum Timing: Sendable, Hashable {
        /// At once, at the first fix across the boundary.
        case ideal
        /// After the device is clearly across and has stayed there (see ``RealisticTiming``).
        case realistic
    }

    /// The platform-like delays and radius limits of ``Timing/realistic``.
    public struct RealisticTiming: Sendable, Hashable {
        /// How far past the boundary the device must be before a crossing counts (metres).
        public var boundaryMargin: Double = 50
        /// How long the device must stay across before the transition is reported (Apple: 20 s).
        public var confirmation: Duration = .seconds(20)
        /// Regions smaller than this are monitored with this radius (Android: 100 m).
        public var minimumRadius: Double = 100

        /// Creates the documented defaults.
        public init(boundaryMargin: Double = 50, confirmation: Duration = .seconds(20), minimumRadius: Double = 100) {
            self.boundaryMargin = boundaryMargin
            self.confirmation = confirmation
            self.minimumRadius = minimumRadius
        }
    }

    /// How the monitor behaves.
    public struct Configuration: Sendable, Hashable {
        /// When transitions are reported.
        public var timing: Timing = .ideal
        /// The delays and radius limits of realistic timing.
        public var realistic = RealisticTiming()
        /// The most regions at once (Android: 100 per app; iOS: 20).
        public var maximumRegions: Int = 100

        /// Creates a configuration.
        public init(timing: Timing = .ideal, realistic: RealisticTiming = RealisticTiming(), maximumRegions: Int = 100) {
            self.timing = timing
            self.realistic = realistic
            self.maximumRegions = maximumRegions
        }
    }

    /// The radius below which a region is warned about (Android's recommended minimum).
    public static let recommendedMinimumRadius: Double = 100

    private struct Monitored {
        var region: GeofenceRegion
        /// Whether the device is inside, as reported to the app; nil before the first fix.
        var inside: Bool?
        /// A crossing waiting for its confirmation (realistic timing).
        var pending: (inside: Bool, check: ScheduledEvent)?
        var dwell: ScheduledEvent?
    }

    private let deviceID: String
    private let scheduler: EventScheduler
    private let events: any EventSink
    private let location: any LocationProvider
    private let configuration: Configuration
    private var regions: [Monitored] = []
    private let observers = ObserverList<GeofenceEvent>()
    private var locationSubscription: ObservationToken?
    private var lastCoordinate: GeoCoordinate?

    /// Creates the monitor of `device`, fed by its location source (it keeps the device's scheduler,
    /// trace and location, not the device, so the device may own it).
    public init(device: Device, configuration: Configuration = Configuration()) {
        deviceID = device.id
        scheduler = device.scheduler
        events = device.events
        location = device.location
        self.configuration = configuration
    }

    /// Follows the location source while there are regions (a monitor with none costs nothing per fix).
    private func followLocation(_ follow: Bool) {
        guard follow != (locationSubscription != nil) else { return }
        locationSubscription = follow ? location.observe { [unowned self] update in
            switch update {
            case .fix(let fix): evaluate(fix.coordinate)
            case .unavailable: cancelPendingCrossings()
            case .satellites: break
            }
        } : nil
    }

    public var monitoredRegions: [GeofenceRegion] { regions.map(\.region) }
    public var maximumRegions: Int { configuration.maximumRegions }

    public func startMonitoring(_ region: GeofenceRegion) throws(GeofenceError) {
        guard region.radius > 0, region.radius.isFinite else { throw .invalidRadius(region: region.id, radius: region.radius) }
        let replaced = regions.firstIndex { $0.region.id == region.id }
        if replaced == nil, regions.count >= configuration.maximumRegions { throw .tooManyRegions(limit: configuration.maximumRegions) }
        if let replaced { stopMonitoring(regions[replaced].region.id) }
        if region.radius < Self.recommendedMinimumRadius {
            record("geofence.small-radius", region: region.id, [("radius", .double(region.radius)), ("recommended", .double(Self.recommendedMinimumRadius))])
        }
        regions.append(Monitored(region: region))
        followLocation(true)
        if let fix = location.currentFix { evaluate(fix.coordinate, onlyRegion: region.id) }
    }

    public func stopMonitoring(_ id: String) {
        guard let index = regions.firstIndex(where: { $0.region.id == id }) else { return }
        regions[index].pending?.check.cancel()
        regions[index].dwell?.cancel()
        regions.remove(at: index)
        followLocation(!regions.isEmpty)
    }

    public func observe(_ observer: @escaping (GeofenceEvent) -> Void) -> ObservationToken {
        observers.add(observer)
    }

    private func radius(of region: GeofenceRegion) -> Double {
        if configuration.timing == .realistic { return max(region.radius, configuration.realistic.minimumRadius) }
        return region.radius
    }

    /// Which side of the boundary `coordinate` is on; nil while it is within the margin (realistic).
    private func side(of coordinate: GeoCoordinate, for region: GeofenceRegion) -> Bool? {
        let distance = coordinate.distance(to: region.center)
        let radius = radius(of: region)
        guard configuration.timing == .realistic else { return distance <= radius }
        let timing = configuration.realistic
        if distance <= radius - timing.boundaryMargin { return true }
        if distance >= radius + timing.boundaryMargin { return false }
        return nil
    }

    private func evaluate(_ coordinate: GeoCoordinate, onlyRegion: String? = nil) {
        lastCoordinate = coordinate
        for region in regions.map(\.region) where onlyRegion == nil || region.id == onlyRegion {
            guard let index = regions.firstIndex(where: { $0.region.id == region.id }), let side = side(of: coordinate, for: region) else { continue }
            if regions[index].inside == side {
                regions[index].pending?.check.cancel()   // back on the reported side before confirmation
                regions[index].pending = nil
                continue
            }
            switch configuration.timing {
            case .ideal:
                cross(region.id, inside: side, at: coordinate)
            case .realistic:
                let timing = configuration.realistic
                if regions[index].pending?.inside == side { continue }
                regions[index].pending?.check.cancel()
                let id = region.id
                let check = scheduler.schedule(after: timing.confirmation) { [unowned self] in
                    guard let index = regions.firstIndex(where: { $0.region.id == id }) else { return }
                    regions[index].pending = nil
                    cross(id, inside: side, at: lastCoordinate ?? coordinate)
                }
                regions[index].pending = (side, check)
            }
        }
    }

    private func cancelPendingCrossings() {
        for index in regions.indices {
            regions[index].pending?.check.cancel()
            regions[index].pending = nil
        }
    }

    private func cross(_ id: String, inside: Bool, at coordinate: GeoCoordinate) {
        guard let index = regions.firstIndex(where: { $0.region.id == id }) else { return }
        let wasKnown = regions[index].inside != nil
        regions[index].inside = inside
        let region = regions[index].region
        if inside {
            report(.enter, region, at: coordinate)
            // The app may have stopped monitoring the region (or others) when it heard of the entry.
            guard let index = regions.firstIndex(where: { $0.region.id == id }) else { return }
            regions[index].dwell = scheduler.schedule(after: region.loiteringDelay) { [unowned self] in
                guard let index = regions.firstIndex(where: { $0.region.id == id }), regions[index].inside == true else { return }
                regions[index].dwell = nil
                report(.dwell, regions[index].region, at: lastCoordinate ?? coordinate)
            }
        } else {
            regions[index].dwell?.cancel()
            regions[index].dwell = nil
            if wasKnown { report(.exit, region, at: coordinate) }   // starting outside is not an exit
        }
    }

    private func report(_ transition: GeofenceTransition, _ region: GeofenceRegion, at coordinate: GeoCoordinate) {
        guard region.transitions.contains(transition) else { return }
        let name = switch transition {
        case .enter: "geofence.entered"
        case .exit: "geofence.exited"
        case .dwell: "geofence.dwelled"
        }
        record(name, region: region.id, [("lat", .double(coordinate.latitude)), ("lon", .double(coordinate.longitude))])
        observers.send(GeofenceEvent(region: region.id, transition: transition, coordinate: coordinate))
    }

    private func record(_ name: String, region: String, _ fields: [(key: String, value: TraceValue)]) {
        events.record(TraceEvent(time: scheduler.now, device: deviceID, name: name, fields: [("region", .string(region))] + fields))
    }
}
