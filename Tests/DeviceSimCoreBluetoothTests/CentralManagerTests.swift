import DeviceSimCoreBluetooth
import DeviceSimHAL
import DeviceSimSimulated
import DeviceSimTesting
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// A café with an Eddystone beacon (UID and URL frames) and an iBeacon, both 5 m from the door.
enum Cafe {
    static let door = GeoCoordinate(latitude: 52.5200, longitude: 13.4050)
    static let eddystone = BeaconIdentifier.eddystone(namespace: "edd1ebeac04e5defa017", instance: "0123456789ab")
    static let iBeacon = BeaconIdentifier.iBeacon(uuid: "F7826DA6-4FA2-4E98-8024-BC5B71E0893E", major: 1, minor: 7)
    static let world = World(beacons: [
        Beacon(id: eddystone, position: door.offsetBy(east: 5, north: 0), url: "https://example.com/menu"),
        Beacon(id: iBeacon, position: door.offsetBy(east: 0, north: 5)),
    ])
}

/// Decodes what an app would: the Eddystone frame kinds under FEAA.
func eddystoneFrames(_ discoveries: [(peripheral: CBPeripheral, advertisementData: [String: Any], rssi: NSNumber)]) -> [[UInt8]] {
    discoveries.compactMap { discovery in
        (discovery.advertisementData[CBAdvertisementDataServiceDataKey] as? [CBUUID: Data])?[CBUUID(string: "FEAA")].map { Array($0) }
    }
}

@MainActor @Suite struct CentralManagerTests {
    @Test(.simulation(world: Cafe.world)) func aScanWithDuplicatesDecodesEddystoneUIDAndURLFramesAndNeverAnIBeacon() async throws {
        let simulation = try TestSimulation.current
        _ = simulation.addDevice("phone", at: Cafe.door)
        let scanner = RecordingScanner()
        scanner.scanOnPowerOn = (nil, [CBCentralManagerScanOptionAllowDuplicatesKey: true])
        let central = CBCentralManager(delegate: scanner, queue: nil)
        #expect(central.state == .unknown)
        try await simulation.advance(by: .seconds(2))
        #expect(scanner.states == [.poweredOn] && central.isScanning)
        let frames = eddystoneFrames(scanner.discoveries)
        // 100 ms interval, frames in turn: about 10 a second, UID and URL alike.
        #expect(frames.count >= 15 && frames.count <= 21)
        let uid = try #require(frames.first { $0.first == 0x00 })
        #expect(uid.count == 20 && uid[1] == UInt8(bitPattern: -18))   // -59 dBm at 1 m: -18 dBm at 0 m
        #expect(uid[2..<12].map { String(format: "%02x", $0) }.joined() == "edd1ebeac04e5defa017")
        #expect(uid[12..<18].map { String(format: "%02x", $0) }.joined() == "0123456789ab")
        let url = try #require(frames.first { $0.first == 0x10 })
        #expect(EddystoneURL.decode(Array(url[2...])) == "https://example.com/menu")
        #expect(url[2] == 0x03 && url.contains(0x00))   // https:// and .com/ as single bytes
        // iOS hides iBeacon frames from CoreBluetooth: only the Eddystone beacon is ever discovered.
        #expect(Set(scanner.discoveries.map(\.peripheral.identifier)).count == 1)
        #expect(scanner.discoveries.allSatisfy { $0.advertisementData[CBAdvertisementDataManufacturerDataKey] == nil })
        #expect(scanner.discoveries.allSatisfy { (-100 ... -50).contains($0.rssi.intValue) })
        #expect(scanner.discoveries.allSatisfy { ($0.advertisementData[CBAdvertisementDataIsConnectable] as? NSNumber)?.boolValue == false })
    }

    @Test(.simulation(world: Cafe.world)) func withoutTheDuplicatesKeyEachPeripheralIsReportedOncePerScan() async throws {
        let simulation = try TestSimulation.current
        _ = simulation.addDevice("phone", at: Cafe.door)
        let scanner = RecordingScanner()
        scanner.scanOnPowerOn = ([CBUUID(string: "FEAA")], nil)
        let central = CBCentralManager(delegate: scanner, queue: nil)
        try await simulation.advance(by: .seconds(5))
        #expect(scanner.discoveries.count == 1)
        central.scanForPeripherals(withServices: [CBUUID(string: "FEAA")], options: nil)   // a new scan reports it again
        try await simulation.advance(by: .seconds(5))
        #expect(scanner.discoveries.count == 2)
        #expect(scanner.discoveries[0].peripheral === scanner.discoveries[1].peripheral)
        central.stopScan()
        try await simulation.advance(by: .seconds(5))
        #expect(scanner.discoveries.count == 2 && !central.isScanning)
    }

