import DeviceSimTime
import Testing

@Suite struct EventSchedulerTests {
    @Test func eventsRunInTimeOrderAndSameInstantEventsInSchedulingOrder() throws {
        let scheduler = EventScheduler()
        var order: [String] = []
        scheduler.schedule(after: .seconds(2)) { order.append("b@2") }
        scheduler.schedule(after: .seconds(1)) { order.append("a@1") }
        scheduler.schedule(after: .seconds(2)) { order.append("c@2") }
        scheduler.schedule(after: .seconds(1)) {
            order.append("d@1")
            scheduler.schedule(after: .zero) { order.append("e@1, scheduled from d") }
        }
        try scheduler.runUntilIdle()
        #expect(order == ["a@1", "d@1", "e@1, scheduled from d", "b@2", "c@2"])
        #expect(scheduler.now == VirtualInstant(offset: .seconds(2)))
    }

    @Test func runUntilStopsAtTheDeadlineAndMovesTheClockThere() throws {
        let scheduler = EventScheduler()
        var ran: [Double] = []
        for second in [1, 5, 10] { scheduler.schedule(after: .seconds(second)) { ran.append(scheduler.now.seconds) } }
        try scheduler.run(until: VirtualInstant(offset: .seconds(5)))
        #expect(ran == [1, 5])
        #expect(scheduler.now.seconds == 5)
        try scheduler.run(for: .seconds(100))
        #expect(ran == [1, 5, 10])
        #expect(scheduler.now.seconds == 105)
        #expect(!scheduler.hasPendingEvents)
    }

    @Test func cancelledEventsDoNotRun() throws {
        let scheduler = EventScheduler()
        var ran = false
        let event = scheduler.schedule(after: .seconds(1)) { ran = true }
        event.cancel()
        event.cancel()
        try scheduler.run(for: .seconds(2))
        #expect(!ran)
    }

    @Test func repeatingEventsTickAtExactMultiplesUntilCancelled() throws {
        let scheduler = EventScheduler()
        var ticks: [Int64] = []
        var repeating: RepeatingEvent?
        repeating = scheduler.repeating(every: .milliseconds(300)) { tick in
            ticks.append(scheduler.now.nanoseconds / 1_000_000)
            if tick == 4 { repeating?.cancel() }
        }
        try scheduler.run(for: .seconds(10))
        #expect(ticks == [300, 600, 900, 1200, 1500])
        #expect(repeating?.isCancelled == true)
    }

    @Test func aRunawayScenarioStopsWithAClearError() {
        let scheduler = EventScheduler(limits: RunLimits(maximumVirtualTime: nil, maximumEvents: 1_000))
        scheduler.repeating(every: .milliseconds(1)) { _ in }
        #expect(throws: SchedulerError.eventLimitExceeded(limit: 1_000, at: VirtualInstant(offset: .milliseconds(1_001)))) {
            try scheduler.run(for: .seconds(60))
        }
        let bounded = EventScheduler(limits: RunLimits(maximumVirtualTime: VirtualInstant(offset: .seconds(10)), maximumEvents: nil))
        bounded.repeating(every: .seconds(1)) { _ in }
        do {
            try bounded.runUntilIdle()
            Issue.record("an endless timer ran to idle")
        } catch {
            #expect(error.description.contains("virtual time limit 10.000s"))
        }
    }

    @Test func seededStreamsAreReproducibleAndIndependent() {
        let root = SeededRandomGenerator(seed: 42)
        var a = root.split("device:alice").split("gps"), b = root.split("device:alice").split("gps")
        var bob = root.split("device:bob").split("gps")
        let first = (0..<5).map { _ in a.next() }
        #expect(first == (0..<5).map { _ in b.next() })
        #expect(first != (0..<5).map { _ in bob.next() })
        var gaussian = root.split("noise")
        let samples = (0..<20_000).map { _ in gaussian.nextGaussian(mean: 3, standardDeviation: 2) }
        let mean = samples.reduce(0, +) / Double(samples.count)
        let variance = samples.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(samples.count)
        #expect(abs(mean - 3) < 0.05)
        #expect(abs(variance.squareRoot() - 2) < 0.05)
        // The same values on every machine: a fixed seed gives fixed numbers.
        var fixed = SeededRandomGenerator(seed: 1)
        let value = fixed.next()
        var again = SeededRandomGenerator(seed: 1)
        #expect(again.next() == value)
    }

    @Test func instantsFormatAndConvert() {
        #expect(VirtualInstant(offset: .milliseconds(12_500)).description == "12.500s")
        #expect(VirtualInstant(offset: .seconds(2)).duration(to: VirtualInstant(offset: .seconds(5))) == .seconds(3))
        #expect(Duration.milliseconds(1_500).inSeconds == 1.5)
    }
}
