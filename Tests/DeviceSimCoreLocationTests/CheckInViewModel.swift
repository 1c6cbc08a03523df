// App code, as an iOS developer writes it from Apple's documentation: nothing here knows DeviceSim.
#if canImport(CoreLocation) && !DEVICESIM
import CoreLocation
#else
import DeviceSimCoreLocation
#endif
import Foundation

/// Checks the user in at a café: monitors the café's circular region and, inside it, ranges the
/// counter's iBeacon to offer a stamp at the counter.
@MainActor final class CheckInViewModel: NSObject {
    static let cafeCenter = CLLocationCoordinate2D(latitude: 52.5200, longitude: 13.4050)
    static let counterUUID = UUID(uuidString: "F7826DA6-4FA2-4E98-8024-BC5B71E0893E")!

    private let manager = CLLocationManager()
    private let counter = CLBeaconIdentityConstraint(uuid: CheckInViewModel.counterUUID, major: 1, minor: 7)
    private(set) var status = "Not checked in"
    private(set) var nearestProximity: CLProximity = .unknown
    private(set) var authorization: CLAuthorizationStatus = .notDetermined
    private(set) var lastError: CLError.Code?

    override init() {
        super.init()
        manager.delegate = self
    }

    func start() {
        manager.requestWhenInUseAuthorization()
    }
}

extension CheckInViewModel: @preconcurrency CLLocationManagerDelegate {
    func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {
        authorization = manager.authorizationStatus
        guard authorization == .authorizedWhenInUse || authorization == .authorizedAlways else { return }
        guard CLLocationManager.isMonitoringAvailable(for: CLCircularRegion.self) else { return }
        let cafe = CLCircularRegion(center: Self.cafeCenter, radius: 100, identifier: "cafe")
        cafe.notifyOnEntry = true
        cafe.notifyOnExit = true
        manager.startMonitoring(for: cafe)
    }

    func locationManager(_ manager: CLLocationManager, didEnterRegion region: CLRegion) {
        guard region.identifier == "cafe" else { return }
        status = "Checked in"
        manager.startRangingBeacons(satisfying: counter)
    }

    func locationManager(_ manager: CLLocationManager, didExitRegion region: CLRegion) {
        guard region.identifier == "cafe" else { return }
        status = "Checked out"
        manager.stopRangingBeacons(satisfying: counter)
        nearestProximity = .unknown
    }

    func locationManager(_ manager: CLLocationManager, didRange beacons: [CLBeacon], satisfying beaconConstraint: CLBeaconIdentityConstraint) {
        nearestProximity = beacons.first?.proximity ?? .unknown
        if nearestProximity == .immediate { status = "Stamp offered" }
    }

    func locationManager(_ manager: CLLocationManager, monitoringDidFailFor region: CLRegion?, withError error: any Error) {
        lastError = (error as? CLError)?.code
    }

    func locationManager(_ manager: CLLocationManager, didFailRangingFor beaconConstraint: CLBeaconIdentityConstraint, error: any Error) {
        lastError = (error as? CLError)?.code
    }
}
