import Foundation

/// What a central manager tells its delegate (CBCentralManager.h, `CBCentralManagerDelegate`): the
/// state (required, as in Apple's header) and each discovery while scanning.
///
/// ```swift
/// final class Scanner: NSObject, CBCentralManagerDelegate {
///     func centralManagerDidUpdateState(_ central: CBCentralManager) {
///         if central.state == .poweredOn { central.scanForPeripherals(withServices: [CBUUID(string: "FEAA")]) }
///     }
///     func centralManager(_ central: CBCentralManager, didDiscover peripheral: CBPeripheral,
///                         advertisementData: [String: Any], rssi RSSI: NSNumber) { ... }
/// }
/// ```
public protocol CBCentralManagerDelegate: NSObjectProtocol {
    /// The manager's state changed (first at the virtual instant after its creation).
    func centralManagerDidUpdateState(_ central: CBCentralManager)
    /// A scan discovered `peripheral` (optional in Apple's header: a default does nothing).
    func centralManager(_ central: CBCentralManager, didDiscover peripheral: CBPeripheral, advertisementData: [String: Any], rssi RSSI: NSNumber)
}

extension CBCentralManagerDelegate {
    public func centralManager(_ central: CBCentralManager, didDiscover peripheral: CBPeripheral, advertisementData: [String: Any], rssi RSSI: NSNumber) {}
}
