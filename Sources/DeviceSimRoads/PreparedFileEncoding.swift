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

/// A fast 64-bit hash of bytes, to notice a changed extract or a damaged prepared file; not a
/// cryptographic hash. Four FNV-1a-style lanes take every fourth 8-byte word (so the processor runs
/// their multiplications side by side instead of one after another), then the lanes are folded
/// together and the tail is taken byte by byte. Any single changed byte changes the hash (each step
/// is a bijection of its lane, and each fold a bijection of the hash and of the lane).
///
/// ```swift
/// let hash = Array("DSROADS".utf8).withUnsafeBytes { preparedFileHash($0) }
/// ```
func preparedFileHash(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
    let prime: UInt64 = 0x0000_0100_0000_01b3
    var lanes: (UInt64, UInt64, UInt64, UInt64) = (0xcbf2_9ce4_8422_2325, 0x8422_2325_cbf2_9ce4, 0x9e37_79b9_7f4a_7c15, 0xc2b2_ae3d_27d4_eb4f)
    let blocks = bytes.count / 32
    for block in 0..<blocks {
        let offset = block * 32
        lanes.0 = (lanes.0 ^ bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* prime
        lanes.1 = (lanes.1 ^ bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self)) &* prime
        lanes.2 = (lanes.2 ^ bytes.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self)) &* prime
        lanes.3 = (lanes.3 ^ bytes.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self)) &* prime
        lanes.0 ^= lanes.0 >> 29
        lanes.1 ^= lanes.1 >> 29
        lanes.2 ^= lanes.2 >> 29
        lanes.3 ^= lanes.3 >> 29
    }
    // Each lane goes through a multiplication before the next is mixed in (a seed first): lanes changed
    // alike (the same bits of the same word of a block) do not cancel out.
    var hash: UInt64 = 0x27d4_eb2f_1656_67c5
    for lane in [lanes.0, lanes.1, lanes.2, lanes.3] {
        hash = (hash ^ lane) &* prime
        hash ^= hash >> 29
    }
    for index in blocks * 32..<bytes.count { hash = (hash ^ UInt64(bytes[index])) &* prime }
    return hash ^ UInt64(bytes.count)
}
