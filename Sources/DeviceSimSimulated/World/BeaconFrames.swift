import DeviceSimHAL
import Foundation

/// The advertising data a world's beacon sends: iBeacon manufacturer data, or Eddystone-UID (and,
/// with a URL, Eddystone-URL) service data under the 16-bit service UUID FEAA.
///
/// ```swift
/// let frames = BeaconFrames.advertisements(of: beacon)   // one per frame kind, sent in turn
/// frames[0].manufacturerData  // [0x4C, 0x00, 0x02, 0x15, uuid..., major, minor, measured power]
/// ```
public enum BeaconFrames {
    /// Eddystone's 16-bit service UUID.
    public static let eddystoneService = "FEAA"

    /// The frames `beacon` sends in turn (RSSI 0: the radio model sets each packet's).
    public static func advertisements(of beacon: Beacon) -> [BluetoothAdvertisement] {
        let power = Int8(clamping: Int(beacon.measuredPower.rounded()))
        switch beacon.id {
        case .iBeacon(let uuid, let major, let minor):
            var data: [UInt8] = [0x4C, 0x00, 0x02, 0x15]
            data += uuidBytes(uuid)
            data += [UInt8(major >> 8), UInt8(major & 0xFF), UInt8(minor >> 8), UInt8(minor & 0xFF), UInt8(bitPattern: power)]
            return [BluetoothAdvertisement(advertiser: beacon.id.description, manufacturerData: data, rssi: 0)]
        case .eddystone(let namespace, let instance):
            // Eddystone's calibrated power is at 0 m: the 1 m figure plus 41 dB (its specification's rule).
            let atZero = UInt8(bitPattern: Int8(clamping: Int(power) + 41))
            var uid: [UInt8] = [0x00, atZero]
            uid += hexBytes(namespace) + hexBytes(instance) + [0x00, 0x00]
            var frames = [BluetoothAdvertisement(
                advertiser: beacon.id.description, serviceData: [eddystoneService: uid], serviceUUIDs: [eddystoneService], rssi: 0)]
            if let url = beacon.url, let encoded = EddystoneURL.encode(url) {
                frames.append(BluetoothAdvertisement(
                    advertiser: beacon.id.description, serviceData: [eddystoneService: [0x10, atZero] + encoded],
                    serviceUUIDs: [eddystoneService], rssi: 0))
            }
            return frames
        }
    }

    private static func uuidBytes(_ text: String) -> [UInt8] {
        guard let uuid = UUID(uuidString: text) else { return Array(repeating: 0, count: 16) }
        return withUnsafeBytes(of: uuid.uuid) { Array($0) }
    }

    private static func hexBytes(_ hex: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var digits = hex.makeIterator()
        while let high = digits.next(), let low = digits.next() {
            bytes.append(UInt8(String([high, low]), radix: 16) ?? 0)
        }
        return bytes
    }
}

/// Eddystone-URL's compressed URLs: a scheme prefix byte, then the URL's characters with common
/// suffixes as single bytes, at most 17 bytes in all after the scheme.
///
/// ```swift
/// EddystoneURL.encode("https://example.com")  // [0x03, "example" bytes..., 0x07]
/// EddystoneURL.decode([0x03] + Array("example".utf8) + [0x07])  // "https://example.com"
/// ```
public enum EddystoneURL {
    static let schemes = ["http://www.", "https://www.", "http://", "https://"]
    static let expansions = [".com/", ".org/", ".edu/", ".net/", ".info/", ".biz/", ".gov/", ".com", ".org", ".edu", ".net", ".info", ".biz", ".gov"]

    /// The scheme byte and encoded URL (nil when the URL has no http(s) scheme, holds characters
    /// outside printable ASCII, or encodes in more than 17 bytes).
    public static func encode(_ url: String) -> [UInt8]? {
        guard let scheme = schemes.indices.first(where: { url.hasPrefix(schemes[$0]) }) else { return nil }
        var rest = Substring(url.dropFirst(schemes[scheme].count))
        var bytes: [UInt8] = [UInt8(scheme)]
        while !rest.isEmpty {
            if let code = expansions.indices.first(where: { rest.hasPrefix(expansions[$0]) }) {
                bytes.append(UInt8(code))
                rest = rest.dropFirst(expansions[code].count)
                continue
            }
            guard let ascii = rest.first?.asciiValue, (0x21...0x7E).contains(ascii) else { return nil }
            bytes.append(ascii)
            rest = rest.dropFirst()
        }
        return bytes.count - 1 <= 17 ? bytes : nil
    }

    /// The URL of an encoded scheme byte and URL (nil when malformed).
    public static func decode(_ bytes: [UInt8]) -> String? {
        guard let first = bytes.first, Int(first) < schemes.count else { return nil }
        var url = schemes[Int(first)]
        for byte in bytes.dropFirst() {
            if Int(byte) < expansions.count { url += expansions[Int(byte)] } else if (0x21...0x7E).contains(byte) {
                url.append(Character(UnicodeScalar(byte)))
            } else { return nil }
        }
        return url
    }
}
