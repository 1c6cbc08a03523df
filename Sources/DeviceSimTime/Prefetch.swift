import CPrefetch

/// Hints that start loading memory into the processor's caches before it is read, without waiting.
///
/// A fleet of thousands of devices keeps more state than the caches hold, so each tick of a
/// device's driver would otherwise wait on memory for every object it reads. The scheduler
/// prefetches the objects of the ticks a few places down its tick lanes (see
/// ``TickPrefetching``); a driver names what its tick reads beyond itself.
///
/// ```swift
/// func prefetchTickState(level: Int) {
///     guard level == 0 else { return }
///     Prefetch.object(motion)
///     Prefetch.elements(of: samples)
/// }
/// ```
///
/// A hint only: it changes nothing, never faults, and costs a few cycles when the memory is
/// cached already.
public enum Prefetch {
    /// Starts loading the first `lines` cache lines of `object` (its header and first stored
    /// properties, then the ones after them).
    @inlinable @inline(__always)
    public static func object(_ object: AnyObject, lines: Int = 1) {
        memory(at: UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque()), lines: lines)
    }

    /// Starts loading `lines` cache lines from `address` on.
    @inlinable @inline(__always)
    public static func memory(at address: UnsafeRawPointer, lines: Int) {
        for line in 0..<lines { devicesim_prefetch(address + line &* 64) }
    }

    /// Starts loading every cache line of the `bytes` bytes from `address` on (however they fall on
    /// lines: an object from `malloc` is only 16-byte aligned, so 96 bytes can span three lines).
    @inlinable @inline(__always)
    public static func memory(at address: UnsafeRawPointer, bytes: Int) {
        for offset in stride(from: 0, to: bytes, by: 64) { devicesim_prefetch(address + offset) }
        devicesim_prefetch(address + (bytes &- 1))
    }

    /// Starts loading the start of `array`'s buffer: its count and first elements. (An array is one
    /// reference to its buffer; an empty array's is a shared empty buffer, cached already.)
    @inlinable @inline(__always)
    public static func elements<Element>(of array: [Element]) {
        devicesim_prefetch(unsafeBitCast(array, to: UnsafeRawPointer.self))
    }

    /// Starts loading the start of `array`'s buffer and its first `count` elements: every cache line
    /// from its header to the end of element `count - 1` (at most eight lines). `count` is what the
    /// caller keeps beside the array (reading the array's own count would wait for the buffer); a
    /// count past the end loads useless lines, nothing worse.
    ///
    /// The array is taken `inout` only so that it is read in place: a copy of it would retain its
    /// buffer, a write to the very line being prefetched, which would wait for it.
    ///
    /// ```swift
    /// Prefetch.elements(of: &tracked, first: trackedCount)
    /// ```
    @inlinable @inline(__always)
    public static func elements<Element>(of array: inout [Element], first count: Int) {
        let start = withUnsafeBytes(of: &array) { $0.load(as: UnsafeRawPointer.self) }
        let bytes = 4 &* MemoryLayout<Int>.stride &+ count &* MemoryLayout<Element>.stride
        memory(at: start, lines: min((bytes &+ 63) / 64, 8))
    }

    /// Starts loading the element at `index` of `array`: every cache line it spans. The index is not
    /// checked (reading the count would wait for the buffer): past the end, a useless line is
    /// loaded, nothing worse.
    ///
    /// The address assumes the native buffer's layout: a header of four words, then the elements.
    /// Were that to change, the hint would load the wrong line, never more than that. The array is
    /// taken `inout` to be read in place, as in ``elements(of:first:)``.
    @inlinable @inline(__always)
    public static func element<Element>(_ index: Int, of array: inout [Element]) {
        let offset = 4 &* MemoryLayout<Int>.stride &+ index &* MemoryLayout<Element>.stride
        let start = withUnsafeBytes(of: &array) { $0.load(as: UnsafeRawPointer.self) } + offset
        for line in stride(from: 0, to: MemoryLayout<Element>.size, by: 64) { devicesim_prefetch(start + line) }
        devicesim_prefetch(start + (MemoryLayout<Element>.size - 1))
    }
}
