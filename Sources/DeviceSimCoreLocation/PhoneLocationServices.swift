import DeviceSimHAL
import DeviceSimClock
import Foundation

/// What CoreLocation keeps per app on a phone, shared by every `CLLocationManager` there: the
/// authorization prompt, the monitored regions and where the device is with respect to each.
final class PhoneLocationServices {
    /// The prompt `requestWhenInUseAuthorization()` shows (and `requestAlwaysAuthorization()` first).
    static let authorizationPrompt = "location.authorization"
    /// The prompt `requestAlwaysAuthorization()` shows to an app allowed while in use.
    static let alwaysPrompt = "location.authorization.always"
    static let allowOnce = "Allow Once"
    static let allowWhileUsing = "Allow While Using App"
    static let dontAllow = "Don't Allow"
    static let keepWhileUsing = "Keep Only While Using"
    static let changeToAlways = "Change to Always Allow"

    struct Monitored {
        var region: CLRegion
        var state: CLRegionState = .unknown
        /// A crossing waiting for its confirmation.
        var pending: (state: CLRegionState, check: any CancellableEvent)?
        /// When a beacon of a beacon region was last heard.
        var lastHeard: VirtualInstant?
        /// The exit of a beacon region that is due if none of its beacons is heard before (ranging
        /// reports stop altogether when Bluetooth goes off).
        var exitCheck: (any CancellableEvent)?
    }

    unowned let device: Device
    var figures = RegionMonitoringFigures()
    private(set) var regions: [Monitored] = []
    private var managers: [WeakManager] = []
    private var promptShowing = false
    private var askedAlways = false
    private var locationToken: ObservationToken?
    private var rangingToken: ObservationToken?

    init(device: Device) {
        self.device = device
    }

    var privacy: LocationPrivacy { device.locationPrivacy }

    var status: CLAuthorizationStatus {
        let privacy = privacy
        if privacy.restricted { return .restricted }
        if !privacy.servicesEnabled { return .denied }
        return switch privacy.appAuthorization {
        case .notDetermined: .notDetermined
        case .denied: .denied
        case .whenInUse: .authorizedWhenInUse
        case .always: .authorizedAlways
        }
    }

    var isAuthorized: Bool { status == .authorizedWhenInUse || status == .authorizedAlways }

    func register(_ manager: CLLocationManager) {
        managers.removeAll { $0.manager == nil }
        managers.append(WeakManager(manager: manager))
    }

    var liveManagers: [CLLocationManager] { managers.compactMap(\.manager) }

    // MARK: Authorization

    func requestAuthorization(always: Bool) {
        guard !promptShowing, !privacy.restricted, privacy.servicesEnabled else { return }
        let current = privacy.appAuthorization
        let prompt: UserPrompt
        if current == .notDetermined {
            prompt = UserPrompt(
                id: Self.authorizationPrompt, message: "Allow “this app” to use your location?",
                choices: [Self.allowOnce, Self.allowWhileUsing, Self.dontAllow])
        } else if always, current == .whenInUse, !askedAlways {
            askedAlways = true
            prompt = UserPrompt(
                id: Self.alwaysPrompt, message: "Allow “this app” to also use your location even when you are not using the app?",
                choices: [Self.keepWhileUsing, Self.changeToAlways])
        } else {
            return
        }
        guard let presenter = device.notifications else {
            device.record("corelocation.prompt-unavailable", [("prompt", .string(prompt.id))])
            return
        }
        promptShowing = true
        device.record("corelocation.authorization-requested", [("prompt", .string(prompt.id)), ("always", .bool(always))])
        presenter.ask(prompt, timeout: nil) { [weak self] answer in
            guard let self else { return }
            promptShowing = false
            switch answer {
            case Self.allowOnce, Self.allowWhileUsing, Self.keepWhileUsing: privacy.appAuthorization = .whenInUse
            case Self.changeToAlways: privacy.appAuthorization = .always
            case Self.dontAllow: privacy.appAuthorization = .denied
            default: break
            }
        }
    }

    // MARK: Regions

    /// Why `region` cannot be monitored now, or nil.
    func refusal(of region: CLRegion) -> CLError? {
        if !isAuthorized && status != .notDetermined {
            return .with(.regionMonitoringDenied, "region monitoring needs location authorization (the app's status is \(status))")
        }
        if let circle = region as? CLCircularRegion {
            guard CLLocationCoordinate2DIsValid(circle.center) else {
                return .with(.regionMonitoringFailure, "region '\(region.identifier)': the centre is not a valid coordinate")
            }
            guard circle.radius.isFinite, circle.radius >= 0 else {
                return .with(.regionMonitoringFailure, "region '\(region.identifier)': the radius must be a number of metres of 0 or more, not \(circle.radius)")
            }
            if circle.radius > figures.maximumRegionMonitoringDistance {
                return .with(.regionMonitoringFailure,
                    "region '\(region.identifier)': the radius \(circle.radius) m is larger than maximumRegionMonitoringDistance (\(figures.maximumRegionMonitoringDistance) m)")
            }
        } else if region is CLBeaconRegion {
            if device.beacons == nil { return .with(.regionMonitoringFailure, "this device has no beacon ranging (no world with beacons)") }
        } else {
            return .with(.regionMonitoringFailure, "only CLCircularRegion and CLBeaconRegion can be monitored")
        }
        let others = regions.filter { $0.region.identifier != region.identifier }.count
        if others >= figures.maximumRegions {
            return .with(.regionMonitoringFailure, "an app monitors at most \(figures.maximumRegions) regions at once; stop monitoring one first")
        }
        return nil
    }

