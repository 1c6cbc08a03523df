import DeviceSimHAL
import Dispatch
import Foundation
import Logging

/// The central role (CBCentralManager.h): the phone's Bluetooth state and scans for advertising
/// peripherals, on the current device (``DeviceSimHAL/DeviceContext/current``).
///
/// Its delegate hears the state at the virtual instant after creation (`.poweredOn`, `.poweredOff`,
/// or `.unsupported` on a device without Bluetooth), again at every switch, and each discovery while
/// scanning, on `queue` (nil: the main queue, as iOS). Like iOS, a scan reports each peripheral once
/// unless ``CBCentralManagerScanOptionAllowDuplicatesKey`` is true; iBeacon advertisements are never
/// reported (iOS hides them from CoreBluetooth: range iBeacons with CoreLocation); a scan or stop while
/// not powered on does nothing but log an API MISUSE, and switching Bluetooth off ends a scan.
///
/// ```swift
/// let central = CBCentralManager(delegate: scanner, queue: nil)
/// // in centralManagerDidUpdateState, once .poweredOn:
/// central.scanForPeripherals(withServices: [CBUUID(string: "FEAA")], options: nil)
/// ```
open class CBCentralManager: CBManager {
    /// The delegate that hears the state and discoveries.
    open weak var delegate: (any CBCentralManagerDelegate)?

    /// Whether the manager is scanning.
    open private(set) var isScanning = false

    private static let logger = Logger(label: "CoreBluetooth")
    private let device: Device?
    private let callbacks: CallbackContext
    private var powerToken: ObservationToken?
    private var scanToken: ObservationToken?
    private var scanServices: [CBUUID]?
    private var allowsDuplicates = false
    /// The peripherals discovered by this manager, by advertiser.
    private var peripherals: [String: CBPeripheral] = [:]
    /// The advertisers reported by the current scan (without duplicates, each once).
    private var reported: Set<String> = []
    /// Set by the delegate protocol's default discovery method: the delegate does not implement it.
    var discoveryDefaultRan = false
    /// Whether a near miss of the discovery method was reported (once per manager).
    private var nearMissReported = false

    /// A manager without a delegate, delivering on the main queue.
    public override init() {
        self.device = DeviceContext.current
        self.callbacks = CallbackContext.on(nil)
        super.init()
        attach()
    }

    /// A manager delivering to `delegate` on `queue` (nil: the main queue).
    public convenience init(delegate: (any CBCentralManagerDelegate)?, queue: DispatchQueue?) {
        self.init(delegate: delegate, queue: queue, options: nil)
    }

    /// A manager delivering to `delegate` on `queue` (nil: the main queue), with `options`
    /// (``CBCentralManagerOptionShowPowerAlertKey`` is accepted; no alert is shown).
    public init(delegate: (any CBCentralManagerDelegate)?, queue: DispatchQueue?, options: [String: Any]? = nil) {
        self.delegate = delegate
        self.device = DeviceContext.current
        self.callbacks = CallbackContext.on(queue)
        super.init()
        attach()
    }

    /// Follows the device's Bluetooth power and schedules the first state update.
    private func attach() {
        if device == nil {
            Self.logger.warning("CBCentralManager created on no device: its state becomes .unsupported (bind one with DeviceContext.withDevice, or create it in a DeviceSimTesting test)")
        }
        guard let device else { return }
        if let bluetooth = device.bluetooth {
            powerToken = bluetooth.observePower { [weak self] _ in self?.updateState() }
        }
        // The first state update comes at the next virtual instant, as on iOS (after init returns).
        _ = device.scheduling.schedule(after: .zero) { [weak self] in self?.updateState() }
    }

    /// Scans for peripherals advertising any of `serviceUUIDs` (nil: every peripheral), replacing the
    /// current scan's services and options. Does nothing but log an API MISUSE unless powered on.
    open func scanForPeripherals(withServices serviceUUIDs: [CBUUID]?, options: [String: Any]? = nil) {
        guard state == .poweredOn, let bluetooth = device?.bluetooth else { return misuse() }
        scanServices = serviceUUIDs
        allowsDuplicates = (options?[CBCentralManagerScanOptionAllowDuplicatesKey] as? Bool)
            ?? (options?[CBCentralManagerScanOptionAllowDuplicatesKey] as? NSNumber)?.boolValue ?? false
        reported = []
        isScanning = true
        if scanToken == nil {
            scanToken = bluetooth.scan { [weak self] advertisement in self?.heard(advertisement) }
        }
    }

    /// Stops scanning. Does nothing but log an API MISUSE unless powered on.
    open func stopScan() {
        guard state == .poweredOn else { return misuse() }
        endScan()
    }

    private func endScan() {
        scanToken?.cancel()
        scanToken = nil
        isScanning = false
    }

