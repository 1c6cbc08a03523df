// Uses every declaration DeviceSimCoreLocation mirrors, spelt as Apple's SDK spells it in Swift, so the
// build fails if one is missing or misspelt (docs/apple-apis/CoreLocation.md lists them with their headers).
#if canImport(CoreLocation) && !DEVICESIM
import CoreLocation
#else
import DeviceSimCoreLocation
#endif
import Foundation
import DeviceSimTesting
import Testing

/// Implements every delegate method with its exact signature.
final class EveryDelegateMethod: NSObject, CLLocationManagerDelegate {
    var calls: [String] = []
    func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) { calls.append(#function) }
    func locationManager(_ manager: CLLocationManager, didChangeAuthorization status: CLAuthorizationStatus) { calls.append(#function) }
    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) { calls.append(#function) }
    func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error) { calls.append(#function) }
    func locationManager(_ manager: CLLocationManager, didEnterRegion region: CLRegion) { calls.append(#function) }
    func locationManager(_ manager: CLLocationManager, didExitRegion region: CLRegion) { calls.append(#function) }
    func locationManager(_ manager: CLLocationManager, didDetermineState state: CLRegionState, for region: CLRegion) { calls.append(#function) }
    func locationManager(_ manager: CLLocationManager, monitoringDidFailFor region: CLRegion?, withError error: any Error) { calls.append(#function) }
    func locationManager(_ manager: CLLocationManager, didStartMonitoringFor region: CLRegion) { calls.append(#function) }
    func locationManager(_ manager: CLLocationManager, didRange beacons: [CLBeacon], satisfying beaconConstraint: CLBeaconIdentityConstraint) {
        calls.append(#function)
    }
    func locationManager(_ manager: CLLocationManager, didFailRangingFor beaconConstraint: CLBeaconIdentityConstraint, error: any Error) {
        calls.append(#function)
    }
    func locationManagerDidPauseLocationUpdates(_ manager: CLLocationManager) { calls.append(#function) }
    func locationManagerDidResumeLocationUpdates(_ manager: CLLocationManager) { calls.append(#function) }
}

/// Touches every mirrored declaration of CLLocationManager.
@MainActor func useTheLocationManager(_ delegate: EveryDelegateMethod) -> CLLocationManager {
    let manager = CLLocationManager()
    manager.delegate = delegate
    let _: CLAuthorizationStatus = manager.authorizationStatus
    let _: CLAccuracyAuthorization = manager.accuracyAuthorization
    let _: Bool = CLLocationManager.locationServicesEnabled()
    let _: Bool = CLLocationManager.significantLocationChangeMonitoringAvailable()
    let _: Bool = CLLocationManager.headingAvailable()
    let _: Bool = CLLocationManager.isMonitoringAvailable(for: CLCircularRegion.self)
    let _: Bool = CLLocationManager.isRangingAvailable()
    manager.requestWhenInUseAuthorization()
    manager.requestAlwaysAuthorization()
    manager.desiredAccuracy = kCLLocationAccuracyBestForNavigation
    manager.desiredAccuracy = kCLLocationAccuracyNearestTenMeters
    manager.desiredAccuracy = kCLLocationAccuracyHundredMeters
    manager.desiredAccuracy = kCLLocationAccuracyKilometer
    manager.desiredAccuracy = kCLLocationAccuracyThreeKilometers
    manager.desiredAccuracy = kCLLocationAccuracyReduced
    manager.desiredAccuracy = kCLLocationAccuracyBest
    manager.distanceFilter = kCLDistanceFilterNone
    manager.activityType = .fitness
    manager.activityType = .automotiveNavigation
    manager.activityType = .otherNavigation
    manager.activityType = .airborne
    manager.activityType = .other
    manager.pausesLocationUpdatesAutomatically = false
    manager.allowsBackgroundLocationUpdates = false
    manager.showsBackgroundLocationIndicator = false
    let _: CLLocation? = manager.location
    manager.startUpdatingLocation()
    manager.stopUpdatingLocation()
    manager.requestLocation()
    manager.startMonitoringSignificantLocationChanges()
    manager.stopMonitoringSignificantLocationChanges()
    let region = CLCircularRegion(center: CLLocationCoordinate2D(latitude: 52.52, longitude: 13.405), radius: 100, identifier: "cafe")
    region.notifyOnEntry = true
    region.notifyOnExit = true
    manager.startMonitoring(for: region)
    manager.requestState(for: region)
    let _: Set<CLRegion> = manager.monitoredRegions
    let _: CLLocationDistance = manager.maximumRegionMonitoringDistance
    manager.stopMonitoring(for: region)
    let constraint = CLBeaconIdentityConstraint(uuid: UUID(), major: 1, minor: 2)
    manager.startRangingBeacons(satisfying: constraint)
    let _: Set<CLBeaconIdentityConstraint> = manager.rangedBeaconConstraints
    manager.stopRangingBeacons(satisfying: constraint)
    return manager
}

/// Touches every mirrored value type, class and constant.
func useTheValues() -> [Any] {
    let degrees: CLLocationDegrees = 52.52
    let accuracy: CLLocationAccuracy = 5
    let speed: CLLocationSpeed = 1.4
    let speedAccuracy: CLLocationSpeedAccuracy = 0.5
    let direction: CLLocationDirection = 90
    let directionAccuracy: CLLocationDirectionAccuracy = 5
    let distance: CLLocationDistance = CLLocationDistanceMax
    let interval: TimeInterval = CLTimeIntervalMax
    let major: CLBeaconMajorValue = 1
    let minor: CLBeaconMinorValue = 2
    var coordinate = CLLocationCoordinate2D()
    coordinate = CLLocationCoordinate2D(latitude: degrees, longitude: 13.405)
    coordinate = CLLocationCoordinate2DMake(coordinate.latitude, coordinate.longitude)
    let valid = CLLocationCoordinate2DIsValid(coordinate) && !CLLocationCoordinate2DIsValid(kCLLocationCoordinate2DInvalid)
    let simple = CLLocation(latitude: 52.52, longitude: 13.405)
    let timed = CLLocation(coordinate: coordinate, altitude: 34, horizontalAccuracy: accuracy, verticalAccuracy: 3, timestamp: Date())
    let moving = CLLocation(
        coordinate: coordinate, altitude: 34, horizontalAccuracy: accuracy, verticalAccuracy: 3, course: direction, speed: speed, timestamp: Date())
    let full = CLLocation(
        coordinate: coordinate, altitude: 34, horizontalAccuracy: accuracy, verticalAccuracy: 3, course: direction,
        courseAccuracy: directionAccuracy, speed: speed, speedAccuracy: speedAccuracy, timestamp: Date())
    let fields: [Double] = [
        full.coordinate.latitude, full.altitude, full.ellipsoidalAltitude, full.horizontalAccuracy, full.verticalAccuracy, full.course,
        full.courseAccuracy, full.speed, full.speedAccuracy, full.distance(from: simple), full.timestamp.timeIntervalSince1970,
    ]
    let circle = CLCircularRegion(center: coordinate, radius: 100, identifier: "cafe")
    let region: CLRegion = circle
    let inside = circle.contains(coordinate) && region.notifyOnEntry && region.notifyOnExit
    let uuid = UUID()
    let constraints = [
        CLBeaconIdentityConstraint(uuid: uuid), CLBeaconIdentityConstraint(uuid: uuid, major: major),
        CLBeaconIdentityConstraint(uuid: uuid, major: major, minor: minor),
    ]
    let constraintFields: [Any?] = [constraints[2].uuid, constraints[2].major, constraints[2].minor]
    let beaconRegions = [
        CLBeaconRegion(uuid: uuid, identifier: "a"), CLBeaconRegion(uuid: uuid, major: major, identifier: "b"),
        CLBeaconRegion(uuid: uuid, major: major, minor: minor, identifier: "c"), CLBeaconRegion(beaconIdentityConstraint: constraints[0], identifier: "d"),
    ]
    beaconRegions[0].notifyEntryStateOnDisplay = true
    let beaconRegionFields: [Any?] = [beaconRegions[2].uuid, beaconRegions[2].major, beaconRegions[2].minor, beaconRegions[2].beaconIdentityConstraint]
    let beaconFields: (CLBeacon) -> [Any] = { [$0.uuid, $0.major, $0.minor, $0.proximity, $0.accuracy, $0.rssi, $0.timestamp] }
    let proximities: [CLProximity] = [.unknown, .immediate, .near, .far]
    let states: [CLRegionState] = [.unknown, .inside, .outside]
    let statuses: [CLAuthorizationStatus] = [.notDetermined, .restricted, .denied, .authorizedAlways, .authorizedWhenInUse]
    let accuracies: [CLAccuracyAuthorization] = [.fullAccuracy, .reducedAccuracy]
    let codes: [CLError.Code] = [
        CLError.locationUnknown, CLError.denied, CLError.network, CLError.headingFailure, CLError.regionMonitoringDenied,
        CLError.regionMonitoringFailure, CLError.regionMonitoringSetupDelayed, CLError.regionMonitoringResponseDelayed,
        CLError.geocodeFoundNoResult, CLError.geocodeFoundPartialResult, CLError.geocodeCanceled, CLError.deferredFailed,
        CLError.deferredNotUpdatingLocation, CLError.deferredAccuracyTooLow, CLError.deferredDistanceFiltered, CLError.deferredCanceled,
        CLError.rangingUnavailable, CLError.rangingFailure, CLError.promptDeclined, CLError.historicalLocationError,
    ]
    let error = CLError(.denied)
    let errorFields: [Any] = [error.code, error.userInfo, CLError.errorDomain, kCLErrorDomain, error.errorCode]
    return [
        distance, interval, valid, timed, moving, fields, inside, constraintFields, beaconRegionFields, beaconFields, proximities, states,
        statuses, accuracies, codes, errorFields,
    ]
}

/// Touches every mirrored declaration of iOS 17's CLLocationUpdate and CLMonitor.
func useTheIOS17API() async throws {
    let configurations: [CLLocationUpdate.LiveConfiguration] = [.default, .automotiveNavigation, .otherNavigation, .fitness, .airborne]
    let updates: CLLocationUpdate.Updates = CLLocationUpdate.liveUpdates(configurations[0])
    var iterator: CLLocationUpdate.Updates.Iterator = updates.makeAsyncIterator()
    if let update = try await iterator.next() {
        _ = [
            update.location as Any, update.isStationary, update.stationary, update.authorizationDenied, update.authorizationDeniedGlobally,
            update.authorizationRestricted, update.insufficientlyInUse, update.locationUnavailable, update.accuracyLimited,
            update.serviceSessionRequired, update.authorizationRequestInProgress,
        ]
    }
    let monitor = await CLMonitor("places")
    let center = CLLocationCoordinate2D(latitude: 52.52, longitude: 13.405)
    let circle = CLMonitor.CircularGeographicCondition(center: center, radius: 100)
    let beacon = CLMonitor.BeaconIdentityCondition(uuid: UUID(), major: 1, minor: 2)
    _ = [CLMonitor.BeaconIdentityCondition(uuid: UUID()), CLMonitor.BeaconIdentityCondition(uuid: UUID(), major: 1)]
    _ = [circle.center.latitude, circle.radius, beacon.uuid, beacon.major as Any, beacon.minor as Any] as [Any]
    await monitor.add(circle, identifier: "cafe")
    await monitor.add(beacon, identifier: "counter", assuming: CLMonitor.Event.State.unsatisfied)
    let states: [CLMonitoringState] = [.unknown, .satisfied, .unsatisfied, .unmonitored]
    let identifiers: [String] = await monitor.identifiers
    let record: CLMonitor.Record? = await monitor.record(for: "cafe")
    let condition: (any CLCondition)? = record?.condition
    let lastEvent: CLMonitor.Event? = record?.lastEvent
    await monitor.remove("counter")
    _ = [monitor.name, states, identifiers, condition as Any, lastEvent as Any] as [Any]
    let events: CLMonitor.Events = await monitor.events
    for try await event in events {
        _ = [
            event.identifier, event.refinement as Any, event.state, event.date, event.authorizationDenied, event.authorizationDeniedGlobally,
            event.authorizationRestricted, event.conditionLimitExceeded, event.conditionUnsupported, event.accuracyLimited,
        ] as [Any]
        break
    }
}

@Suite struct MirroredAPISurfaceTests {
    /// CLError is used in `catch` as Swift imports an NSError domain.
    @Test func clErrorCodesMatchInCatchPatterns() {
        func fail() throws { throw CLError(.regionMonitoringDenied) }
        var caught = ""
        do {
            try fail()
        } catch CLError.denied {
            caught = "denied"
        } catch CLError.regionMonitoringDenied {
            caught = "regionMonitoringDenied"
        } catch {
            caught = "other"
        }
        #expect(caught == "regionMonitoringDenied")
        #expect((CLError(.denied) as NSError).domain == kCLErrorDomain)
        #expect((CLError(.denied) as NSError).code == 1)
    }

    /// The values behave as CoreLocation's: `contains`, `distance(from:)`, the invalid coordinate.
    @Test func theValuesBehaveAsCoreLocations() {
        let values = useTheValues()
        #expect(values[2] as? Bool == true)                      // CLLocationCoordinate2DIsValid
        let here = CLLocation(latitude: 52.5145, longitude: 13.3501)
        let gate = CLLocation(latitude: 52.5163, longitude: 13.3777)
        #expect(abs(here.distance(from: gate) - 1_880) < 20)
        let circle = CLCircularRegion(center: here.coordinate, radius: 100, identifier: "here")
        #expect(circle.contains(here.coordinate) && !circle.contains(gate.coordinate))
        #expect(CLBeaconIdentityConstraint(uuid: UUID(uuidString: "F7826DA6-4FA2-4E98-8024-BC5B71E0893E")!, major: 1)
            == CLBeaconIdentityConstraint(uuid: UUID(uuidString: "F7826DA6-4FA2-4E98-8024-BC5B71E0893E")!, major: 1))
    }

    /// Every delegate method, with Apple's signature, is the one the manager calls (no default ran).
    @MainActor @Test(.simulation) func everyDelegateMethodIsCalledByItsExactSignature() async throws {
        let simulation = try TestSimulation.current
        let phone = simulation.addDevice("phone", at: Cafe.center)
        let delegate = EveryDelegateMethod()
        let manager = useTheLocationManager(delegate)
        phone.answer(prompt: "location.authorization", with: "Allow While Using App")
        manager.startUpdatingLocation()
        manager.startMonitoring(for: CLCircularRegion(center: CheckInViewModel.cafeCenter, radius: 100, identifier: "cafe"))
        try await simulation.advance(by: .seconds(5))
        for method in ["locationManagerDidChangeAuthorization(_:)", "locationManager(_:didChangeAuthorization:)", "locationManager(_:didUpdateLocations:)",
                       "locationManager(_:didStartMonitoringFor:)", "locationManager(_:didDetermineState:for:)", "locationManager(_:didFailRangingFor:error:)"] {
            #expect(delegate.calls.contains(method), "\(method) was not called")
        }
        manager.stopUpdatingLocation()
    }
}
