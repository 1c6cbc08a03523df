import DeviceSimTime
import Testing

/// A wall of events at one instant, and a driver that finds it cannot go on, stop a run with a clear
/// error however far the event bound is (issue 37).
@Suite struct EventWallTests {
    @Test func eventsThatNeverLetTimeAdvanceTripTheInstantBound() {
        // (The event bound keeps the test finite should the instant bound ever fail to trip.)
        var limits = RunLimits(maximumVirtualTime: nil, maximumEvents: 10_000)
        limits.maximumEventsAtOneInstant = 500
        let scheduler = EventScheduler(limits: limits)
        func again() { scheduler.schedule(after: .zero) { again() } }
        scheduler.schedule(after: .seconds(2)) { again() }
        #expect(throws: SchedulerError.instantLimitExceeded(limit: 500, at: VirtualInstant(offset: .seconds(2)))) {
            try scheduler.run(for: .seconds(60))
        }
        #expect(scheduler.eventCount == 500)
    }

    @Test func eventsSpreadOverTimeDoNotTripIt() throws {
        var limits = RunLimits(maximumVirtualTime: nil, maximumEvents: nil)
        limits.maximumEventsAtOneInstant = 500
        let scheduler = EventScheduler(limits: limits)
        var count = 0
        for _ in 0..<400 { scheduler.schedule(after: .seconds(1)) { count += 1 } }
        for _ in 0..<400 { scheduler.schedule(after: .seconds(2)) { count += 1 } }
        try scheduler.run(for: .seconds(3))
        #expect(count == 800)
    }

    @Test func aStopRequestEndsTheRunBeforeTheNextEventWithItsReason() {
        let scheduler = EventScheduler()
        var ran = 0
        scheduler.schedule(after: .seconds(1)) { ran += 1; scheduler.stop(because: "the log cannot be played") }
        scheduler.schedule(after: .seconds(2)) { ran += 1 }
        do {
            try scheduler.run(for: .seconds(10))
            Issue.record("the run went on")
        } catch {
            #expect(error == .stopped(reason: "the log cannot be played", at: VirtualInstant(offset: .seconds(1))))
            #expect(error.description == "the run stopped at virtual time 1.000s: the log cannot be played")
        }
        #expect(ran == 1)
    }
}
