import CRealClockWatch
@_spi(Internal) import Runtime

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A thread of the process, remembered so that its stack can be sampled later from another thread
/// (see ``ThreadStackSample``).
public struct SampledThread: @unchecked Sendable {
    let handle: pthread_t

    /// The calling thread, which can be sampled from now on (the sampling signal is unblocked on it).
    public static var current: SampledThread {
        _ = devicesim_allow_stack_samples_of_this_thread()
        return SampledThread(handle: pthread_self())
    }
}

/// What another thread is running right now: the scenario runner's main-thread watchdog names the code
/// that has blocked the main thread (a busy loop, `Thread.sleep`, a semaphore wait) with it.
///
/// The sampled thread is sent a signal whose handler records its return addresses (glibc's `backtrace`,
/// which unwinds through the signal frame into the interrupted code); they are symbolicated here, on the
/// calling thread, which takes a second or more in a large debug binary: for a diagnosis, not a profiler.
///
/// ```swift
/// let main = SampledThread.current                       // on the main thread
/// // later, on another thread:
/// if let frame = ThreadStackSample.programFrame(of: main) {
///     print("blocked in \(frame.name) at \(frame.location ?? "?")")   // "CafeCheckInModel.arrived() at CafeCheckInModel.swift:41"
/// }
/// ```
public enum ThreadStackSample {
    /// The innermost frame of the program's own code on `thread`'s stack now: not the C library's,
    /// Foundation's, Dispatch's, the Swift runtime's or standard library's, nor DeviceSim's time or hook
    /// modules'; demangled, with its file:line when the binary has debug information. Nil when the
    /// thread did not answer within `timeout` (the signal masked, say) or the stack has no such frame.
    public static func programFrame(of thread: SampledThread, timeout: Duration = .seconds(1)) -> (name: String, location: String?)? {
        var addresses = [UnsafeMutableRawPointer?](repeating: nil, count: 128)
        let milliseconds = Int32(clamping: timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        let count = addresses.withUnsafeMutableBufferPointer { buffer in
            devicesim_sample_thread_stack(thread.handle, buffer.baseAddress, Int32(buffer.count), milliseconds)
        }
        guard count > 0 else { return nil }
        let frames: [RichFrame<UInt64>] = addresses.prefix(Int(count)).compactMap { $0 }.map { RichFrame<UInt64>.returnAddress(UInt64(UInt(bitPattern: $0))) }
        #if arch(x86_64)
        let architecture = "x86_64"
        #else
        let architecture = "arm64"
        #endif
        let backtrace = Backtrace(architecture: architecture, frames: frames, images: ImageMap.capture())
        return programFrame(in: backtrace, options: [.showSourceLocations]) ?? programFrame(in: backtrace, options: [])
    }

    private static func programFrame(in backtrace: Backtrace, options: Backtrace.SymbolicationOptions) -> (name: String, location: String?)? {
        guard let symbolicated = backtrace.symbolicated(options: options) else { return nil }
        let names = symbolicated.frames.map { $0.symbol?.rawName ?? "" }
        // Below the signal's own frames: the handler, then the kernel's return trampoline.
        let start = (names.firstIndex(of: "__restore_rt") ?? names.firstIndex(of: "sample_handler") ?? -1) + 1
        for frame in symbolicated.frames.dropFirst(start) {
            guard let symbol = frame.symbol else { continue }
            let raw = symbol.rawName
            if frame.isSwiftThunk || symbol.imageName.hasPrefix("lib") || symbol.imageName.hasPrefix("ld-") || raw.hasPrefix("$ss") || raw.hasPrefix("$sS")
                || raw.hasPrefix("$s13DeviceSimTime") || raw.hasPrefix("$s21DeviceSimRuntimeHooks") || raw.hasPrefix("devicesim_")
                || symbol.name.hasPrefix("thunk for") || symbol.name.hasPrefix("partial apply for thunk")
            {
                continue
            }
            let location = symbol.sourceLocation.map { "\($0.path.split(separator: "/").last.map(String.init) ?? $0.path):\($0.line)" }
            return (symbol.name, location)
        }
        return nil
    }
}
