import Synchronization

/// An observation's values on their way to the one task that consumes them as an `AsyncStream`:
/// buffered without bound, in order, like `AsyncStream.makeStream(bufferingPolicy: .unbounded)`,
/// without the stream's generic buffer (unspecialised code that cost thousands of instructions a
/// value, a Wi-Fi scan every 30 s at every device of a fleet).
///
/// - A value sent while the consumer waits resumes it at once, from the sending thread; otherwise it
///   waits, after the values sent before it.
/// - The queue ends when the consuming task is cancelled or the consumer (the stream and its
///   iterators) is gone: the termination handler runs first, then a waiting consumer gets nil. Values
///   still buffered and values sent later are dropped, and `next` returns nil from then on.
///
/// ```swift
/// let queue = ObservationQueue<WiFiScan>()
/// let token = wifi.observeScans { queue.send($0) }
/// queue.onTermination { token.cancel() }
/// for await scan in queue.stream() { ... }
/// ```
final class ObservationQueue<Value: Sendable>: Sendable {
    private struct State {
        var buffered: [Value] = []
        var waiting: UnsafeContinuation<Value?, Never>?
        var hasEnded = false
        var onTermination: (@Sendable () -> Void)?
    }

    private let state = Mutex(State())

    /// An empty queue.
    init() {}

    /// Calls `handler` once, when the queue ends (at once if it has ended already).
    func onTermination(_ handler: @escaping @Sendable () -> Void) {
        let hasEnded = state.withLock { state in
            if !state.hasEnded { state.onTermination = handler }
            return state.hasEnded
        }
        if hasEnded { handler() }
    }

    /// Hands `value` to the waiting consumer, or keeps it for the consumer's next call; dropped once
    /// the queue has ended.
    func send(_ value: Value) {
        let waiting = state.withLock { state -> UnsafeContinuation<Value?, Never>? in
            guard !state.hasEnded else { return nil }
            guard let waiting = state.waiting else {
                state.buffered.append(value)
                return nil
            }
            state.waiting = nil
            return waiting
        }
        waiting?.resume(returning: value)
    }

    /// The oldest value not taken yet, waiting for one if there is none; nil once the queue has ended.
    func next() async -> Value? {
        await withUnsafeContinuation { (continuation: UnsafeContinuation<Value?, Never>) in
            let ready = state.withLock { state -> Value?? in
                if !state.buffered.isEmpty { return .some(state.buffered.removeFirst()) }
                if state.hasEnded { return .some(nil) }
                state.waiting = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// Ends the queue (see the type's summary); later calls do nothing.
    func end() {
        let (handler, waiting) = state.withLock { state in
            defer {
                state.hasEnded = true
                state.onTermination = nil
                state.waiting = nil
                state.buffered = []
            }
            return (state.onTermination, state.waiting)
        }
        handler?()
        waiting?.resume(returning: nil)
    }

    /// The queue's values as an `AsyncStream` for one consumer; cancelling the consuming task, or
    /// dropping the stream and its iterators, ends the queue.
    func stream() -> AsyncStream<Value> {
        let consumer = Consumer(self)
        return AsyncStream(unfolding: { await consumer.queue.next() }, onCancel: { consumer.queue.end() })
    }

    /// Held by the stream alone: when the stream and its iterators are gone, the queue ends.
    private final class Consumer: Sendable {
        let queue: ObservationQueue

        init(_ queue: ObservationQueue) {
            self.queue = queue
        }

        deinit {
            queue.end()
        }
    }
}
