/// One Bluetooth LE advertisement a phone received, as the radio decoded it: the advertising data's
/// fields and the RSSI of this one packet.
///
/// ```swift
/// let token = device.bluetooth?.scan { advertisement in
///     if let frame = advertisement.serviceData["FEAA"], frame.first == 0x10 { /* an Eddystone-URL */ }
/// }
/// ```
public struct BluetoothAdvertisement: Sendable, Hashable {
    /// The advertiser: stable for one peripheral (a beacon's identity), never shown to apps as such.
    public var advertiser: String
    /// Manufacturer-specific data, company identifier first (little-endian), as CoreBluetooth reports it.
    public var manufacturerData: [UInt8]?
    /// Service data by 16-bit service UUID, four upper-case hex digits (`FEAA` for Eddystone).
    public var serviceData: [String: [UInt8]]
    /// The service UUIDs advertised, four upper-case hex digits each.
    public var serviceUUIDs: [String]
    /// The local name, when advertised.
    public var localName: String?
    /// The TX Power Level field, dBm, when advertised.
    public var txPowerLevel: Int?
    /// Whether the advertisement invites connections (beacons' do not).
    public var isConnectable: Bool
    /// This packet's received signal strength, dBm.
    public var rssi: Int

    /// Creates an advertisement.
    public init(
        advertiser: String, manufacturerData: [UInt8]? = nil, serviceData: [String: [UInt8]] = [:], serviceUUIDs: [String] = [],
        localName: String? = nil, txPowerLevel: Int? = nil, isConnectable: Bool = false, rssi: Int
    ) {
        self.advertiser = advertiser
        self.manufacturerData = manufacturerData
        self.serviceData = serviceData
        self.serviceUUIDs = serviceUUIDs
        self.localName = localName
        self.txPowerLevel = txPowerLevel
        self.isConnectable = isConnectable
        self.rssi = rssi
    }

    /// Whether this is an iBeacon frame (Apple's company identifier 0x004C, type 0x02, length 0x15),
    /// which iOS hides from CoreBluetooth scans.
    public var isIBeacon: Bool {
        guard let data = manufacturerData, data.count >= 4 else { return false }
        return data[0] == 0x4C && data[1] == 0x00 && data[2] == 0x02 && data[3] == 0x15
    }
}

/// The phone's Bluetooth LE radio as a central scanning for advertisements: its power, and every
/// advertisement heard while someone scans.
public protocol BluetoothScanning: AnyObject {
    /// Whether Bluetooth is on.
    var isPoweredOn: Bool { get }
    /// Observes Bluetooth being switched on (true) or off (false).
    func observePower(_ observer: @escaping (Bool) -> Void) -> ObservationToken
    /// Scans while the token lives: `observer` gets each advertisement heard (every packet, at the
    /// advertisers' intervals) while Bluetooth is on.
    func scan(_ observer: @escaping (BluetoothAdvertisement) -> Void) -> ObservationToken
}
