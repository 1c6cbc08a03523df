import DeviceSimHAL
import DeviceSimClock
import Foundation

/// The object an app starts and stops location services with, over the simulated phone it was
/// created on (`DeviceContext.current` at creation). Its delegate hears about it on the main actor
/// when the manager was created there, at virtual instants during the simulation's events.
///
/// Create it with a current device: in a DeviceSimTesting test the first device added is current; in
/// a scenario the runner binds the app's device; elsewhere wrap the creation in
/// `DeviceContext.withDevice(device) { ... }`. Creating one on no device is a programming error (a trap
/// whose message says this).
///
/// ```swift
/// let manager = CLLocationManager()
/// manager.delegate = self
/// manager.requestWhenInUseAuthorization()     // prompt "location.authorization"
/// manager.startUpdatingLocation()
/// ```
open class CLLocationManager: NSObject {
    /// The phone it runs on.
    let device: Device
    private let services: PhoneLocationServices
    private let callbacks: CallbackContext

    /// Receives the manager's events.
    open weak var delegate: (any CLLocationManagerDelegate)?

    /// The accuracy the app wants (`kCLLocationAccuracyBest` by default). `requestLocation()` waits for
    /// a fix this accurate, up to ``requestLocationTimeout``.
    open var desiredAccuracy: CLLocationAccuracy = kCLLocationAccuracyBest {
        didSet {
            if desiredAccuracy.isNaN {
                device.record("corelocation.invalid-input", [("property", .string("desiredAccuracy")), ("value", .string("nan")), ("used", .double(oldValue))])
                desiredAccuracy = oldValue
            }
        }
    }
    /// The minimum movement in metres between two delivered locations (`kCLDistanceFilterNone`: every
    /// location). A negative or NaN value means none, as on iOS.
    open var distanceFilter: CLLocationDistance = kCLDistanceFilterNone
    /// What the app uses location for (stored: it does not change the simulated receiver).
    open var activityType: CLActivityType = .other
    /// Whether iOS may pause updates (stored: DeviceSim does not pause updates).
    open var pausesLocationUpdatesAutomatically = true
    /// Whether updates continue in the background (stored: a simulated app is always running).
    open var allowsBackgroundLocationUpdates = false
    /// Whether the blue background indicator shows (stored).
    open var showsBackgroundLocationIndicator = false

    /// How long `requestLocation()` waits for a fix as accurate as ``desiredAccuracy`` before it
    /// delivers the best one it got, or `kCLErrorLocationUnknown` (a DeviceSim figure: Apple says the
    /// request "may take several seconds").
    public static let requestLocationTimeout: Duration = .seconds(10)
    /// Significant-change updates: after the first, one when the device moved this far (Apple: "as soon
    /// as the device moves 500 meters or more from its previous notification")...
    public static let significantChangeDistance: CLLocationDistance = 500
    /// ... and no more often than this (Apple: "not [...] more frequently than once every five minutes").
    public static let significantChangeInterval: Duration = .seconds(300)

    private var updating = false
    private var significant = false
    private var request: (best: LocationFix?, timeout: any CancellableEvent)?
    private var locationToken: ObservationToken?
    private var privacyToken: ObservationToken?
    private var lastDelivered: CLLocation?
    private var lastSignificant: (location: CLLocation, at: VirtualInstant)?
    private var reportedUnavailable = false
    private var lastStatus: CLAuthorizationStatus
    private var ranged: [CLBeaconIdentityConstraint] = []
    private var rangingToken: ObservationToken?

    // Near misses (see CLLocationManagerDelegate).
    private var defaultsRan: Set<DelegateMethod> = []
    private var implemented: Set<DelegateMethod> = []
    private var reported: Set<DelegateMethod> = []

    /// A manager on the current device (`DeviceContext.current`).
    public override init() {
        guard let device = DeviceContext.current else {
            preconditionFailure(
                "CLLocationManager() was created on no device: create it in a DeviceSimTesting test after adding a device, in a scenario app, "
                    + "or inside DeviceContext.withDevice(device) { ... }")
        }
        self.device = device
        services = device.locationServices
        callbacks = CallbackContext.capture()
        lastStatus = services.status
        super.init()
        services.register(self)
        privacyToken = device.locationPrivacy.observe { [weak self] in self?.privacyChanged() }
        post { manager in manager.callDelegate(.didChangeAuthorization) { $0.locationManagerDidChangeAuthorization(manager) } }
    }

