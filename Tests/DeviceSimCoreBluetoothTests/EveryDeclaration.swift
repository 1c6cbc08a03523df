// Uses every declaration DeviceSimCoreBluetooth mirrors (docs/apple-apis/CoreBluetooth.md), written
// as iOS code: it compiles against CoreBluetooth as well.
#if canImport(CoreBluetooth) && !DEVICESIM
import CoreBluetooth
#else
import DeviceSimCoreBluetooth
#endif
import Foundation

/// A delegate that records what it hears, as an app's scanner would.
final class RecordingScanner: NSObject, CBCentralManagerDelegate {
    var states: [CBManagerState] = []
    var discoveries: [(peripheral: CBPeripheral, advertisementData: [String: Any], rssi: NSNumber)] = []
    var scanOnPowerOn: (services: [CBUUID]?, options: [String: Any]?)?

    func centralManagerDidUpdateState(_ central: CBCentralManager) {
        states.append(central.state)
        if central.state == .poweredOn, let scan = scanOnPowerOn {
            central.scanForPeripherals(withServices: scan.services, options: scan.options)
        }
    }

    func centralManager(_ central: CBCentralManager, didDiscover peripheral: CBPeripheral, advertisementData: [String: Any], rssi RSSI: NSNumber) {
        discoveries.append((peripheral, advertisementData, RSSI))
    }
}

/// Touches each mirrored declaration once (the compile check of the table).
func useEveryDeclaration(delegate: RecordingScanner) -> [Any] {
    let plain = CBCentralManager()
    let central = CBCentralManager(delegate: delegate, queue: nil)
    let withOptions = CBCentralManager(delegate: delegate, queue: DispatchQueue(label: "scan"), options: [CBCentralManagerOptionShowPowerAlertKey: true])
    central.delegate = delegate
    let state: CBManagerState = central.state
    let states: [CBManagerState] = [.unknown, .resetting, .unsupported, .unauthorized, .poweredOff, .poweredOn]
    let authorization: CBManagerAuthorization = CBManager.authorization
    let authorizations: [CBManagerAuthorization] = [.notDetermined, .restricted, .denied, .allowedAlways]
    central.scanForPeripherals(withServices: [CBUUID(string: "FEAA")], options: [CBCentralManagerScanOptionAllowDuplicatesKey: false])
    central.scanForPeripherals(withServices: nil)
    let scanning: Bool = central.isScanning
    central.stopScan()
    let short = CBUUID(string: "FEAA")
    let long = CBUUID(data: Data([0xFE, 0xAA]))
    let fromUUID = CBUUID(nsuuid: UUID())
    let text: String = short.uuidString
    let bytes: Data = long.data
    let keys = [
        CBAdvertisementDataManufacturerDataKey, CBAdvertisementDataServiceDataKey, CBAdvertisementDataServiceUUIDsKey,
        CBAdvertisementDataLocalNameKey, CBAdvertisementDataTxPowerLevelKey, CBAdvertisementDataIsConnectable,
    ]
    let peripheralFields: [(UUID, String?)] = delegate.discoveries.map { ($0.peripheral.identifier, $0.peripheral.name) }
    return [plain, withOptions, state, states, authorization, authorizations, scanning, short == long, fromUUID, text, bytes, keys, peripheralFields]
}
