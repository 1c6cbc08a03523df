/// Options of a central manager and of its scans (CBCentralManagerConstants.h).
///
/// ```swift
/// central.scanForPeripherals(withServices: nil, options: [CBCentralManagerScanOptionAllowDuplicatesKey: true])
/// ```

/// Whether to warn the user when Bluetooth is off at the manager's creation (`NSNumber`, a Boolean;
/// accepted, no prompt shown in DeviceSim).
public let CBCentralManagerOptionShowPowerAlertKey = "kCBInitOptionShowPowerAlert"
/// Whether a scan reports every advertisement of a peripheral (`NSNumber`, a Boolean); without it, or
/// false, a scan reports each peripheral once.
public let CBCentralManagerScanOptionAllowDuplicatesKey = "kCBScanOptionAllowDuplicates"
