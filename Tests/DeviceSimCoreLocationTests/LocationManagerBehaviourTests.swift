import DeviceSim
import DeviceSimCoreLocation
import DeviceSimTesting
import Foundation
import Testing

/// Records what a `CLLocationManager` tells its delegate.
final class RecordingDelegate: NSObject, CLLocationManagerDelegate {
    var authorizationChanges: [CLAuthorizationStatus] = []
    var locations: [CLLocation] = []
    var errors: [CLError.Code] = []
    var entered: [String] = []
    var exited: [String] = []
    var states: [(String, CLRegionState)] = []
    var started: [String] = []
    var monitoringFailures: [(String?, CLError.Code?)] = []
    var ranged: [[CLBeacon]] = []
    var rangingFailures: [CLError.Code?] = []

    func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) { authorizationChanges.append(manager.authorizationStatus) }
    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) { self.locations += locations }
    func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error) {
        if let error = error as? CLError { errors.append(error.code) }
    }
    func locationManager(_ manager: CLLocationManager, didEnterRegion region: CLRegion) { entered.append(region.identifier) }
    func locationManager(_ manager: CLLocationManager, didExitRegion region: CLRegion) { exited.append(region.identifier) }
    func locationManager(_ manager: CLLocationManager, didDetermineState state: CLRegionState, for region: CLRegion) {
        states.append((region.identifier, state))
    }
    func locationManager(_ manager: CLLocationManager, didStartMonitoringFor region: CLRegion) { started.append(region.identifier) }
    func locationManager(_ manager: CLLocationManager, monitoringDidFailFor region: CLRegion?, withError error: any Error) {
        monitoringFailures.append((region?.identifier, (error as? CLError)?.code))
    }
    func locationManager(_ manager: CLLocationManager, didRange beacons: [CLBeacon], satisfying beaconConstraint: CLBeaconIdentityConstraint) {
        ranged.append(beacons)
    }
    func locationManager(_ manager: CLLocationManager, didFailRangingFor beaconConstraint: CLBeaconIdentityConstraint, error: any Error) {
        rangingFailures.append((error as? CLError)?.code)
    }
}

/// A manager with a recording delegate, on the test's current device.
@MainActor func makeManager() -> (CLLocationManager, RecordingDelegate) {
    let manager = CLLocationManager()
    let delegate = RecordingDelegate()
    manager.delegate = delegate
    return (manager, delegate)
}

@MainActor @Suite struct AuthorizationTests {
    /// Apple, requestWhenInUseAuthorization(): "When the current authorization status is
    /// CLAuthorizationStatus.notDetermined, this method runs asynchronously and prompts the user to grant
    /// permission to the app to use location services."
    @Test(.simulation) func theRequestShowsThePromptAndTheAnswerBecomesTheStatus() async throws {
        let simulation = try TestSimulation.current
        let phone = simulation.addDevice("phone", at: Cafe.center)
        let (manager, delegate) = makeManager()
        manager.requestWhenInUseAuthorization()
        try await simulation.advance(by: .seconds(1))
        let shown = try #require(simulation.events(named: "prompt.shown").first)
        #expect(shown.fields.first { $0.key == "prompt" }?.value == .string("location.authorization"))
        #expect(shown.fields.first { $0.key == "choices" }?.value == .string("Allow Once|Allow While Using App|Don't Allow"))
        #expect(manager.authorizationStatus == .notDetermined)
        phone.answer(prompt: "location.authorization", with: "Allow While Using App")
        try await simulation.advance(by: .seconds(1))
        #expect(manager.authorizationStatus == .authorizedWhenInUse)
        // Once after creation ("when the app creates the location manager"), once for the answer.
        #expect(delegate.authorizationChanges == [.notDetermined, .authorizedWhenInUse])
        #expect(simulation.events(named: "location.authorization").count == 1)
    }

