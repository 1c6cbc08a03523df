/// The state of a Bluetooth manager (CBManager.h, `CBManagerState`).
///
/// ```swift
/// func centralManagerDidUpdateState(_ central: CBCentralManager) {
///     if central.state == .poweredOn { central.scanForPeripherals(withServices: nil) }
/// }
/// ```
public enum CBManagerState: Int, Sendable {
    /// State unknown, update imminent (every manager's state until its first update).
    case unknown = 0
    /// The connection with the system service was momentarily lost (never in DeviceSim).
    case resetting = 1
    /// The device has no Bluetooth LE: DeviceSim's devices without a world.
    case unsupported = 2
    /// The app may not use Bluetooth (never in DeviceSim: see ``CBManagerAuthorization``).
    case unauthorized = 3
    /// Bluetooth is off.
    case poweredOff = 4
    /// Bluetooth is on and available.
    case poweredOn = 5
}
