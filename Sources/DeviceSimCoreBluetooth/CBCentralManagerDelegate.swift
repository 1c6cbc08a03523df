import Foundation

/// What a central manager tells its delegate (CBCentralManager.h, `CBCentralManagerDelegate`): the
/// state (required, as in Apple's header) and each discovery while scanning.
///
/// A near miss is caught at the first discovery it misses: a delegate whose discovery method nearly
/// matches (`didDiscoverPeripheral`, `rssi: Int`, say) gets the default implementation, which tells the
/// manager; it then records `corebluetooth.delegate-method-missing` in the trace and reports an
/// ``DeviceSimHAL/APIDiagnostic`` naming the method to implement, which fails a DeviceSimTesting test at
/// its next advance. See docs/your-corelocation-code.md ("Near misses").
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
    public func centralManager(_ central: CBCentralManager, didDiscover peripheral: CBPeripheral, advertisementData: [String: Any], rssi RSSI: NSNumber) {
        central.discoveryDefaultRan = true
    }
}
