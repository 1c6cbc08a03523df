import Foundation

/// What a ``CLLocationManager`` tells its delegate. Every method is optional, as in Objective-C: the
/// default implementations do nothing for the app, but each one tells the manager that it ran.
///
/// A near miss is caught at the first delivery it misses: when the manager delivers an event that no
/// method of the delegate received (the delegate wrote `didUpdateLocation` for `didUpdateLocations`,
/// say), it records `corelocation.delegate-method-missing` in the trace and reports an
/// ``DeviceSimHAL/APIDiagnostic`` naming the method to implement, which fails a DeviceSimTesting test
/// at its next advance. See docs/your-corelocation-code.md ("Near misses").
///
/// ```swift
/// final class CheckIn: NSObject, CLLocationManagerDelegate {
///     func locationManager(_ manager: CLLocationManager, didEnterRegion region: CLRegion) { arrived(region.identifier) }
/// }
/// ```
public protocol CLLocationManagerDelegate: NSObjectProtocol {
    /// The app's authorization changed (and once after the manager is created).
    func locationManagerDidChangeAuthorization(_ manager: CLLocationManager)
    /// The app's authorization changed (deprecated in iOS 14 for ``locationManagerDidChangeAuthorization(_:)``).
    func locationManager(_ manager: CLLocationManager, didChangeAuthorization status: CLAuthorizationStatus)
    /// New locations, oldest first.
    func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation])
    /// Location could not be obtained (a ``CLError``).
    func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error)
    /// The device entered a monitored region.
    func locationManager(_ manager: CLLocationManager, didEnterRegion region: CLRegion)
    /// The device left a monitored region.
    func locationManager(_ manager: CLLocationManager, didExitRegion region: CLRegion)
    /// The state of a monitored region: after monitoring starts, at every transition, and after `requestState(for:)`.
    func locationManager(_ manager: CLLocationManager, didDetermineState state: CLRegionState, for region: CLRegion)
    /// A region could not be monitored (a ``CLError``).
    func locationManager(_ manager: CLLocationManager, monitoringDidFailFor region: CLRegion?, withError error: any Error)
    /// Monitoring of a region started.
    func locationManager(_ manager: CLLocationManager, didStartMonitoringFor region: CLRegion)
    /// A ranging report: the beacons of `beaconConstraint` heard, nearest first (empty when none).
    func locationManager(_ manager: CLLocationManager, didRange beacons: [CLBeacon], satisfying beaconConstraint: CLBeaconIdentityConstraint)
    /// Ranging the beacons of `beaconConstraint` failed (a ``CLError``).
    func locationManager(_ manager: CLLocationManager, didFailRangingFor beaconConstraint: CLBeaconIdentityConstraint, error: any Error)
    /// Updates paused (never in DeviceSim: automatic pauses are not modelled).
    func locationManagerDidPauseLocationUpdates(_ manager: CLLocationManager)
    /// Updates resumed (never in DeviceSim).
    func locationManagerDidResumeLocationUpdates(_ manager: CLLocationManager)
}