    // MARK: Authorization

    /// The app's authorization (shared by every manager of the app on the phone).
    open var authorizationStatus: CLAuthorizationStatus { services.status }

    /// Precise or approximate locations.
    open var accuracyAuthorization: CLAccuracyAuthorization {
        device.locationPrivacy.preciseLocation ? .fullAccuracy : .reducedAccuracy
    }

    /// Whether Location Services are on for the current device (false on no device).
    open class func locationServicesEnabled() -> Bool {
        DeviceContext.current?.locationPrivacy.servicesEnabled ?? false
    }

    /// The app's authorization on the current device (deprecated in iOS 14 for the instance property).
    @available(iOS, deprecated: 14.0, message: "Use the instance property authorizationStatus")
    open class func authorizationStatus() -> CLAuthorizationStatus {
        DeviceContext.current?.locationServices.status ?? .notDetermined
    }

    /// Asks for location while the app is in use: the prompt `location.authorization` with Apple's
    /// buttons "Allow Once", "Allow While Using App" and "Don't Allow", once (while not determined).
    open func requestWhenInUseAuthorization() {
        services.requestAuthorization(always: false)
    }

    /// Asks for location at any time: the same first prompt while not determined; to an app allowed
    /// while in use, once, the prompt `location.authorization.always` ("Keep Only While Using",
    /// "Change to Always Allow").
    open func requestAlwaysAuthorization() {
        services.requestAuthorization(always: true)
    }

    private func privacyChanged() {
        let status = services.status
        guard status != lastStatus else { return }
        lastStatus = status
        post { manager in
            manager.callDelegate(.didChangeAuthorization) { $0.locationManagerDidChangeAuthorization(manager) }
            manager.callDelegate(.didChangeAuthorizationStatus) { $0.locationManager(manager, didChangeAuthorization: status) }
            if status == .denied || status == .restricted {
                if manager.updating || manager.significant || manager.request != nil {
                    manager.request?.timeout.cancel()
                    manager.request = nil
                    manager.fail(.with(.denied, "location authorization was withdrawn (\(status))"))
                }
                for constraint in manager.ranged {
                    manager.failRanging(constraint, .with(.denied, "location authorization was withdrawn (\(status))"))
                }
            }
        }
    }

    // MARK: Location updates

    /// The most recent location delivered to the delegate.
    open private(set) var location: CLLocation?

    /// Starts delivering locations (every fix that passes ``distanceFilter``) until stopped. Denied or
    /// restricted apps get `kCLErrorDenied` through `didFailWithError`; an undetermined app gets
    /// locations once it is authorized.
    open func startUpdatingLocation() {
        device.record("corelocation.updates.started")
        updating = true
        beginLocation()
    }

    /// Stops ``startUpdatingLocation()``.
    open func stopUpdatingLocation() {
        guard updating else { return }
        device.record("corelocation.updates.stopped")
        updating = false
        endLocationIfIdle()
    }

    /// Delivers exactly one location (the first fix as accurate as ``desiredAccuracy``, or the best one
    /// within ``requestLocationTimeout``) or one error (`kCLErrorLocationUnknown` without a fix,
    /// `kCLErrorDenied` when not allowed).
    open func requestLocation() {
        guard request == nil else { return }
        device.record("corelocation.location-requested")
        let timeout = device.scheduling.schedule(after: Self.requestLocationTimeout) { [weak self] in self?.requestTimedOut() }
        request = (nil, timeout)
        beginLocation()
        if services.isAuthorized, let fix = device.location.currentFix {
            post { manager in manager.received(fix) }
        }
    }

    /// Starts significant-change updates (see ``significantChangeDistance``).
    open func startMonitoringSignificantLocationChanges() {
        device.record("corelocation.significant-changes.started")
        significant = true
        beginLocation()
    }

    /// Stops significant-change updates.
    open func stopMonitoringSignificantLocationChanges() {
        significant = false
        lastSignificant = nil
        endLocationIfIdle()
    }

