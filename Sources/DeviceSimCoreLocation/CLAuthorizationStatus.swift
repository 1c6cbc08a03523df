/// What the app may do with location, as `CLLocationManager.authorizationStatus` reports it.
///
/// ```swift
/// if manager.authorizationStatus == .notDetermined { manager.requestWhenInUseAuthorization() }
/// ```
public enum CLAuthorizationStatus: Int32, Sendable, Hashable {
    /// The user has not chosen yet.
    case notDetermined = 0
    /// Restricted (parental controls): the user cannot grant it.
    case restricted = 1
    /// The user refused, or Location Services are off.
    case denied = 2
    /// Always.
    case authorizedAlways = 3
    /// While the app is in use.
    case authorizedWhenInUse = 4

    /// macOS's name for ``authorizedAlways``; unavailable on iOS.
    @available(*, unavailable, message: "DeviceSim does not mirror CLAuthorizationStatus.authorized (macOS only): use .authorizedAlways")
    public static var authorized: CLAuthorizationStatus { .authorizedAlways }
}
