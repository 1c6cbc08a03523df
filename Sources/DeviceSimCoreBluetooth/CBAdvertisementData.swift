/// The keys of the advertisement data a central's delegate receives (CBAdvertisementData.h).
///
/// ```swift
/// if let data = advertisementData[CBAdvertisementDataServiceDataKey] as? [CBUUID: Data],
///    let frame = data[CBUUID(string: "FEAA")] { decodeEddystone(frame) }
/// ```

/// The local name (`String`).
public let CBAdvertisementDataLocalNameKey = "kCBAdvDataLocalName"
/// The TX power level, dBm (`NSNumber`).
public let CBAdvertisementDataTxPowerLevelKey = "kCBAdvDataTxPowerLevel"
/// The advertised service UUIDs (`[CBUUID]`).
public let CBAdvertisementDataServiceUUIDsKey = "kCBAdvDataServiceUUIDs"
/// Service data by service UUID (`[CBUUID: Data]`).
public let CBAdvertisementDataServiceDataKey = "kCBAdvDataServiceData"
/// Manufacturer data, company identifier first, little-endian (`Data`).
public let CBAdvertisementDataManufacturerDataKey = "kCBAdvDataManufacturerData"
/// Whether the advertiser accepts connections (`NSNumber`, a Boolean).
public let CBAdvertisementDataIsConnectable = "kCBAdvDataIsConnectable"
