import DeviceSim
import DeviceSimCoreLocation
import DeviceSimTesting
import Foundation
import Testing

@MainActor @Suite struct MoreMonitoringTests {
    /// Apple, startMonitoringSignificantLocationChanges(): "Apps can expect a notification as soon as the
    /// device moves 500 meters or more from its previous notification. It should not expect notifications
    /// more frequently than once every five minutes."
    @Test(.simulation) func significantChangesAreFiveHundredMetresAndFiveMinutesApart() async throws {
        let simulation = try TestSimulation.current
        let phone = simulation.addDevice("phone", at: Cafe.center)
        phone.setLocationAuthorization(.always)
        let (manager, delegate) = makeManager()
        manager.startMonitoringSignificantLocationChanges()
        phone.walk(to: [Cafe.center.destination(distance: 3_000, bearing: 90)], speed: 4)   // a bicycle, 12.5 min
        try await simulation.advance(by: .seconds(1_200))
        #expect(delegate.locations.count >= 3 && delegate.locations.count <= 4)
        for (earlier, later) in zip(delegate.locations, delegate.locations.dropFirst()) {
            #expect(later.distance(from: earlier) >= 500)
            #expect(later.timestamp.timeIntervalSince(earlier.timestamp) >= 300)
        }
        manager.stopMonitoringSignificantLocationChanges()
    }

    /// Apple, CLBeaconRegion: "A region that is used to detect the presence of iBeacon devices." A beacon
    /// region is inside while one of its beacons is heard, and left once none has been heard for 30 s
    /// (DeviceSim's figure).
    @Test(.simulation(world: Cafe.world)) func aBeaconRegionIsEnteredOnHearingItsBeaconAndLeftAfterSilence() async throws {
        let simulation = try TestSimulation.current
        let phone = simulation.addDevice("phone", at: Cafe.street)
        phone.setLocationAuthorization(.always)
        let (manager, delegate) = makeManager()
        #expect(CLLocationManager.isMonitoringAvailable(for: CLBeaconRegion.self))
        manager.startMonitoring(for: CLBeaconRegion(uuid: CheckInViewModel.counterUUID, major: 1, identifier: "counter"))
        try await simulation.advance(by: .seconds(5))
        #expect(delegate.states.map(\.1) == [.outside])
        phone.place(at: Cafe.counterPosition.offsetBy(east: -2, north: 0))
        try await simulation.advance(by: .seconds(5))
        #expect(delegate.entered == ["counter"])
        phone.setBluetooth(on: false)
        try await simulation.advance(by: .seconds(25))
        #expect(delegate.exited.isEmpty)
        try await simulation.advance(by: .seconds(10))
        #expect(delegate.exited == ["counter"])
    }

    /// Apple, accuracyAuthorization: "the level of location accuracy the app has permission to use".
    @Test(.simulation) func precisionOffReadsAsReducedAccuracy() async throws {
        let simulation = try TestSimulation.current
        let phone = simulation.addDevice("phone", at: Cafe.center)
        let (manager, _) = makeManager()
        #expect(manager.accuracyAuthorization == .fullAccuracy)
        phone.device.locationPrivacy.preciseLocation = false
        #expect(manager.accuracyAuthorization == .reducedAccuracy)
        #expect(simulation.events(named: "location.accuracy").count == 1)
    }
}

/// Notes whether each delegate call arrives on the main actor (the main queue: on Linux main-actor code
/// does not run on the main thread, see `MainQueue`).
final class ThreadNotingDelegate: NSObject, CLLocationManagerDelegate, @unchecked Sendable {
    var onMainThread: [Bool] = []
    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) { onMainThread.append(MainQueue.isCurrent) }
}

@Suite struct DeliveryContextTests {
    /// Apple, CLLocationManagerDelegate: "The methods of your delegate object are called from the thread
    /// in which you started the corresponding location services" (the run loop of the creating thread:
    /// the main actor in practice).
    @MainActor @Test func aManagerMadeOnTheMainActorDeliversThere() async throws {
        let simulation = TestSimulation()
        let phone = simulation.addDevice("phone", at: Cafe.center)
        phone.setLocationAuthorization(.whenInUse)
        let delegate = ThreadNotingDelegate()
        let manager = DeviceContext.withDevice(phone.device) { CLLocationManager() }
        manager.delegate = delegate
        manager.startUpdatingLocation()
        try await simulation.advance(by: .seconds(3))
        #expect(!delegate.onMainThread.isEmpty && delegate.onMainThread.allSatisfy { $0 })
    }

    /// Made off the main actor (a synchronous test on a cooperative thread), the manager delivers on the
    /// thread that runs the simulation, during its events.
    @Test func aManagerMadeOffTheMainActorDeliversOnTheSimulationsThread() throws {
        let simulation = TestSimulation()
        let phone = simulation.addDevice("phone", at: Cafe.center)
        phone.setLocationAuthorization(.whenInUse)
        let delegate = ThreadNotingDelegate()
        let manager = DeviceContext.withDevice(phone.device) { CLLocationManager() }
        manager.delegate = delegate
        manager.startUpdatingLocation()
        try simulation.advance(by: .seconds(3))
        #expect(delegate.onMainThread.count >= 2)
        #expect(delegate.onMainThread.allSatisfy { !$0 })
    }
}
