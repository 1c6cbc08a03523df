import DeviceSimTime
import Testing

/// Durations written in decimal seconds land on the nanosecond a person reads, however the binary
/// floating-point value behind them falls.
@Suite struct DurationNanosecondsTests {
    @Test func decimalSecondsLandOnTheNanosecondTheyName() {
        // 4.999 is 4.998999999999999666... as a Double: truncating gives 4_998_999_999 ns.
        #expect(Duration.seconds(4.999).wholeNanoseconds == 4_999_000_000)
        #expect(Duration.seconds(0.3).wholeNanoseconds == 300_000_000)
        #expect(Duration.seconds(86_400.1).wholeNanoseconds == 86_400_100_000_000)
        #expect(Duration.milliseconds(4.999).wholeNanoseconds == 4_999_000)
        #expect(Duration.seconds(-4.999).wholeNanoseconds == -4_999_000_000)
        #expect(VirtualInstant(offset: .seconds(4.999)) == VirtualInstant(offset: .milliseconds(4_999)))
        #expect(VirtualInstant.zero.advanced(by: .seconds(0.1)).advanced(by: .seconds(0.2)) == VirtualInstant(offset: .milliseconds(300)))
    }

    @Test func wholeDurationsAreUnchanged() {
        #expect(Duration.milliseconds(4_999).wholeNanoseconds == 4_999_000_000)
        #expect(Duration.nanoseconds(1).wholeNanoseconds == 1)
        #expect(Duration.nanoseconds(-1).wholeNanoseconds == -1)
        #expect(Duration.seconds(400 * 86_400).wholeNanoseconds == 34_560_000_000_000_000)
        #expect(Duration.zero.wholeNanoseconds == 0)
    }

    @Test func subNanosecondAttosecondsRoundToTheNearestNanosecondHalfAwayFromZero() {
        func nanoseconds(_ seconds: Int64, _ attoseconds: Int64) -> Int64 {
            Duration(secondsComponent: seconds, attosecondsComponent: attoseconds).wholeNanoseconds
        }
        #expect(nanoseconds(0, 499_999_999) == 0)
        #expect(nanoseconds(0, 500_000_000) == 1)
        #expect(nanoseconds(0, 1_499_999_999) == 1)
        #expect(nanoseconds(0, 1_500_000_000) == 2)
        #expect(nanoseconds(4, 998_999_999_999_999_666) == 4_999_000_000)
        #expect(nanoseconds(0, 999_999_999_500_000_000) == 1_000_000_000)
        #expect(nanoseconds(0, -499_999_999) == 0)
        #expect(nanoseconds(0, -500_000_000) == -1)
        #expect(nanoseconds(-4, -998_999_999_999_999_666) == -4_999_000_000)
    }
}

@Suite struct DecimalSecondsInTheSchedulerTests {
    @Test func aSleeperDueAtDecimalSecondsRunsWhenTheClockReachesThem() throws {
        let scheduler = EventScheduler()
        let clock = VirtualClock(scheduler)
        let log = EventLog()
        scheduler.spawn {
            try await clock.sleep(until: VirtualInstant(offset: .milliseconds(4_999)))
            log.append("woke @\(clock.now.nanoseconds)")
        }
        try scheduler.run(for: .seconds(4.999))
        #expect(log.all == ["woke @4999000000"])
        #expect(scheduler.now.nanoseconds == 4_999_000_000)
    }
}