    @Test(.simulation(world: Cafe.world)) func aScanForAnotherServiceHearsNothing() async throws {
        let simulation = try TestSimulation.current
        _ = simulation.addDevice("phone", at: Cafe.door)
        let scanner = RecordingScanner()
        scanner.scanOnPowerOn = ([CBUUID(string: "180D")], [CBCentralManagerScanOptionAllowDuplicatesKey: true])
        let central = CBCentralManager(delegate: scanner, queue: nil)   // kept, as an app keeps its manager
        try await simulation.advance(by: .seconds(5))
        #expect(scanner.states == [.poweredOn] && scanner.discoveries.isEmpty)
        withExtendedLifetime(central) {}
    }

    @Test(.simulation(world: Cafe.world)) func bluetoothOffGivesPoweredOffAndEndsTheScan() async throws {
        let simulation = try TestSimulation.current
        let phone = simulation.addDevice("phone", at: Cafe.door)
        let scanner = RecordingScanner()
        scanner.scanOnPowerOn = (nil, [CBCentralManagerScanOptionAllowDuplicatesKey: true])
        let central = CBCentralManager(delegate: scanner, queue: nil)
        try await simulation.advance(by: .seconds(1))
        phone.setBluetooth(on: false)
        try await simulation.advance(by: .milliseconds(1))
        let heard = scanner.discoveries.count
        #expect(scanner.states == [.poweredOn, .poweredOff] && central.state == .poweredOff && !central.isScanning)
        // Scanning while not powered on does what iOS does: nothing (an API MISUSE is logged).
        central.scanForPeripherals(withServices: nil, options: nil)
        try await simulation.advance(by: .seconds(3))
        #expect(!central.isScanning && scanner.discoveries.count == heard)
        phone.setBluetooth(on: true)   // the delegate rescans on power-on, as apps do
        try await simulation.advance(by: .seconds(1))
        #expect(scanner.states == [.poweredOn, .poweredOff, .poweredOn] && scanner.discoveries.count > heard)
    }

    @Test(.simulation(world: Cafe.world)) func aBeaconOutOfReachIsNotHeard() async throws {
        let simulation = try TestSimulation.current
        let far = RadioEnvironment().beaconRange(measuredPower: -59) + 10
        _ = simulation.addDevice("phone", at: Cafe.door.offsetBy(east: -far, north: 0))
        let scanner = RecordingScanner()
        scanner.scanOnPowerOn = (nil, [CBCentralManagerScanOptionAllowDuplicatesKey: true])
        let central = CBCentralManager(delegate: scanner, queue: nil)
        try await simulation.advance(by: .seconds(10))
        #expect(scanner.states == [.poweredOn] && scanner.discoveries.isEmpty)
        withExtendedLifetime(central) {}
    }

    @Test func aManagerOnNoDeviceIsUnsupported() {
        let central = CBCentralManager(delegate: nil, queue: nil)
        #expect(central.state == .unknown && !central.isScanning)
        central.scanForPeripherals(withServices: nil)   // an API MISUSE, nothing else
        #expect(!central.isScanning)
    }

    @Test func uuidsCompareByTheirBluetoothValue() {
        #expect(CBUUID(string: "FEAA") == CBUUID(data: Data([0xFE, 0xAA])))
        #expect(CBUUID(string: "feaa").uuidString == "FEAA")
        #expect(CBUUID(string: "FEAA") == CBUUID(string: "0000FEAA-0000-1000-8000-00805F9B34FB"))
        #expect(CBUUID(string: "FEAA") != CBUUID(string: "180D"))
        let uuid = UUID(uuidString: "F7826DA6-4FA2-4E98-8024-BC5B71E0893E")!
        #expect(CBUUID(nsuuid: uuid).uuidString == uuid.uuidString && CBUUID(nsuuid: uuid).data.count == 16)
        #expect(CBUUID(string: "not a uuid").data.isEmpty)   // iOS raises; DeviceSim logs an API MISUSE
        #expect(Set([CBUUID(string: "FEAA"), CBUUID(data: Data([0xFE, 0xAA]))]).count == 1)
    }
}