    /// Whether significant-change updates are available (true).
    open class func significantLocationChangeMonitoringAvailable() -> Bool { true }
    /// Whether heading is available (false: DeviceSim has no compass).
    open class func headingAvailable() -> Bool { false }

    private func beginLocation() {
        let status = services.status
        if status == .denied || status == .restricted {
            let error = CLError.with(.denied, device.locationPrivacy.servicesEnabled ? "the app is not allowed to use location (\(status))" : "Location Services are off")
            post { manager in
                manager.request?.timeout.cancel()
                manager.request = nil
                manager.fail(error)
            }
            return
        }
        guard locationToken == nil else { return }
        locationToken = device.location.observe { [weak self] update in
            guard let self else { return }
            switch update {
            case .fix(let fix): received(fix)
            case .unavailable:
                guard updating, !reportedUnavailable, services.isAuthorized else { return }
                reportedUnavailable = true
                fail(.with(.locationUnknown, "the device has no position now; it keeps trying"))
            case .satellites: break
            }
        }
    }

    private func endLocationIfIdle() {
        if !updating, !significant, request == nil { locationToken = nil }
    }

    private func received(_ fix: LocationFix) {
        guard services.isAuthorized else { return }
        reportedUnavailable = false
        let location = CLLocation(fix: fix, on: device)
        if let pending = request {
            let accuracy = fix.horizontalAccuracy ?? 0
            var best = pending.best
            if best == nil || accuracy < (best?.horizontalAccuracy ?? .infinity) { best = fix }
            if desiredAccuracy <= 0 || accuracy <= desiredAccuracy {
                finishRequest(with: location)
            } else {
                request = (best, pending.timeout)
            }
        }
        if updating, passesDistanceFilter(location) {
            deliver([location])
        }
        if significant {
            let due = lastSignificant.map {
                location.distance(from: $0.location) >= Self.significantChangeDistance && device.now >= $0.at.advanced(by: Self.significantChangeInterval)
            } ?? true
            if due {
                lastSignificant = (location, device.now)
                if !updating { deliver([location]) }
            }
        }
    }

    private func passesDistanceFilter(_ location: CLLocation) -> Bool {
        guard distanceFilter > 0, let last = lastDelivered else { return true }
        return location.distance(from: last) >= distanceFilter
    }

    private func finishRequest(with location: CLLocation) {
        request?.timeout.cancel()
        request = nil
        endLocationIfIdle()
        if !updating { deliver([location]) }
    }

    private func requestTimedOut() {
        guard let pending = request else { return }
        request = nil
        endLocationIfIdle()
        if let best = pending.best {
            deliver([CLLocation(fix: best, on: device)])
        } else {
            fail(.with(.locationUnknown, "no location within \(Self.requestLocationTimeout)"))
        }
    }

    private func deliver(_ locations: [CLLocation]) {
        lastDelivered = locations.last
        location = locations.last
        callDelegate(.didUpdateLocations) { [unowned self] in $0.locationManager(self, didUpdateLocations: locations) }
    }

    private func fail(_ error: CLError) {
        device.record("corelocation.error", [("code", .int(error.code.rawValue)), ("method", .string(DelegateMethod.didFailWithError.rawValue))])
        callDelegate(.didFailWithError, check: !explainedByAuthorization(error)) { [unowned self] in $0.locationManager(self, didFailWithError: error) }
    }

    // MARK: Region monitoring

    /// The regions the app monitors (shared by every manager of the app on the phone).
    open var monitoredRegions: Set<CLRegion> { Set(services.regions.map(\.region)) }

    /// The largest radius a monitored circle may have (a DeviceSim figure, see ``RegionMonitoringFigures``).
    open var maximumRegionMonitoringDistance: CLLocationDistance { services.figures.maximumRegionMonitoringDistance }

    /// Whether regions of `regionClass` can be monitored on the current device.
    open class func isMonitoringAvailable(for regionClass: AnyClass) -> Bool {
        if regionClass == CLCircularRegion.self { return DeviceContext.current != nil }
        if regionClass == CLBeaconRegion.self { return DeviceContext.current?.beacons != nil }
        return false
    }