    /// Apple, startMonitoring(for:): "The regions you add using this method are shared by all location
    /// manager objects in your app"; authorization is the app's, so every manager sees one status.
    @Test(.simulation) func everyManagerOfTheAppSharesTheAuthorizationAndTheRegions() async throws {
        let simulation = try TestSimulation.current
        let phone = simulation.addDevice("phone", at: Cafe.center)
        let (first, _) = makeManager()
        let (second, secondDelegate) = makeManager()
        first.requestWhenInUseAuthorization()
        second.requestWhenInUseAuthorization()   // the prompt is already showing: no second one
        phone.answer(prompt: "location.authorization", with: "Allow Once")
        try await simulation.advance(by: .seconds(1))
        #expect(simulation.events(named: "prompt.shown").count == 1)
        #expect(second.authorizationStatus == .authorizedWhenInUse)
        #expect(secondDelegate.authorizationChanges.last == .authorizedWhenInUse)
        first.startMonitoring(for: CLCircularRegion(center: CheckInViewModel.cafeCenter, radius: 100, identifier: "cafe"))
        #expect(second.monitoredRegions.map(\.identifier) == ["cafe"])
    }

    /// Apple, startUpdatingLocation(): "If the user denies your app’s use of the location service, this
    /// method reports a CLError.Code.denied error."
    @Test(.simulation) func aDeniedAppGetsTheDeniedError() async throws {
        let simulation = try TestSimulation.current
        let phone = simulation.addDevice("phone", at: Cafe.center)
        let (manager, delegate) = makeManager()
        manager.requestWhenInUseAuthorization()
        phone.answer(prompt: "location.authorization", with: "Don't Allow")
        try await simulation.advance(by: .seconds(1))
        #expect(manager.authorizationStatus == .denied)
        manager.startUpdatingLocation()
        try await simulation.advance(by: .seconds(5))
        #expect(delegate.errors == [.denied])
        #expect(delegate.locations.isEmpty)
    }

    /// Apple, CLAuthorizationStatus.denied: "The user denied the use of location services for the app or
    /// they are disabled globally in Settings." Apple, CLAuthorizationStatus.restricted: "The app is not
    /// authorized to use location services."
    @Test(.simulation) func locationServicesOffReadAsDeniedAndRestrictedAsRestricted() async throws {
        let simulation = try TestSimulation.current
        let phone = simulation.addDevice("phone", at: Cafe.center)
        phone.setLocationAuthorization(.always)
        let (manager, delegate) = makeManager()
        manager.startUpdatingLocation()
        try await simulation.advance(by: .seconds(3))
        #expect(!delegate.locations.isEmpty && CLLocationManager.locationServicesEnabled())
        phone.setLocationServices(enabled: false)
        try await simulation.advance(by: .seconds(3))
        #expect(manager.authorizationStatus == .denied)
        #expect(!CLLocationManager.locationServicesEnabled())
        #expect(delegate.authorizationChanges.last == .denied)
        #expect(delegate.errors == [.denied])
        phone.setLocationServices(enabled: true)
        phone.setLocationAuthorization(.whenInUse, restricted: true)
        try await simulation.advance(by: .seconds(1))
        #expect(manager.authorizationStatus == .restricted)
    }
}

@MainActor @Suite struct LocationUpdateTests {
    /// Apple, distanceFilter: "The minimum distance in meters the device must move horizontally before an
    /// update event is generated."
    @Test(.simulation) func theDistanceFilterDropsSmallerMoves() async throws {
        let simulation = try TestSimulation.current
        let phone = simulation.addDevice("phone", at: Cafe.center)
        phone.setLocationAuthorization(.whenInUse)
        let (manager, delegate) = makeManager()
        manager.distanceFilter = 20
        manager.startUpdatingLocation()
        phone.walk(to: [Cafe.center.destination(distance: 200, bearing: 90)], speed: 1.4)
        try await simulation.advance(by: .seconds(150))
        #expect(delegate.locations.count >= 8 && delegate.locations.count <= 11)
        for (earlier, later) in zip(delegate.locations, delegate.locations.dropFirst()) {
            #expect(later.distance(from: earlier) >= 20)
        }
        manager.stopUpdatingLocation()
        let count = delegate.locations.count
        try await simulation.advance(by: .seconds(30))
        #expect(delegate.locations.count == count)
    }

