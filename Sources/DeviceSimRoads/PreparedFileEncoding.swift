import Foundation

/// Writes a prepared road network's arrays as bytes: each array its element count (`UInt64`,
/// little-endian) and then its elements' bytes as they are in memory.
///
/// ```swift
/// var writer = PreparedFileWriter()
/// writer.append([1.5, 2.5])
/// var reader = PreparedFileReader(Data(writer.bytes))
/// let values: [Double] = try reader.array()   // [1.5, 2.5]
/// ```
struct PreparedFileWriter {
    private(set) var bytes: [UInt8] = []

    mutating func append<Element: BitwiseCopyable>(_ values: [Element]) {
        append(UInt64(values.count))
        values.withUnsafeBytes { bytes.append(contentsOf: $0) }
    }

    mutating func append<Value: BitwiseCopyable>(_ value: Value) {
        withUnsafeBytes(of: value) { bytes.append(contentsOf: $0) }
    }

    /// Strings as one array of lengths and one of their UTF-8 bytes.
    mutating func append(strings: [String]) {
        append(strings.map { Int32($0.utf8.count) })
        append(strings.flatMap { Array($0.utf8) })
    }
}

/// Reads what ``PreparedFileWriter`` wrote (from a memory-mapped file: each array is copied once,
/// out of the mapping); any count or length past the end of the bytes is
/// ``PreparedFileReader/Truncated``.
struct PreparedFileReader {
    /// The bytes end before what they announce.
    struct Truncated: Error {}

    private let bytes: Data
    private var offset: Int

    init(_ bytes: Data, offset: Int = 0) {
        self.bytes = bytes.startIndex == 0 ? bytes : Data(bytes)
        self.offset = offset
    }

    var isAtEnd: Bool { offset == bytes.count }

    mutating func value<Value: BitwiseCopyable>(_: Value.Type = Value.self) throws(Truncated) -> Value {
        let size = MemoryLayout<Value>.size
        guard size <= bytes.count - offset else { throw Truncated() }
        defer { offset += size }
        return bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: Value.self) }
    }

    mutating func array<Element: BitwiseCopyable>(_: Element.Type = Element.self) throws(Truncated) -> [Element] {
        let count = try value(UInt64.self)
        let stride = MemoryLayout<Element>.stride
        guard count <= UInt64(bytes.count - offset) / UInt64(max(stride, 1)) else { throw Truncated() }
        let byteCount = Int(count) * stride
        let start = offset
        offset += byteCount
        return [Element](unsafeUninitializedCapacity: Int(count)) { buffer, initialized in
            bytes.withUnsafeBytes { source in
                UnsafeMutableRawBufferPointer(buffer).copyMemory(from: UnsafeRawBufferPointer(rebasing: source[start..<start + byteCount]))
            }
            initialized = Int(count)
        }
    }

    mutating func strings() throws(Truncated) -> [String] {
        let lengths = try array(Int32.self), utf8 = try array(UInt8.self)
        guard lengths.allSatisfy({ $0 >= 0 }), lengths.reduce(0, { $0 + Int($1) }) == utf8.count else { throw Truncated() }
        var strings: [String] = []
        strings.reserveCapacity(lengths.count)
        var start = 0
        for length in lengths {
            strings.append(String(decoding: utf8[start..<start + Int(length)], as: UTF8.self))
            start += Int(length)
        }
        return strings
    }
}

/// A fast 64-bit hash of bytes (FNV-1a over 8-byte words, then the tail byte by byte), to notice a
/// changed extract or a damaged prepared file; not a cryptographic hash.
func preparedFileHash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    let prime: UInt64 = 0x0000_0100_0000_01b3
    let words = bytes.count / 8
    for word in 0..<words {
        hash = (hash ^ bytes.loadUnaligned(fromByteOffset: word * 8, as: UInt64.self)) &* prime
        hash ^= hash >> 29
    }
    for index in words * 8..<bytes.count { hash = (hash ^ UInt64(bytes[index])) &* prime }
    return hash ^ UInt64(bytes.count)
}