    /// Starts monitoring `region` (replacing one of the same identifier): `didStartMonitoringFor`, then
    /// `didDetermineState` once the state is known, then entries and exits. Fails through
    /// `monitoringDidFailFor` with `kCLErrorRegionMonitoringDenied` (not allowed) or
    /// `kCLErrorRegionMonitoringFailure` (radius invalid or above ``maximumRegionMonitoringDistance``,
    /// more than 20 regions, a region type that cannot be monitored).
    open func startMonitoring(for region: CLRegion) {
        if let error = services.refusal(of: region) {
            device.record("corelocation.region.failed", [("region", .string(region.identifier)), ("code", .int(error.code.rawValue))])
            post { manager in manager.callDelegate(.monitoringDidFail, check: !manager.explainedByAuthorization(error)) { $0.locationManager(manager, monitoringDidFailFor: region, withError: error) } }
            return
        }
        services.add(region)
        post { manager in manager.callDelegate(.didStartMonitoring) { $0.locationManager(manager, didStartMonitoringFor: region) } }
    }

    /// Stops monitoring the region with `region`'s identifier.
    open func stopMonitoring(for region: CLRegion) {
        services.remove(identifier: region.identifier)
    }

    /// Delivers the region's current state through `didDetermineState` (`.unknown` before the first fix).
    open func requestState(for region: CLRegion) {
        let state = services.state(of: region)
        post { manager in manager.callDelegate(.didDetermineState) { $0.locationManager(manager, didDetermineState: state, for: region) } }
    }

    /// Called by the phone's region state for every manager (scheduled at the current instant).
    func deliverRegion(_ region: CLRegion, state: CLRegionState, transition: Bool) {
        post { manager in
            if transition {
                if state == .inside, region.notifyOnEntry {
                    manager.callDelegate(.didEnterRegion, check: false) { $0.locationManager(manager, didEnterRegion: region) }
                } else if state == .outside, region.notifyOnExit {
                    manager.callDelegate(.didExitRegion, check: false) { $0.locationManager(manager, didExitRegion: region) }
                }
            }
            manager.callDelegate(.didDetermineState, check: false) { $0.locationManager(manager, didDetermineState: state, for: region) }
            if transition { manager.checkRegionFamily(transition: state == .inside ? .didEnterRegion : .didExitRegion) }
        }
    }

    // MARK: Beacon ranging

    /// The constraints being ranged.
    open var rangedBeaconConstraints: Set<CLBeaconIdentityConstraint> { Set(ranged) }

    /// Whether the current device can range beacons.
    open class func isRangingAvailable() -> Bool { DeviceContext.current?.beacons != nil }

    /// Starts ranging the iBeacons of `constraint`: one `didRange:satisfying:` a second (the HAL's
    /// ranging cycle), nearest first, empty when none is heard. Fails through `didFailRangingFor` with
    /// `kCLErrorDenied` (not allowed) or `kCLErrorRangingUnavailable` (Bluetooth or Location Services off,
    /// no beacon ranging).
    open func startRangingBeacons(satisfying constraint: CLBeaconIdentityConstraint) {
        let status = services.status
        if status == .denied || status == .restricted {
            let code: CLError.Code = device.locationPrivacy.servicesEnabled ? .denied : .rangingUnavailable
            post { manager in manager.failRanging(constraint, .with(code, "ranging needs location authorization (\(status))")) }
            return
        }
        guard let beacons = device.beacons, beacons.isEnabled else {
            post { manager in manager.failRanging(constraint, .with(.rangingUnavailable, "Bluetooth is off or the device has no beacon ranging")) }
            return
        }
        if !ranged.contains(constraint) { ranged.append(constraint) }
        device.record("corelocation.ranging.started", [("constraint", .string(constraint.description))])
        if rangingToken == nil {
            rangingToken = beacons.observeRanging { [weak self] sightings in self?.ranging(sightings) }
        }
    }

    /// Stops ranging `constraint`.
    open func stopRangingBeacons(satisfying constraint: CLBeaconIdentityConstraint) {
        ranged.removeAll { $0 == constraint }
        if ranged.isEmpty { rangingToken = nil }
    }