    /// Apple, requestLocation(): "This method returns immediately. Calling it causes the location manager
    /// to obtain a location fix (which may take several seconds) and call the delegate’s
    /// locationManager(_:didUpdateLocations:) method with the result." ... "If it can’t get a fix [...] it
    /// calls locationManager(_:didFailWithError:)" (exactly one of the two).
    @Test(.simulation) func requestLocationDeliversExactlyOneLocationOrOneError() async throws {
        let simulation = try TestSimulation.current
        let phone = simulation.addDevice("phone", at: Cafe.center)
        phone.setLocationAuthorization(.whenInUse)
        let (manager, delegate) = makeManager()
        manager.requestLocation()
        try await simulation.advance(by: .seconds(60))
        #expect(delegate.locations.count == 1 && delegate.errors.isEmpty)

        phone.setGPS(on: false)
        try await simulation.advance(by: .seconds(1))
        manager.requestLocation()
        try await simulation.advance(by: .seconds(60))
        #expect(delegate.locations.count == 1)
        #expect(delegate.errors == [.locationUnknown])
    }

    /// Apple, CLLocationManager.desiredAccuracy: a negative or NaN accuracy is bad input, which iOS
    /// ignores; DeviceSim keeps the previous value and notes it in the trace (never a trap).
    @Test(.simulation) func badInputIsRefusedWithoutATrap() async throws {
        let simulation = try TestSimulation.current
        simulation.addDevice("phone", at: Cafe.center)
        let (manager, delegate) = makeManager()
        manager.desiredAccuracy = .nan
        #expect(manager.desiredAccuracy == kCLLocationAccuracyBest)
        #expect(simulation.events(named: "corelocation.invalid-input").count == 1)
        manager.startMonitoring(for: CLCircularRegion(center: CheckInViewModel.cafeCenter, radius: -5, identifier: "negative"))
        manager.startMonitoring(for: CLCircularRegion(center: CLLocationCoordinate2D(latitude: 95, longitude: 0), radius: 50, identifier: "off-earth"))
        try await simulation.advance(by: .seconds(1))
        #expect(delegate.monitoringFailures.map(\.1) == [.regionMonitoringFailure, .regionMonitoringFailure])
        #expect(manager.monitoredRegions.isEmpty)
    }
}

@MainActor @Suite struct RegionMonitoringTests {
    /// Apple, maximumRegionMonitoringDistance: "Attempting to monitor a region with a distance larger than
    /// this value causes the location manager to send a CLError.Code.regionMonitoringFailure error to the
    /// delegate." CLError.Code.regionMonitoringFailure: "Monitoring can fail if the app exceeds the maximum
    /// number of regions that it can monitor simultaneously."
    @Test(.simulation) func aTooLargeRegionAndATwentyFirstRegionFail() async throws {
        let simulation = try TestSimulation.current
        let phone = simulation.addDevice("phone", at: Cafe.center)
        phone.setLocationAuthorization(.always)
        let (manager, delegate) = makeManager()
        manager.startMonitoring(for: CLCircularRegion(
            center: CheckInViewModel.cafeCenter, radius: manager.maximumRegionMonitoringDistance + 1, identifier: "huge"))
        for index in 0..<21 {
            let center = CLLocationCoordinate2D(latitude: 52.5 + Double(index) * 0.01, longitude: 13.4)
            manager.startMonitoring(for: CLCircularRegion(center: center, radius: 150, identifier: "r\(index)"))
        }
        try await simulation.advance(by: .seconds(1))
        #expect(delegate.monitoringFailures.map(\.0) == ["huge", "r20"])
        #expect(delegate.monitoringFailures.allSatisfy { $0.1 == .regionMonitoringFailure })
        #expect(manager.monitoredRegions.count == 20)
        #expect(delegate.started.count == 20)
    }

