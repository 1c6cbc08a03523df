import DeviceSimHAL
import DeviceSimTime

/// The device-facing flows of the dog-walk map app (shared/seeds/dog-walk-map.md), written against the
/// HAL only, in async/await on the device's clock:
///
/// - **Starting the service** (steps 1–3): obtain the current location, show the map around it and
///   the location marker at it. With no fix yet, the app reports the location as unavailable and waits.
/// - **Updating the current location**: every ``Settings/updateInterval`` the app obtains the current
///   location and moves the marker there. While there is no fix it keeps the last marker and reports
///   the location as unavailable (once per outage); when fixes return it reports the recovery.
/// - **Centering the current location**: the user taps the centering button; the app obtains the
///   current location and centers the map on it (on the last marker when there is no fix).
///
/// Events: `service.started`, `map.shown`, `marker.shown`, `marker.moved`, `location.unavailable`,
/// `location.recovered`, `map.centered`, `service.stopped`.
///
/// ```swift
/// let app = DogWalkApp(device: device)
/// app.startService()
/// try scheduler.run(for: .minutes(10))
/// app.marker // where the marker is now
/// ```
public final class DogWalkApp {
    /// The app's settings.
    public struct Settings: Sendable, Hashable {
        /// How often the app obtains the current location and moves the marker.
        public var updateInterval: Duration = .seconds(5)

        /// The defaults.
        public init() {}
    }

    /// The device the app runs on.
    public let device: Device
    /// The app's settings.
    public let settings: Settings
    /// Where the location marker is (nil before the service shows it).
    public private(set) var marker: GeoCoordinate?
    /// Where the map is centered (nil before the service shows it).
    public private(set) var mapCenter: GeoCoordinate?
    /// Whether the app had a current location at its last update.
    public private(set) var isLocationAvailable = false
    /// How many times the marker moved.
    public private(set) var markerMoves = 0

    private var service: Task<Void, Never>?
    private var outageReported = false

    /// Creates the app on `device`.
    public init(device: Device, settings: Settings = Settings()) {
        self.device = device
        self.settings = settings
    }

    /// Whether the service is running.
    public var isRunning: Bool { service != nil }

    /// Starts the service (does nothing if it is running).
    public func startService() {
        guard service == nil else { return }
        let app = SimulationBound(self, executor: device.scheduler.executor)
        service = device.scheduler.spawn { await app.value.runService() }
    }

    /// Stops the service; the marker stays where it is.
    public func stopService() {
        guard let service else { return }
        service.cancel()
        self.service = nil
        device.record("service.stopped")
    }

    /// The user taps the centering button.
    public func centerMap() {
        if let fix = device.location.currentFix {
            mapCenter = fix.coordinate
            device.record("map.centered", Self.fields(fix.coordinate) + [("source", .string("current"))])
        } else if let marker {
            mapCenter = marker
            device.record("map.centered", Self.fields(marker) + [("source", .string("last-known"))])
        } else {
            device.record("map.center-failed", [("reason", .string("location unavailable"))])
        }
    }

    private func runService() async {
        device.record("service.started", [("interval", .double(settings.updateInterval.inSeconds))])
        var fix = device.location.currentFix
        if fix == nil {
            reportUnavailable()
            fix = await device.location.nextFix(on: device.scheduler.executor)
        }
        guard let fix, !Task.isCancelled else { return }
        outageReported = false
        isLocationAvailable = true
        mapCenter = fix.coordinate
        marker = fix.coordinate
        device.record("map.shown", Self.fields(fix.coordinate))
        device.record("marker.shown", Self.fields(fix.coordinate) + [("accuracy", Self.value(fix.horizontalAccuracy))])

        let clock = device.clock
        var deadline = clock.now
        while true {
            deadline = deadline.advanced(by: settings.updateInterval)
            do {
                try await clock.sleep(until: deadline)
            } catch {
                return
            }
            updateMarker()
        }
    }

    private func updateMarker() {
        guard let fix = device.location.currentFix else {
            reportUnavailable()
            return
        }
        if outageReported {
            device.record("location.recovered", Self.fields(fix.coordinate))
        }
        outageReported = false
        isLocationAvailable = true
        marker = fix.coordinate
        markerMoves += 1
        device.record("marker.moved", Self.fields(fix.coordinate) + [("accuracy", Self.value(fix.horizontalAccuracy))])
    }

    private func reportUnavailable() {
        isLocationAvailable = false
        guard !outageReported else { return }
        outageReported = true
        device.record("location.unavailable", marker.map { [("keeping", .string("last-marker"))] + Self.fields($0) } ?? [])
    }

    static func fields(_ coordinate: GeoCoordinate) -> [(key: String, value: TraceValue)] {
        [("lat", .double(coordinate.latitude)), ("lon", .double(coordinate.longitude))]
    }

    static func value(_ number: Double?) -> TraceValue {
        number.map(TraceValue.double) ?? .null
    }
}
