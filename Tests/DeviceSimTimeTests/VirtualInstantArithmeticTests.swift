import DeviceSimTime
import Testing

/// `VirtualInstant` has the operators of `ContinuousClock.Instant` (issue 45: no `+ Duration`).
@Suite struct VirtualInstantArithmeticTests {
    @Test func addingAndSubtractingADurationMovesTheInstant() {
        let start = VirtualInstant(offset: .seconds(10))
        #expect(start + .milliseconds(1_500) == VirtualInstant(nanoseconds: 11_500_000_000))
        #expect(start - .seconds(4) == VirtualInstant(offset: .seconds(6)))
        #expect(start - .seconds(12) == VirtualInstant(offset: .seconds(-2)))
        var moving = start
        moving += .seconds(5)
        #expect(moving == VirtualInstant(offset: .seconds(15)))
        moving -= .milliseconds(250)
        #expect(moving == VirtualInstant(offset: .milliseconds(14_750)))
    }

    @Test func subtractingInstantsGivesTheSignedDurationBetweenThem() {
        let early = VirtualInstant(offset: .seconds(3))
        let late = VirtualInstant(offset: .seconds(8))
        #expect(late - early == .seconds(5))
        #expect(early - late == .seconds(-5))
        #expect(late - early == early.duration(to: late))
    }

    @Test func theOperatorsAgreeWithTheProtocolsMethodsAndOrder() {
        let instant = VirtualInstant(nanoseconds: 123_456_789)
        let step = Duration.nanoseconds(987)
        #expect(instant + step == instant.advanced(by: step))
        #expect((instant + step) - step == instant)
        #expect(instant < instant + step && instant - step < instant)
        #expect([instant + step, instant, instant - step].sorted() == [instant - step, instant, instant + step])
    }

    /// As with `ContinuousClock.Instant`, the operators work through `Clock` generics.
    @Test func aDeadlineIsWrittenFromTheClocksNow() {
        let scheduler = EventScheduler()
        let clock = VirtualClock(scheduler)
        let deadline = clock.now + .seconds(30)
        #expect(deadline.offset == .seconds(30))
    }
}
