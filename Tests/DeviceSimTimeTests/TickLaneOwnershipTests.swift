import DeviceSimTime
import Dispatch
import Synchronization
import Testing

/// A lane hands its reference to a repeating event from one tick to the next (no retain or release
/// per tick), and a drain returns without locking when nothing was queued: what that must keep.
@Suite struct TickLaneOwnershipTests {
    final class Marker {
        let name: String
        init(_ name: String) { self.name = name }
    }

    /// An action that cancels its own event and runs the scheduler on, inside itself, drops the
    /// event's next tick: the event (and the action's captures) must stay alive until the action
    /// returns, then go.
    @Test func anActionThatCancelsItsEventAndRunsOnKeepsItUntilItReturns() throws {
        let scheduler = EventScheduler()
        weak var weakEvent: RepeatingEvent?
        weak var weakMarker: Marker?
        var ticks: [Int] = []
        var readAfterInnerRun: [String] = []
        do {
            let marker = Marker("kept")
            weakMarker = marker
            weakEvent = scheduler.repeating(every: .seconds(1)) { tick in
                ticks.append(tick)
                weakEvent?.cancel()
                try? scheduler.run(for: .seconds(3))  // its next tick comes to the head, cancelled, and is dropped
                readAfterInnerRun.append(marker.name)
            }
        }
        #expect(weakEvent != nil, "the lane holds the event")
        try scheduler.run(for: .seconds(10))
        #expect(ticks == [0])
        #expect(readAfterInnerRun == ["kept"])
        #expect(weakEvent == nil, "let go once its tick returned")
        #expect(weakMarker == nil)
    }

    /// Events that stop on their own (cancelled between ticks) are let go when their tick comes up,
    /// and the others run on, each tick at its instant.
    @Test func cancelledEventsAreLetGoAndTheOthersTickOn() throws {
        let scheduler = EventScheduler()
        var ran: [String] = []
        weak var first: RepeatingEvent?
        let second: RepeatingEvent
        do {
            first = scheduler.repeating(every: .seconds(1)) { tick in ran.append("a\(tick)") }
            second = scheduler.repeating(every: .seconds(1)) { tick in ran.append("b\(tick)") }
        }
        scheduler.schedule(after: .milliseconds(2_500)) { first?.cancel() }
        try scheduler.run(for: .seconds(4))
        #expect(ran == ["a0", "b0", "a1", "b1", "b2", "b3"])
        #expect(first == nil)
        second.cancel()
    }

    /// A closure submitted from another thread while a handoff is announced runs before virtual time
    /// moves on: a drain that finds nothing queued still waits for it.
    @Test func aDrainWaitsForAnAnnouncedHandoff() throws {
        let scheduler = EventScheduler()
        let executor = scheduler.executor
        let log = Mutex<[String]>([])
        scheduler.schedule(after: .seconds(1)) {
            let handoff = executor.beginHandoff("test work")
            DispatchQueue.global().async {
                executor.submit {
                    executor.endHandoff(handoff)
                    log.withLock { $0.append("handed off") }
                }
            }
        }
        scheduler.schedule(after: .seconds(2)) { log.withLock { $0.append("two seconds") } }
        try scheduler.run(for: .seconds(3))
        #expect(log.withLock { $0 } == ["handed off", "two seconds"])
        #expect(executor.takeAbandonedHandoffs().isEmpty)
        #expect(!executor.hasPendingHandoffs)
    }
}
