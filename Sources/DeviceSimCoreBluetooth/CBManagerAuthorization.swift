/// The app's authorization to use Bluetooth (CBManager.h, `CBManagerAuthorization`). DeviceSim does
/// not model the Bluetooth prompt: every app is `.allowedAlways`.
///
/// ```swift
/// if CBManager.authorization == .allowedAlways { manager.scanForPeripherals(withServices: nil) }
/// ```
public enum CBManagerAuthorization: Int, Sendable {
    /// The user has not yet chosen.
    case notDetermined = 0
    /// Restricted by the device's owner.
    case restricted = 1
    /// The user said no.
    case denied = 2
    /// The app may use Bluetooth, also in the background.
    case allowedAlways = 3
}