    /// Apple, "Region Monitoring and iBeacon": "the user’s location must cross the region boundary, move
    /// away from the boundary by a minimum distance, and remain at that minimum distance for at least 20
    /// seconds before the notifications are reported."
    @Test(.simulation) func anExitNeedsTheMarginAndTwentySeconds() async throws {
        let simulation = try TestSimulation.current
        let phone = simulation.addDevice("phone", at: Cafe.center)
        phone.setLocationAuthorization(.always)
        let (manager, delegate) = makeManager()
        manager.startMonitoring(for: CLCircularRegion(center: CheckInViewModel.cafeCenter, radius: 100, identifier: "cafe"))
        try await simulation.advance(by: .seconds(2))
        #expect(delegate.states.map(\.1) == [.inside])          // the initial state, no entry
        #expect(delegate.entered.isEmpty)
        phone.place(at: Cafe.center.destination(distance: 250, bearing: 0))   // outside, within the 200 m margin
        try await simulation.advance(by: .seconds(60))
        #expect(delegate.exited.isEmpty)
        phone.place(at: Cafe.center.destination(distance: 320, bearing: 0))   // past the margin
        try await simulation.advance(by: .seconds(15))
        #expect(delegate.exited.isEmpty)
        try await simulation.advance(by: .seconds(10))
        #expect(delegate.exited == ["cafe"])
        #expect(delegate.states.map(\.1) == [.inside, .outside])
        #expect(simulation.events(named: "corelocation.region.exited").count == 1)
    }

    /// The figures are settable per phone (a DeviceSim setting).
    @Test(.simulation) func theFiguresAreSettable() async throws {
        let simulation = try TestSimulation.current
        let phone = simulation.addDevice("phone", at: Cafe.street)
        phone.device.regionMonitoringFigures = RegionMonitoringFigures(boundaryMargin: 10, confirmation: .seconds(5))
        phone.setLocationAuthorization(.always)
        let (manager, delegate) = makeManager()
        manager.startMonitoring(for: CLCircularRegion(center: CheckInViewModel.cafeCenter, radius: 100, identifier: "cafe"))
        try await simulation.advance(by: .seconds(2))
        phone.place(at: Cafe.center.destination(distance: 80, bearing: 0))
        try await simulation.advance(by: .seconds(8))
        #expect(delegate.entered == ["cafe"])
    }

    /// Apple, CLError.Code.regionMonitoringDenied: "Access to the region monitoring service was denied by
    /// the user."
    @Test(.simulation) func aDeniedAppCannotMonitor() async throws {
        let simulation = try TestSimulation.current
        let phone = simulation.addDevice("phone", at: Cafe.center)
        phone.setLocationAuthorization(.denied)
        let (manager, delegate) = makeManager()
        manager.startMonitoring(for: CLCircularRegion(center: CheckInViewModel.cafeCenter, radius: 100, identifier: "cafe"))
        try await simulation.advance(by: .seconds(1))
        #expect(delegate.monitoringFailures.map(\.1) == [.regionMonitoringDenied])
    }
}

@MainActor @Suite struct BeaconRangingTests {
    /// Apple, locationManager(_:didRange:satisfying:): "Tells the delegate that the location manager
    /// detected at least one beacon that satisfies the provided constraint." CLBeacon.accuracy: "A
    /// negative accuracy value indicates the proximity is unknown."
    @Test(.simulation(world: Cafe.world)) func rangingReportsTheCounterBeaconNearestFirst() async throws {
        let simulation = try TestSimulation.current
        let phone = simulation.addDevice("phone", at: Cafe.counterPosition.offsetBy(east: -0.3, north: 0))
        phone.setLocationAuthorization(.whenInUse)
        let (manager, delegate) = makeManager()
        let constraint = CLBeaconIdentityConstraint(uuid: CheckInViewModel.counterUUID, major: 1)
        manager.startRangingBeacons(satisfying: constraint)
        #expect(manager.rangedBeaconConstraints == [constraint])
        try await simulation.advance(by: .seconds(25))
        let beacon = try #require(delegate.ranged.last?.first)
        #expect(beacon.uuid == CheckInViewModel.counterUUID && beacon.major == 1 && beacon.minor == 7)
        #expect(beacon.proximity == .immediate)
        #expect(beacon.accuracy >= 0 && beacon.accuracy < 1)
        #expect(beacon.rssi < 0)
        manager.stopRangingBeacons(satisfying: constraint)
        #expect(manager.rangedBeaconConstraints.isEmpty)
    }