    private func ranging(_ sightings: [BeaconSighting]) {
        guard services.isAuthorized else { return }
        let timestamp = device.civilClock.date(of: device.now)
        for constraint in ranged {
            let beacons = sightings.compactMap { sighting -> CLBeacon? in
                guard case .iBeacon(let uuidText, let major, let minor) = sighting.beacon, let uuid = UUID(uuidString: uuidText),
                    constraint.matches(uuid: uuid, major: major, minor: minor)
                else { return nil }
                return CLBeacon(uuid: uuid, major: major, minor: minor, sighting: sighting, timestamp: timestamp)
            }
            callDelegate(.didRange) { [unowned self] in $0.locationManager(self, didRange: beacons, satisfying: constraint) }
        }
    }

    private func failRanging(_ constraint: CLBeaconIdentityConstraint, _ error: CLError) {
        ranged.removeAll { $0 == constraint }
        if ranged.isEmpty { rangingToken = nil }
        device.record("corelocation.ranging.failed", [("constraint", .string(constraint.description)), ("code", .int(error.code.rawValue))])
        callDelegate(.didFailRanging, check: !explainedByAuthorization(error)) { [unowned self] in $0.locationManager(self, didFailRangingFor: constraint, error: error) }
    }

    // MARK: Delivery

    /// Runs `body` with this manager at the current virtual instant, as an event of the simulation.
    private func post(_ body: @escaping (CLLocationManager) -> Void) {
        device.scheduling.schedule(after: .zero) { [weak self] in
            if let self { body(self) }
        }
    }

    /// Calls the delegate in the manager's callback context and notes whether `method` was implemented;
    /// when `check`, reports a near miss if it was not (for the methods a near miss matters for).
    private func callDelegate(_ method: DelegateMethod, check: Bool = true, _ call: (any CLLocationManagerDelegate) -> Void) {
        var ran = false
        callbacks.deliver {
            guard let delegate else { return }
            ran = true
            defaultsRan.remove(method)
            // The delegate runs "on" this phone, so what it creates or asks (`CLLocationManager()`,
            // `CLLocationManager.locationServicesEnabled()`) is this phone's, in a scenario's events too.
            DeviceContext.withDevice(device) { call(delegate) }
        }
        guard ran else { return }
        if defaultsRan.contains(method) {
            defaultsRan.remove(method)
            if check, Self.reportedWhenMissing.contains(method) { reportMissing(method, alternatives: []) }
        } else {
            implemented.insert(method)
        }
    }

    /// The methods whose absence loses what the app asked for.
    private static let reportedWhenMissing: Set<DelegateMethod> = [.didUpdateLocations, .didFailWithError, .monitoringDidFail, .didRange, .didFailRanging]

    /// After a region transition: a near miss if none of the region methods delivered so far was implemented.
    private func checkRegionFamily(transition: DelegateMethod) {
        let family: Set<DelegateMethod> = [.didEnterRegion, .didExitRegion, .didDetermineState]
        guard implemented.isDisjoint(with: family) else { return }
        reportMissing(transition, alternatives: [.didDetermineState])
    }

    private func reportMissing(_ method: DelegateMethod, alternatives: [DelegateMethod]) {
        guard !reported.contains(method), let delegate else { return }
        reported.insert(method)
        let name = String(describing: type(of: delegate))
        let also = alternatives.isEmpty ? "" : " (or " + alternatives.map(\.rawValue).joined(separator: ", ") + ")"
        device.record("corelocation.delegate-method-missing", [("method", .string(method.rawValue)), ("delegate", .string(name))])
        device.reportAPIDiagnostic(
            api: "CLLocationManagerDelegate",
            message: "CLLocationManager delivered \(method.rawValue) but its delegate \(name) does not implement it\(also): "
                + "the default implementation ran and the app never heard of it. Check the method's labels and types against `\(method.declaration)`")
    }

    /// Whether `error` comes from the app's authorization (denied, restricted, Location Services off) and
    /// the delegate heard of that through `locationManagerDidChangeAuthorization(_:)`: not a near miss
    /// when the failure method is missing, the app knows why.
    private func explainedByAuthorization(_ error: CLError) -> Bool {
        let status = services.status
        let byAuthorization = status == .denied || status == .restricted
        return byAuthorization && [.denied, .regionMonitoringDenied, .rangingUnavailable].contains(error.code) && implemented.contains(.didChangeAuthorization)
    }

    /// Called by the protocol's default implementations.
    func defaultImplementationRan(_ method: DelegateMethod) {
        defaultsRan.insert(method)
    }
}
