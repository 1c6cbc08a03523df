import Foundation

/// A peripheral a central discovered (CBPeripheral.h): its identifier and name. Connections, services
/// and characteristics are not mirrored (DeviceSim's beacons do not accept connections).
///
/// ```swift
/// func centralManager(_ central: CBCentralManager, didDiscover peripheral: CBPeripheral, advertisementData: [String: Any], rssi RSSI: NSNumber) {
///     print(peripheral.identifier, peripheral.name ?? "no name")
/// }
/// ```
open class CBPeripheral: CBPeer {
    /// The peripheral's name (its advertised local name; nil for DeviceSim's beacons, which advertise none).
    open internal(set) var name: String?

    init(identifier: UUID, name: String?) {
        self.name = name
        super.init(identifier: identifier)
    }
}
