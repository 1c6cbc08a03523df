@testable import DeviceSimTime
import Testing

#if canImport(Glibc)
import Glibc

/// glibc's `malloc_usable_size` (declared in <malloc.h>, which the Glibc module does not bring in).
@_silgen_name("malloc_usable_size")
private func mallocUsableSize(_ pointer: UnsafeMutableRawPointer?) -> Int
#endif

/// The kinds of repeating event (a closure, a closure with an unretained target, one whose target
/// names what its tick reads) tick alike, and the limits and a stop end a streak of lane ticks at
/// the very tick they would end a run of separate events.
@Suite struct RepeatingEventKindsTests {
    final class Counter: TickPrefetching {
        var ticks: [Int] = []
        var levelsAsked = 0
        var timer: RepeatingEvent?
        func prefetchTickState(level: Int) { levelsAsked += 1 }
    }

    final class PlainCounter {
        var ticks: [Int] = []
    }

    /// One event of each kind, every second: a closure (calling `tick`), one with an unretained target
    /// (`plain`), one whose target names what its tick reads (`prefetching`); each target keeps its ticks.
    func oneEventOfEachKind(
        on scheduler: EventScheduler, tick: @escaping (Int) -> Void = { _ in }, plain: PlainCounter, prefetching: Counter
    ) -> [RepeatingEvent] {
        [
            scheduler.repeating(every: .seconds(1)) { tick($0) },
            scheduler.repeating(every: .seconds(1), calling: plain) { $0.ticks.append($1) },
            scheduler.repeating(every: .seconds(1), calling: prefetching) { $0.ticks.append($1) },
        ]
    }

    @Test func everyKindPassesItsTickNumbersAndHoldsItsTargetUnretained() throws {
        let scheduler = EventScheduler()
        var closureTicks: [Int] = []
        var plain: PlainCounter? = PlainCounter()
        weak let weakPlain = plain
        let prefetching = Counter()
        let events = oneEventOfEachKind(on: scheduler, tick: { closureTicks.append($0) }, plain: plain!, prefetching: prefetching)
        try scheduler.run(for: .seconds(4))
        #expect(closureTicks == [0, 1, 2, 3])
        #expect(plain?.ticks == [0, 1, 2, 3])
        #expect(prefetching.ticks == [0, 1, 2, 3])
        for event in events { event.cancel() }
        try scheduler.run(for: .seconds(2))
        #expect(closureTicks.count == 4 && plain?.ticks.count == 4 && prefetching.ticks.count == 4)
        // The (cancelled) event still exists and does not keep its target alive.
        plain = nil
        #expect(weakPlain == nil)
        withExtendedLifetime(events) {}
    }

    #if canImport(Glibc)
    @Test func theBytesPrefetchedCoverEveryKindOfEvent() {
        let scheduler = EventScheduler()
        let plain = PlainCounter()
        let prefetching = Counter()
        let events = oneEventOfEachKind(on: scheduler, plain: plain, prefetching: prefetching)
        defer { for event in events { event.cancel() } }
        for event in events {
            let usable = mallocUsableSize(UnsafeMutableRawPointer(Unmanaged.passUnretained(event).toOpaque()))
            #expect(usable >= RepeatingEvent.instanceBytes, "\(type(of: event)) is smaller than the bytes prefetched: \(usable)")
            #expect(usable < RepeatingEvent.instanceBytes + 16, "\(type(of: event)) has grown past the bytes prefetched: \(usable) usable")
        }
    }
    #endif

    @Test func aStopInsideAStreakOfTicksEndsTheRunBeforeTheNextTick() {
        let scheduler = EventScheduler()
        let counters = (0..<12).map { _ in Counter() }
        var ran = 0
        for (index, counter) in counters.enumerated() {
            counter.timer = scheduler.repeating(every: .seconds(1), calling: counter) { counter, tick in
                ran += 1
                counter.ticks.append(tick)
                if tick == 2, index == 7 { scheduler.stop(because: "the eighth device gave up") }
            }
        }
        #expect(throws: SchedulerError.stopped(reason: "the eighth device gave up", at: VirtualInstant(offset: .seconds(3)))) {
            try scheduler.run(for: .seconds(10))
        }
        #expect(ran == 2 * 12 + 8)
        #expect(scheduler.eventCount == 2 * 12 + 8)
    }

    @Test func theLimitsEndAStreakOfTicksAtTheSameTickAsSeparateEvents() {
        var limits = RunLimits(maximumVirtualTime: nil, maximumEvents: nil)
        limits.maximumEventsAtOneInstant = 20
        let wall = EventScheduler(limits: limits)
        let counters = (0..<25).map { _ in Counter() }
        for counter in counters {
            counter.timer = wall.repeating(every: .seconds(1), calling: counter) { counter, tick in counter.ticks.append(tick) }
        }
        #expect(throws: SchedulerError.instantLimitExceeded(limit: 20, at: VirtualInstant(offset: .seconds(1)))) {
            try wall.run(for: .seconds(10))
        }
        #expect(wall.eventCount == 20)

        let bounded = EventScheduler(limits: RunLimits(maximumVirtualTime: nil, maximumEvents: 57))
        let more = (0..<25).map { _ in Counter() }
        for counter in more {
            counter.timer = bounded.repeating(every: .seconds(1), calling: counter) { counter, tick in counter.ticks.append(tick) }
        }
        #expect(throws: SchedulerError.eventLimitExceeded(limit: 57, at: VirtualInstant(offset: .seconds(3)))) {
            try bounded.run(for: .seconds(10))
        }
        #expect(bounded.eventCount == 57)
        #expect(more[6].ticks == [0, 1, 2] && more[7].ticks == [0, 1])
    }
}
