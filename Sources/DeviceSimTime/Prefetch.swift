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

    /// Starts loading the start of `array`'s buffer: its count and first elements. (An array is one
    /// reference to its buffer; an empty array's is a shared empty buffer, cached already.)
    @inlinable @inline(__always)
    public static func elements<Element>(of array: [Element]) {
        devicesim_prefetch(unsafeBitCast(array, to: UnsafeRawPointer.self))
    }

    /// Starts loading the element at `index` of `array`: every cache line it spans. The index is not
    /// checked (reading the count would wait for the buffer): past the end, a useless line is
    /// loaded, nothing worse.
    ///
    /// The address assumes the native buffer's layout: a header of four words, then the elements.
    /// Were that to change, the hint would load the wrong line, never more than that.
    @inlinable @inline(__always)
    public static func element<Element>(_ index: Int, of array: [Element]) {
        let offset = 4 &* MemoryLayout<Int>.stride &+ index &* MemoryLayout<Element>.stride
        let start = unsafeBitCast(array, to: UnsafeRawPointer.self) + offset
        for line in stride(from: 0, to: MemoryLayout<Element>.size, by: 64) { devicesim_prefetch(start + line) }
        devicesim_prefetch(start + (MemoryLayout<Element>.size - 1))
    }
}
