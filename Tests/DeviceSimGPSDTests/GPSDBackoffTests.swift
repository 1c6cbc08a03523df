import DeviceSimGPSD
import Testing

/// The waits between connections to gpsd.
@Suite struct GPSDBackoffTests {
    @Test func whileGpsdCannotBeReachedTheWaitDoublesToFourSeconds() {
        var backoff = GPSDBackoff()
        let waits = (0..<7).map { _ in backoff.delay(after: .couldNotConnect) }
        #expect(waits == [.milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(4), .seconds(4)])
    }

    @Test func aConnectionThatEndsDoesNotStartTheWaitOver() {
        var backoff = GPSDBackoff()
        let waits = [GPSDBackoff.Ending.couldNotConnect, .closed, .closed, .couldNotConnect].map { backoff.delay(after: $0) }
        #expect(waits == [.milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2)])
    }

    @Test func whileGpsdSendsWhatCannotBeUsedTheWaitGrowsToThirtySeconds() {
        var backoff = GPSDBackoff()
        let waits = (0..<9).map { _ in backoff.delay(after: .unusableInput) }
        #expect(waits == [.milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(8), .seconds(16), .seconds(30), .seconds(30)])
        #expect(backoff.delay(after: .couldNotConnect) == .seconds(4), "gpsd gone: back to the shorter cap")
    }

    @Test func aHealthyConnectionStartsTheWaitOver() {
        var backoff = GPSDBackoff()
        for _ in 0..<5 { _ = backoff.delay(after: .closed) }
        backoff.reset()
        #expect(backoff.delay(after: .closed) == GPSDBackoff.initial)
    }
}