    private func misuse() {
        Self.logger.error("API MISUSE: <CBCentralManager: \(ObjectIdentifier(self))> can only accept this command while in the powered on state")
    }

    private func updateState() {
        let newState: CBManagerState
        if let bluetooth = device?.bluetooth {
            newState = bluetooth.isPoweredOn ? .poweredOn : .poweredOff
        } else {
            newState = .unsupported
        }
        if newState != .poweredOn { endScan() }
        guard newState != state else { return }
        state = newState
        deliverToDelegate { $0.centralManagerDidUpdateState(self) }
    }

    /// Calls the delegate in the manager's callback context, "on" the manager's phone: what the delegate
    /// creates or sends (`URLSession`, `CLLocationManager()`) is this phone's, in a scenario's events too.
    private func deliverToDelegate(_ call: (any CBCentralManagerDelegate) -> Void) {
        callbacks.deliver {
            guard let delegate else { return }
            if let device { DeviceContext.withDevice(device) { call(delegate) } } else { call(delegate) }
        }
    }

    private func heard(_ advertisement: BluetoothAdvertisement) {
        guard isScanning, !advertisement.isIBeacon else { return }
        if let services = scanServices, !services.isEmpty {
            let advertised = advertisement.serviceUUIDs.map { CBUUID(string: $0) }
            guard advertised.contains(where: services.contains) else { return }
        }
        if !allowsDuplicates {
            guard reported.insert(advertisement.advertiser).inserted else { return }
        }
        let peripheral = peripheral(for: advertisement)
        let data = Self.advertisementData(of: advertisement)
        let rssi = NSNumber(value: advertisement.rssi)
        deliverToDelegate { $0.centralManager(self, didDiscover: peripheral, advertisementData: data, rssi: rssi) }
        if discoveryDefaultRan {
            discoveryDefaultRan = false
            reportMissingDiscovery()
        }
    }

    /// A discovery reached only the protocol's default implementation: the delegate's method, if it
    /// has one, nearly matches and never runs.
    private func reportMissingDiscovery() {
        guard !nearMissReported, let device, let delegate else { return }
        nearMissReported = true
        let name = String(describing: type(of: delegate))
        let method = "centralManager(_:didDiscover:advertisementData:rssi:)"
        device.record("corebluetooth.delegate-method-missing", [("method", .string(method)), ("delegate", .string(name))])
        device.reportAPIDiagnostic(
            api: "CBCentralManagerDelegate",
            message: "CBCentralManager discovered a peripheral but its delegate \(name) does not implement \(method): the default "
                + "implementation ran and the app never heard of it. Check the method's labels and types against `func centralManager("
                + "_ central: CBCentralManager, didDiscover peripheral: CBPeripheral, advertisementData: [String : Any], rssi RSSI: NSNumber)`")
    }

    private func peripheral(for advertisement: BluetoothAdvertisement) -> CBPeripheral {
        if let known = peripherals[advertisement.advertiser] { return known }
        let made = CBPeripheral(identifier: Self.identifier(device: device?.id ?? "", advertiser: advertisement.advertiser), name: advertisement.localName)
        peripherals[advertisement.advertiser] = made
        return made
    }

    /// A stable UUID for one advertiser seen from one device (iOS gives each phone its own).
    static func identifier(device: String, advertiser: String) -> UUID {
        var bytes: [UInt8] = []
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for round in 0..<2 {
            for byte in Array("\(round)|\(device)|\(advertiser)".utf8) {
                hash ^= UInt64(byte)
                hash &*= 0x0000_0100_0000_01B3
            }
            withUnsafeBytes(of: hash.bigEndian) { bytes += $0 }
        }
        bytes[6] = (bytes[6] & 0x0F) | 0x40   // version 4
        bytes[8] = (bytes[8] & 0x3F) | 0x80   // RFC 4122 variant
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }

    static func advertisementData(of advertisement: BluetoothAdvertisement) -> [String: Any] {
        var data: [String: Any] = [CBAdvertisementDataIsConnectable: NSNumber(value: advertisement.isConnectable)]
        if let manufacturer = advertisement.manufacturerData { data[CBAdvertisementDataManufacturerDataKey] = Data(manufacturer) }
        if !advertisement.serviceData.isEmpty {
            var services: [CBUUID: Data] = [:]
            for (uuid, bytes) in advertisement.serviceData { services[CBUUID(string: uuid)] = Data(bytes) }
            data[CBAdvertisementDataServiceDataKey] = services
        }
        if !advertisement.serviceUUIDs.isEmpty { data[CBAdvertisementDataServiceUUIDsKey] = advertisement.serviceUUIDs.map { CBUUID(string: $0) } }
        if let name = advertisement.localName { data[CBAdvertisementDataLocalNameKey] = name }
        if let power = advertisement.txPowerLevel { data[CBAdvertisementDataTxPowerLevelKey] = NSNumber(value: power) }
        return data
    }
}
