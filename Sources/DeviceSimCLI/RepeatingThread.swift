import Foundation
import Synchronization

/// Runs `action` on a thread of its own every `interval` (first at once) until stopped: the live
/// status line's clock, independent of the simulation's events.
final class RepeatingThread: Sendable {
    private let name: String
    private let interval: Duration
    private let action: @Sendable () -> Void
    private let stopping = Atomic<Bool>(false)
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    init(name: String, every interval: Duration, action: @escaping @Sendable () -> Void) {
        self.name = name
        self.interval = interval
        self.action = action
    }

    func start() {
        let thread = Thread { [self] in
            while !stopping.load(ordering: .acquiring) {
                action()
                _ = wake.wait(timeout: .now() + .nanoseconds(Int(interval.components.seconds) * 1_000_000_000 + Int(interval.components.attoseconds / 1_000_000_000)))
            }
            finished.signal()
        }
        thread.name = name
        thread.start()
    }

    /// Stops the thread and waits for its last run to end.
    func stop() {
        stopping.store(true, ordering: .releasing)
        wake.signal()
        finished.wait()
    }
}

/// A count that one thread raises and another reads.
final class EventCounter: Sendable {
    private let count = Atomic<Int>(0)

    var value: Int { count.load(ordering: .relaxed) }

    func increment() { count.add(1, ordering: .relaxed) }
}