    func add(_ region: CLRegion) {
        remove(identifier: region.identifier)
        regions.append(Monitored(region: region))
        device.record("corelocation.region.monitored", [("region", .string(region.identifier))])
        followSources()
        if region is CLCircularRegion, let fix = device.location.currentFix { evaluate(fix.coordinate) }
    }

    func remove(identifier: String) {
        guard let index = regions.firstIndex(where: { $0.region.identifier == identifier }) else { return }
        regions[index].pending?.check.cancel()
        regions[index].exitCheck?.cancel()
        regions.remove(at: index)
        followSources()
    }

    func state(of region: CLRegion) -> CLRegionState {
        regions.first { $0.region.identifier == region.identifier }?.state ?? .unknown
    }

    private func followSources() {
        let circles = regions.contains { $0.region is CLCircularRegion }
        if circles, locationToken == nil {
            locationToken = device.location.observe { [unowned self] update in
                if case .fix(let fix) = update { evaluate(fix.coordinate) }
            }
        } else if !circles {
            locationToken = nil
        }
        let beaconRegions = regions.contains { $0.region is CLBeaconRegion }
        if beaconRegions, rangingToken == nil {
            rangingToken = device.beacons?.observeRanging { [unowned self] sightings in heard(sightings) }
        } else if !beaconRegions {
            rangingToken = nil
        }
    }

    private func evaluate(_ coordinate: GeoCoordinate) {
        guard isAuthorized else { return }
        for index in regions.indices {
            guard let circle = regions[index].region as? CLCircularRegion else { continue }
            let distance = coordinate.distance(to: circle.center.geo)
            if regions[index].state == .unknown {
                settle(index, distance <= circle.radius ? .inside : .outside, transition: false)
                continue
            }
            let margin = figures.boundaryMargin
            let side: CLRegionState? =
                if distance <= circle.radius - min(margin, circle.radius / 2) { .inside }
                else if distance >= circle.radius + margin { .outside }
                else { nil }
            confirm(index, side)
        }
    }

    private func heard(_ sightings: [BeaconSighting]) {
        guard isAuthorized else { return }
        for index in regions.indices {
            guard let region = regions[index].region as? CLBeaconRegion else { continue }
            let hearsOne = sightings.contains { sighting in
                guard case .iBeacon(let uuid, let major, let minor) = sighting.beacon, let id = UUID(uuidString: uuid) else { return false }
                return region.beaconIdentityConstraint.matches(uuid: id, major: major, minor: minor)
            }
            if hearsOne {
                regions[index].lastHeard = device.now
                regions[index].exitCheck?.cancel()
                let identifier = region.identifier
                regions[index].exitCheck = device.scheduling.schedule(after: figures.beaconExitDelay) { [unowned self] in
                    guard let index = regions.firstIndex(where: { $0.region.identifier == identifier }) else { return }
                    regions[index].exitCheck = nil
                    if regions[index].state == .inside { settle(index, .outside, transition: true) }
                }
            }
            let state: CLRegionState
            if hearsOne {
                state = .inside
            } else if let last = regions[index].lastHeard, device.now < last.advanced(by: figures.beaconExitDelay) {
                state = .inside
            } else {
                state = .outside
            }
            if regions[index].state == .unknown {
                settle(index, state, transition: false)
            } else if state != regions[index].state {
                settle(index, state, transition: true)
            }
        }
    }

    /// A crossing to `side` counts once the device stayed there for the confirmation time.
    private func confirm(_ index: Int, _ side: CLRegionState?) {
        guard let side, side != regions[index].state else {
            regions[index].pending?.check.cancel()
            regions[index].pending = nil
            return
        }
        if regions[index].pending?.state == side { return }
        regions[index].pending?.check.cancel()
        let identifier = regions[index].region.identifier
        let check = device.scheduling.schedule(after: figures.confirmation) { [unowned self] in
            guard let index = regions.firstIndex(where: { $0.region.identifier == identifier }) else { return }
            regions[index].pending = nil
            settle(index, side, transition: true)
        }
        regions[index].pending = (side, check)
    }

    private func settle(_ index: Int, _ state: CLRegionState, transition: Bool) {
        regions[index].state = state
        let region = regions[index].region
        if transition {
            device.record(state == .inside ? "corelocation.region.entered" : "corelocation.region.exited", [("region", .string(region.identifier))])
        } else {
            device.record("corelocation.region.state", [("region", .string(region.identifier)), ("state", .string(state == .inside ? "inside" : "outside"))])
        }
        for manager in liveManagers {
            manager.deliverRegion(region, state: state, transition: transition)
        }
    }
}

/// A manager the phone's state does not keep alive.
private struct WeakManager {
    weak var manager: CLLocationManager?
}
