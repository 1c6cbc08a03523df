import DeviceSimRuntimeHooks
import Foundation
import Testing

/// A thread held in a function of the program's own, as a blocked main thread is.
private final class HeldThread: @unchecked Sendable {
    let release = DispatchSemaphore(value: 0)
    let ready = DispatchSemaphore(value: 0)
    let done = DispatchSemaphore(value: 0)
    private(set) var sampled: SampledThread?   // written before `ready` is signalled

    func start() {
        let thread = Thread { [self] in
            sampled = .current
            ready.signal()
            waitHereUntilReleased()
            done.signal()
        }
        thread.start()
        ready.wait()
    }

    @inline(never)
    func waitHereUntilReleased() {
        release.wait()
    }
}

/// The main-thread watchdog names the function holding the main thread from a sample of its stack.
@Suite struct ThreadStackSampleTests {
    @Test func aSampleNamesTheProgramsFunctionTheThreadIsBlockedIn() throws {
        let held = HeldThread()
        held.start()
        defer {
            held.release.signal()
            held.done.wait()
        }
        let thread = try #require(held.sampled)
        // The thread may not be in the wait yet at the first sample (each takes a symbolication).
        var frame: (name: String, location: String?)?
        for _ in 0..<20 {
            frame = ThreadStackSample.programFrame(of: thread, timeout: .seconds(5))
            guard let answered = frame, !answered.name.contains("waitHereUntilReleased") else { break }
        }
        let found = try #require(frame, "the thread answered the sample")
        #expect(found.name.contains("HeldThread.waitHereUntilReleased()"), "past the C library's and Dispatch's frames: \(found.name)")
        #expect(found.location?.hasPrefix("ThreadStackSampleTests.swift:") == true, "\(found.location ?? "no location")")
    }
}
