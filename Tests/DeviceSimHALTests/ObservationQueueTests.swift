@testable import DeviceSimHAL
import Synchronization
import Testing

/// `ObservationQueue`'s stream against `AsyncStream.makeStream(bufferingPolicy: .unbounded)`, whose
/// buffering and ending it keeps: each case runs on both and expects the same.
@Suite struct ObservationQueueTests {
    /// A stream of Ints, the way to send into it, and how often its termination handler ran.
    struct Channel: Sendable {
        let name: String
        let stream: AsyncStream<Int>
        let send: @Sendable (Int) -> Void
        let terminations: Counter
    }

    final class Counter: Sendable {
        private let count = Mutex(0)
        func increment() { count.withLock { $0 += 1 } }
        var value: Int { count.withLock { $0 } }
    }

    static func channels() -> [Channel] {
        let streamTerminations = Counter()
        let (stream, continuation) = AsyncStream.makeStream(of: Int.self, bufferingPolicy: .unbounded)
        continuation.onTermination = { _ in streamTerminations.increment() }
        let queueTerminations = Counter()
        let queue = ObservationQueue<Int>()
        queue.onTermination { queueTerminations.increment() }
        return [
            Channel(name: "AsyncStream", stream: stream, send: { continuation.yield($0) }, terminations: streamTerminations),
            Channel(name: "ObservationQueue", stream: queue.stream(), send: { queue.send($0) }, terminations: queueTerminations),
        ]
    }

    @Test func valuesSentBeforeTheConsumerWaitsComeFirstInOrderThenTheOnesItWaitsFor() async {
        for channel in Self.channels() {
            for value in 1...3 { channel.send(value) }
            let consumer = Task {
                var received: [Int] = []
                for await value in channel.stream {
                    received.append(value)
                    if received.count == 5 { break }
                }
                return received
            }
            channel.send(4)
            channel.send(5)
            #expect(await consumer.value == [1, 2, 3, 4, 5], "\(channel.name)")
            #expect(channel.terminations.value == 0, "\(channel.name): the stream is still held")
        }
    }

    @Test func cancellingTheConsumerEndsTheSequenceOnceAndDropsLaterValues() async {
        for channel in Self.channels() {
            let consumer = Task {
                var received: [Int] = []
                for await value in channel.stream { received.append(value) }
                return received
            }
            channel.send(1)
            while channel.terminations.value == 0 {
                consumer.cancel()
                await Task.yield()
            }
            let received = await consumer.value
            #expect(received == [] || received == [1], "\(channel.name)")
            channel.send(2)
            #expect(channel.terminations.value == 1, "\(channel.name)")
            var iterator = channel.stream.makeAsyncIterator()
            #expect(await iterator.next() == nil, "\(channel.name): ended, the later value dropped")
        }
    }

    @Test func aConsumerThatIsGoneEndsTheQueue() async {
        let queue = ObservationQueue<Int>()
        let terminations = Counter()
        queue.onTermination { terminations.increment() }
        do {
            var iterator = queue.stream().makeAsyncIterator()
            queue.send(1)
            #expect(await iterator.next() == 1)
        }
        #expect(terminations.value == 1)
        queue.send(2)                                 // dropped
        #expect(await queue.next() == nil)
        let late = Counter()
        queue.onTermination { late.increment() }      // ended already: called at once
        #expect(late.value == 1)
        #expect(terminations.value == 1)
    }
}