    /// Apple, CLError.Code.rangingUnavailable: "Ranging is disabled. This might happen if the device is in
    /// Airplane mode or if Bluetooth or location services are disabled."
    @Test(.simulation(world: Cafe.world)) func rangingWithBluetoothOffIsUnavailable() async throws {
        let simulation = try TestSimulation.current
        let phone = simulation.addDevice("phone", at: Cafe.center)
        phone.setLocationAuthorization(.whenInUse)
        phone.setBluetooth(on: false)
        let (manager, delegate) = makeManager()
        manager.startRangingBeacons(satisfying: CLBeaconIdentityConstraint(uuid: CheckInViewModel.counterUUID))
        try await simulation.advance(by: .seconds(2))
        #expect(delegate.rangingFailures == [.rangingUnavailable])
        #expect(manager.rangedBeaconConstraints.isEmpty)
    }
}

/// A delegate whose method nearly matches `locationManager(_:didUpdateLocations:)`: the singular label.
final class NearMissDelegate: NSObject, CLLocationManagerDelegate {
    var heard = 0
    func locationManager(_ manager: CLLocationManager, didUpdateLocation locations: [CLLocation]) { heard += 1 }
}

@MainActor @Suite struct NearMissTests {
    /// A delegate method with a wrong label never runs; the first delivery it misses fails the test.
    @Test func aNearMissFailsTheNextAdvance() throws {
        let simulation = TestSimulation()
        let phone = simulation.addDevice("phone", at: Cafe.center)
        phone.setLocationAuthorization(.whenInUse)
        let delegate = NearMissDelegate()
        let manager = DeviceContext.withDevice(phone.device) { CLLocationManager() }
        manager.delegate = delegate
        manager.startUpdatingLocation()
        #expect(throws: TestSimulationError.self) { try simulation.advance(by: .seconds(3)) }
        let missing = simulation.events(named: "corelocation.delegate-method-missing")
        #expect(missing.count == 1)
        #expect(missing.first?.fields.first { $0.key == "method" }?.value == .string("locationManager(_:didUpdateLocations:)"))
        #expect(delegate.heard == 0)
        try simulation.advance(by: .seconds(3))                // reported once
        #expect(simulation.events(named: "api.diagnostic").count == 1)
    }

    /// An app that implements only entries is not a near miss when it is told of an exit.
    @Test func entriesOnlyIsNotANearMiss() throws {
        final class EntriesOnly: NSObject, CLLocationManagerDelegate {
            var entered = 0
            func locationManager(_ manager: CLLocationManager, didEnterRegion region: CLRegion) { entered += 1 }
        }
        let simulation = TestSimulation()
        let phone = simulation.addDevice("phone", at: Cafe.street)
        phone.setLocationAuthorization(.always)
        let delegate = EntriesOnly()
        let manager = DeviceContext.withDevice(phone.device) { CLLocationManager() }
        manager.delegate = delegate
        manager.startMonitoring(for: CLCircularRegion(center: CheckInViewModel.cafeCenter, radius: 100, identifier: "cafe"))
        try simulation.advance(by: .seconds(2))
        phone.place(at: Cafe.center)
        try simulation.advance(by: .seconds(30))
        phone.place(at: Cafe.street)
        try simulation.advance(by: .seconds(30))
        #expect(delegate.entered == 1)
        #expect(simulation.events(named: "corelocation.region.exited").count == 1)
        #expect(simulation.events(named: "api.diagnostic").isEmpty)
    }
}
