#if canImport(Glibc)
import Glibc
@testable import DeviceSimTime
import Testing

/// glibc's `malloc_usable_size` (declared in <malloc.h>, which the Glibc module does not bring in).
@_silgen_name("malloc_usable_size")
private func mallocUsableSize(_ pointer: UnsafeMutableRawPointer?) -> Int

/// The scheduler prefetches a queued repeating event's whole object a few ticks before it runs
/// (`RepeatingEvent.instanceBytes`): a stored property added past those bytes would be read from
/// memory again at every tick of a fleet.
@Suite struct RepeatingEventLayoutTests {
    @Test func theBytesPrefetchedCoverTheObjectUpToMallocsRounding() {
        let scheduler = EventScheduler()
        let event = scheduler.repeating(every: .seconds(1)) { _ in }
        defer { event.cancel() }
        let usable = mallocUsableSize(UnsafeMutableRawPointer(Unmanaged.passUnretained(event).toOpaque()))
        // glibc gives a request of n bytes a chunk of n + 8 rounded up to 16 and reports all of it but
        // its 8-byte size field as usable: so n lies within the 16 bytes below the usable size.
        #expect(usable >= RepeatingEvent.instanceBytes, "the object is smaller than the bytes prefetched: \(usable)")
        #expect(usable < RepeatingEvent.instanceBytes + 16, "the object has grown past the bytes prefetched: \(usable) usable")
    }
}
#endif
