import Foundation
import Logging

/// A Bluetooth UUID (CBUUID.h): 16-, 32- or 128-bit. Two CBUUIDs are equal when they name the same
/// 128-bit UUID (a 16-bit one stands for `0000XXXX-0000-1000-8000-00805F9B34FB`).
///
/// ```swift
/// let eddystone = CBUUID(string: "FEAA")
/// eddystone.uuidString  // "FEAA"
/// eddystone.data        // 2 bytes: FE AA
/// ```
///
/// iOS raises an exception for a string that is no UUID; DeviceSim logs an API MISUSE instead and makes
/// a CBUUID of no bytes, equal only to another of the same text.
open class CBUUID: NSObject, @unchecked Sendable {
    /// The UUID's bytes, big-endian: 2, 4 or 16 of them.
    public let data: Data
    private let invalidText: String?

    private static let logger = Logger(label: "CoreBluetooth")
    private static let baseSuffix: [UInt8] = [0x00, 0x00, 0x10, 0x00, 0x80, 0x00, 0x00, 0x80, 0x5F, 0x9B, 0x34, 0xFB]

    /// A UUID from 4, 8 or 36 hex digits (`"FEAA"`, `"0000FEAA"`, `"F7826DA6-4FA2-4E98-8024-BC5B71E0893E"`).
    public init(string theString: String) {
        if let bytes = Self.bytes(of: theString) {
            data = Data(bytes)
            invalidText = nil
        } else {
            Self.logger.error("API MISUSE: CBUUID(string:) was given '\(theString)', which is no UUID: use 4, 8 or 32 hex digits (with dashes: 8-4-4-4-12)")
            data = Data()
            invalidText = theString
        }
        super.init()
    }

    /// A UUID from 2, 4 or 16 bytes, big-endian.
    public init(data theData: Data) {
        if [2, 4, 16].contains(theData.count) {
            data = theData
            invalidText = nil
        } else {
            Self.logger.error("API MISUSE: CBUUID(data:) was given \(theData.count) bytes: use 2, 4 or 16")
            data = Data()
            invalidText = theData.map { String(format: "%02X", $0) }.joined()
        }
        super.init()
    }

    /// A 128-bit UUID.
    public convenience init(nsuuid theUUID: UUID) {
        self.init(data: withUnsafeBytes(of: theUUID.uuid) { Data($0) })
    }

    /// The UUID as text: 4 or 8 upper-case hex digits for short ones, 8-4-4-4-12 for 128-bit ones.
    open var uuidString: String {
        if let invalidText { return invalidText }
        let hex = data.map { String(format: "%02X", $0) }.joined()
        guard data.count == 16 else { return hex }
        let digits = Array(hex)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(digits[$0]) }.joined(separator: "-")
    }

    open override var description: String { uuidString }

    /// The 128-bit form (short UUIDs on the Bluetooth base UUID).
    private var full: [UInt8] {
        switch data.count {
        case 2: [0, 0] + Array(data) + Self.baseSuffix
        case 4: Array(data) + Self.baseSuffix
        default: Array(data)
        }
    }

    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CBUUID else { return false }
        if invalidText != nil || other.invalidText != nil { return invalidText == other.invalidText }
        return full == other.full
    }

    open override var hash: Int {
        var hasher = Hasher()
        if let invalidText { hasher.combine(invalidText) } else { hasher.combine(full) }
        return hasher.finalize()
    }

    private static func bytes(of text: String) -> [UInt8]? {
        let hex: String
        if text.count == 36 {
            let parts = text.split(separator: "-", omittingEmptySubsequences: false)
            guard parts.map(\.count) == [8, 4, 4, 4, 12] else { return nil }
            hex = parts.joined()
        } else {
            guard text.count == 4 || text.count == 8 else { return nil }
            hex = text
        }
        guard hex.allSatisfy(\.isHexDigit) else { return nil }
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            guard let byte = UInt8(hex[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return bytes
    }
}