/// A scanner whose discovery method nearly matches `centralManager(_:didDiscover:advertisementData:rssi:)`:
/// `rssi` typed `Int` where Apple's is `NSNumber`, so the protocol's default runs instead.
final class NearMissScanner: NSObject, CBCentralManagerDelegate {
    var heard = 0
    func centralManagerDidUpdateState(_ central: CBCentralManager) {
        if central.state == .poweredOn { central.scanForPeripherals(withServices: nil, options: [CBCentralManagerScanOptionAllowDuplicatesKey: true]) }
    }
    func centralManager(_ central: CBCentralManager, didDiscover peripheral: CBPeripheral, advertisementData: [String: Any], rssi RSSI: Int) { heard += 1 }
}

@MainActor @Suite struct CentralManagerNearMissTests {
    /// A discovery method with a wrong label or type never runs; the first discovery it misses fails the test.
    @Test func aNearMissOfTheDiscoveryMethodFailsTheNextAdvance() throws {
        let simulation = TestSimulation(world: Cafe.world)
        let phone = simulation.addDevice("phone", at: Cafe.door)
        let scanner = NearMissScanner()
        let central = DeviceContext.withDevice(phone.device) { CBCentralManager(delegate: scanner, queue: nil) }
        #expect(throws: TestSimulationError.self) { try simulation.advance(by: .seconds(2)) }
        let missing = simulation.events(named: "corebluetooth.delegate-method-missing")
        #expect(missing.count == 1)
        #expect(missing.first?.fields.first { $0.key == "method" }?.value == .string("centralManager(_:didDiscover:advertisementData:rssi:)"))
        #expect(missing.first?.fields.first { $0.key == "delegate" }?.value == .string("NearMissScanner"))
        #expect(scanner.heard == 0 && central.isScanning)
        try simulation.advance(by: .seconds(2))   // reported once per manager, though discoveries go on
        #expect(simulation.events(named: "api.diagnostic").count == 1)
    }

    /// A delegate that implements the method is never reported, however many discoveries it hears.
    @Test func theExactMethodIsNotANearMiss() throws {
        let simulation = TestSimulation(world: Cafe.world)
        let phone = simulation.addDevice("phone", at: Cafe.door)
        let scanner = RecordingScanner()
        scanner.scanOnPowerOn = (nil, [CBCentralManagerScanOptionAllowDuplicatesKey: true])
        let central = DeviceContext.withDevice(phone.device) { CBCentralManager(delegate: scanner, queue: nil) }
        try simulation.advance(by: .seconds(3))
        #expect(!scanner.discoveries.isEmpty)
        #expect(simulation.events(named: "api.diagnostic").isEmpty)
        withExtendedLifetime(central) {}
    }
}

/// Reports each peripheral it discovers to the app's server, as a beacon check-in app does.
private final class ReportingScanner: NSObject, CBCentralManagerDelegate, @unchecked Sendable {
    private(set) var statuses: [Int] = []
    func centralManagerDidUpdateState(_ central: CBCentralManager) {
        if central.state == .poweredOn { central.scanForPeripherals(withServices: nil) }
    }
    func centralManager(_ central: CBCentralManager, didDiscover peripheral: CBPeripheral, advertisementData: [String: Any], rssi RSSI: NSNumber) {
        URLSession.shared.dataTask(with: URL(string: "https://api.example.com/seen")!) { [self] _, response, _ in
            statuses.append((response as? HTTPURLResponse)?.statusCode ?? -1)
        }.resume()
    }
}

/// The delegate runs "on" the manager's phone: a request it makes is that phone's.
@MainActor @Suite struct CentralManagerDelegateDeviceTests {
    @Test(.simulation(world: Cafe.world)) func aRequestFromDidDiscoverIsSentByTheManagersPhone() async throws {
        let simulation = try TestSimulation.current
        _ = simulation.addDevice("first", at: Cafe.door)
        let second = simulation.addDevice("second", at: Cafe.door)
        let server = FakeHTTPServer(simulation, host: "api.example.com") { server in
            server.route("GET", "/seen") { _ in .status(204) }
        }
        let scanner = ReportingScanner()
        let central = DeviceContext.withDevice(second.device) { CBCentralManager(delegate: scanner, queue: nil) }
        try await simulation.advance(by: .seconds(2))
        #expect(central.isScanning)
        #expect(scanner.statuses == [204])
        #expect(server.requests.map(\.device) == ["second"])
    }
}
