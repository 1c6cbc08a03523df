// App code, as an iOS developer writes it (a plain NSObject delegate, no actor): nothing here knows DeviceSim.
#if canImport(CoreLocation) && !DEVICESIM
import CoreLocation
#else
import DeviceSimCoreLocation
#endif
import Foundation

/// Tells the app when the user is at the library and near its entrance beacon.
final class LibraryCheckIn: NSObject, CLLocationManagerDelegate {
    static let library = CLLocationCoordinate2D(latitude: 52.51080, longitude: 13.33050)
    static let beaconUUID = UUID(uuidString: "F7826DA6-4FA2-4E98-8024-BC5B71E0893E")!

    private let manager = CLLocationManager()
    private let entrance = CLBeaconIdentityConstraint(uuid: LibraryCheckIn.beaconUUID, major: 1, minor: 1)
    private var wasNear = false
    /// What the app shows, as it changes ("arrived", "near the entrance", "left").
    var onChange: (String) -> Void = { _ in }

    override init() {
        super.init()
        manager.delegate = self
    }

    func start() {
        manager.requestWhenInUseAuthorization()
    }

    func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {
        switch manager.authorizationStatus {
        case .authorizedWhenInUse, .authorizedAlways:
            manager.startMonitoring(for: CLCircularRegion(center: Self.library, radius: 150, identifier: "library"))
        case .denied, .restricted:
            onChange("location refused")
        default:
            break
        }
    }

    func locationManager(_ manager: CLLocationManager, didEnterRegion region: CLRegion) {
        onChange("arrived")
        manager.startRangingBeacons(satisfying: entrance)
    }

    func locationManager(_ manager: CLLocationManager, didExitRegion region: CLRegion) {
        onChange("left")
        manager.stopRangingBeacons(satisfying: entrance)
    }

    func locationManager(_ manager: CLLocationManager, didRange beacons: [CLBeacon], satisfying beaconConstraint: CLBeaconIdentityConstraint) {
        let near = beacons.contains { $0.proximity == .immediate || $0.proximity == .near }
        if near, !wasNear { onChange("near the entrance") }
        wasNear = near
    }
}