extension CLLocationManagerDelegate {
    public func locationManagerDidChangeAuthorization(_ manager: CLLocationManager) {
        manager.defaultImplementationRan(.didChangeAuthorization)
    }
    public func locationManager(_ manager: CLLocationManager, didChangeAuthorization status: CLAuthorizationStatus) {
        manager.defaultImplementationRan(.didChangeAuthorizationStatus)
    }
    public func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation]) {
        manager.defaultImplementationRan(.didUpdateLocations)
    }
    public func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error) {
        manager.defaultImplementationRan(.didFailWithError)
    }
    public func locationManager(_ manager: CLLocationManager, didEnterRegion region: CLRegion) {
        manager.defaultImplementationRan(.didEnterRegion)
    }
    public func locationManager(_ manager: CLLocationManager, didExitRegion region: CLRegion) {
        manager.defaultImplementationRan(.didExitRegion)
    }
    public func locationManager(_ manager: CLLocationManager, didDetermineState state: CLRegionState, for region: CLRegion) {
        manager.defaultImplementationRan(.didDetermineState)
    }
    public func locationManager(_ manager: CLLocationManager, monitoringDidFailFor region: CLRegion?, withError error: any Error) {
        manager.defaultImplementationRan(.monitoringDidFail)
    }
    public func locationManager(_ manager: CLLocationManager, didStartMonitoringFor region: CLRegion) {
        manager.defaultImplementationRan(.didStartMonitoring)
    }
    public func locationManager(_ manager: CLLocationManager, didRange beacons: [CLBeacon], satisfying beaconConstraint: CLBeaconIdentityConstraint) {
        manager.defaultImplementationRan(.didRange)
    }
    public func locationManager(_ manager: CLLocationManager, didFailRangingFor beaconConstraint: CLBeaconIdentityConstraint, error: any Error) {
        manager.defaultImplementationRan(.didFailRanging)
    }
    public func locationManagerDidPauseLocationUpdates(_ manager: CLLocationManager) {
        manager.defaultImplementationRan(.didPause)
    }
    public func locationManagerDidResumeLocationUpdates(_ manager: CLLocationManager) {
        manager.defaultImplementationRan(.didResume)
    }
}

/// The delegate's methods, by the Swift name a near-miss diagnostic gives.
enum DelegateMethod: String, Hashable, Sendable {
    case didChangeAuthorization = "locationManagerDidChangeAuthorization(_:)"
    case didChangeAuthorizationStatus = "locationManager(_:didChangeAuthorization:)"
    case didUpdateLocations = "locationManager(_:didUpdateLocations:)"
    case didFailWithError = "locationManager(_:didFailWithError:)"
    case didEnterRegion = "locationManager(_:didEnterRegion:)"
    case didExitRegion = "locationManager(_:didExitRegion:)"
    case didDetermineState = "locationManager(_:didDetermineState:for:)"
    case monitoringDidFail = "locationManager(_:monitoringDidFailFor:withError:)"
    case didStartMonitoring = "locationManager(_:didStartMonitoringFor:)"
    case didRange = "locationManager(_:didRange:satisfying:)"
    case didFailRanging = "locationManager(_:didFailRangingFor:error:)"
    case didPause = "locationManagerDidPauseLocationUpdates(_:)"
    case didResume = "locationManagerDidResumeLocationUpdates(_:)"

    /// The declaration to compare the app's method with.
    var declaration: String {
        switch self {
        case .didChangeAuthorization: "func locationManagerDidChangeAuthorization(_ manager: CLLocationManager)"
        case .didChangeAuthorizationStatus: "func locationManager(_ manager: CLLocationManager, didChangeAuthorization status: CLAuthorizationStatus)"
        case .didUpdateLocations: "func locationManager(_ manager: CLLocationManager, didUpdateLocations locations: [CLLocation])"
        case .didFailWithError: "func locationManager(_ manager: CLLocationManager, didFailWithError error: any Error)"
        case .didEnterRegion: "func locationManager(_ manager: CLLocationManager, didEnterRegion region: CLRegion)"
        case .didExitRegion: "func locationManager(_ manager: CLLocationManager, didExitRegion region: CLRegion)"
        case .didDetermineState: "func locationManager(_ manager: CLLocationManager, didDetermineState state: CLRegionState, for region: CLRegion)"
        case .monitoringDidFail: "func locationManager(_ manager: CLLocationManager, monitoringDidFailFor region: CLRegion?, withError error: any Error)"
        case .didStartMonitoring: "func locationManager(_ manager: CLLocationManager, didStartMonitoringFor region: CLRegion)"
        case .didRange: "func locationManager(_ manager: CLLocationManager, didRange beacons: [CLBeacon], satisfying beaconConstraint: CLBeaconIdentityConstraint)"
        case .didFailRanging: "func locationManager(_ manager: CLLocationManager, didFailRangingFor beaconConstraint: CLBeaconIdentityConstraint, error: any Error)"
        case .didPause: "func locationManagerDidPauseLocationUpdates(_ manager: CLLocationManager)"
        case .didResume: "func locationManagerDidResumeLocationUpdates(_ manager: CLLocationManager)"
        }
    }
}
