import DeviceSimHAL
import DeviceSimTime
import Foundation

/// The device's location from a real GPS receiver through gpsd: the HAL's ``LocationProvider`` over
/// libgps.
///
/// Reports are read on a thread of their own and handed to the simulation's thread through its
/// executor, so flows see them exactly as they see simulated fixes. When gpsd is not running, the
/// provider says so (naming the address) and retries with capped exponential backoff; when gpsd dies
/// or the receiver goes quiet, location becomes unavailable and comes back with the next fix. A fix
/// whose position is out of range never reaches the flows: it is dropped and counted in
/// ``statistics``.
///
/// ```swift
/// let gps = GPSDLocationProvider(scheduler: scheduler, endpoint: try GPSDEndpoint(parsing: "localhost:2947"))
/// gps.start()
/// try WallClockDriver().run(scheduler, stop: stop)
/// ```
public final class GPSDLocationProvider: LocationProvider {
    /// Where gpsd is.
    public let endpoint: GPSDEndpoint
    /// Location becomes unavailable after this long without a fix.
    public let staleAfter: Duration
    public private(set) var currentFix: LocationFix?
    /// The latest problem with the connection (nil while connected).
    public private(set) var connectionProblem: GPSDError?
    /// Whether the reader is connected to gpsd now.
    public private(set) var isConnected = false
    /// Fixes received so far.
    public private(set) var fixesReceived = 0
    /// gpsd's and the receiver's state, and the problems that start and end, for a display on another
    /// thread (fed by the reader thread as reports arrive).
    public let status: GPSDStatusMonitor

    private let scheduler: EventScheduler
    private let observers = ObserverList<LocationUpdate>()
    private let connectionObservers = ObserverList<GPSDReader.Event>()
    private var reader: GPSDReader?
    private var statisticsWhenStopped = GPSDStatistics()
    private var staleCheck: ScheduledEvent?
    private var reportedUnavailable = false
    private let device: String?

    /// Creates a provider for gpsd at `endpoint` (one `device` only, when given).
    public init(scheduler: EventScheduler, endpoint: GPSDEndpoint = .default, device: String? = nil, staleAfter: Duration = .seconds(5)) {
        self.scheduler = scheduler
        self.endpoint = endpoint
        self.device = device
        self.staleAfter = staleAfter
        status = GPSDStatusMonitor(GPSDStatus(endpoint: endpoint, device: device, staleAfter: staleAfter, quietAfter: max(staleAfter, .seconds(3))))
    }

    deinit { reader?.stop() }

    public func observe(_ observer: @escaping (LocationUpdate) -> Void) -> ObservationToken {
        observers.add(observer)
    }

    /// Observes connection events (connected, connect failed with the retry delay, disconnected).
    public func observeConnection(_ observer: @escaping (GPSDReader.Event) -> Void) -> ObservationToken {
        connectionObservers.add(observer)
    }

    /// Connects (in the background) and starts delivering fixes.
    public func start() {
        guard reader == nil else { return }
        let target = SimulationTarget(self)
        let executor = scheduler.executor
        let status = status
        let reader = GPSDReader(endpoint: endpoint, device: device) { event in
            status.observe(event)
            if case .line = event { return }
            executor.submit { target.value?.handle(event) }
        }
        self.reader = reader
        reader.start()
    }

    /// What the reader took in and could not use (fixes used, dropped and why), so far.
    public var statistics: GPSDStatistics { reader?.statistics ?? statisticsWhenStopped }

    /// Disconnects.
    public func stop() {
        reader?.stop()
        if let reader { statisticsWhenStopped = reader.statistics }
        reader = nil
        staleCheck?.cancel()
        isConnected = false
        markUnavailable("gps stopped")
    }

    private func handle(_ event: GPSDReader.Event) {
        connectionObservers.send(event)
        switch event {
        case .connected:
            isConnected = true
            connectionProblem = nil
        case .connectFailed(let error, let retry):
            isConnected = false
            connectionProblem = error
            markUnavailable("\(error) (retrying in \(retry))")
        case .disconnected(let error, let retry):
            isConnected = false
            connectionProblem = error
            markUnavailable("\(error) (reconnecting in \(retry))")
        case .fix(let fix, _, _):
            deliver(fix)
        case .satellites(let satellites, _):
            observers.send(.satellites(satellites.map { SatelliteInfo(prn: $0.prn, elevation: $0.elevation, azimuth: $0.azimuth, snr: $0.snr, used: $0.used) }))
        case .line, .unusable:
            break
        }
    }

    private func deliver(_ fix: GPSDFix) {
        guard fix.hasPosition, let lat = fix.latitude, let lon = fix.longitude else {
            if fix.mode == 1 { markUnavailable("the receiver has no fix") }
            return
        }
        fixesReceived += 1
        reportedUnavailable = false
        let location = LocationFix(
            receivedAt: scheduler.now, time: fix.time, coordinate: GeoCoordinate(latitude: lat, longitude: lon),
            altitude: fix.altitudeMSL, speed: fix.speed, course: fix.track, horizontalAccuracy: fix.horizontalError,
            verticalAccuracy: fix.verticalError, mode: fix.mode >= 3 ? .threeDimensional : .twoDimensional,
            satellitesUsed: fix.satellitesUsed)
        currentFix = location
        observers.send(.fix(location))
        staleCheck?.cancel()
        staleCheck = scheduler.schedule(after: staleAfter) { [weak self] in
            self?.markUnavailable("no fix from gpsd for \(self?.staleAfter ?? .zero)")
        }
    }

    private func markUnavailable(_ reason: String) {
        currentFix = nil
        guard !reportedUnavailable else { return }
        reportedUnavailable = true
        observers.send(.unavailable(reason: reason))
    }
}

/// A weak reference to a simulation object that can cross to another thread and back: it is only
/// dereferenced inside closures the simulation's executor runs.
private final class SimulationTarget<Value: AnyObject>: @unchecked Sendable {
    weak var value: Value?

    init(_ value: Value) {
        self.value = value
    }
}
