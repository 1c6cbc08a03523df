import DeviceSimTime
import Testing

/// Repeating events' ticks wait in per-interval FIFO lanes rather than in the heap; events must still
/// run in (instant, order scheduled) order across the heap and every lane.
@Suite struct TickLaneOrderTests {
    /// A random mix of repeating events (several intervals, more than there are lanes, started late
    /// and early), one-shot events at the same instants, and cancellations; the order things run in
    /// must be that of a reference that sorts every scheduled event by (instant, when it was
    /// scheduled).
    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func eventsRunInInstantThenSchedulingOrderAcrossHeapAndLanes(seed: UInt64) throws {
        let scheduler = EventScheduler()
        var random = SeededRandomGenerator(seed: seed)
        var scheduledCount = 0
        /// (instant, scheduling order, label) of every event that ran.
        var ran: [(instant: Int64, order: Int, label: String)] = []
        var timers: [RepeatingEvent] = []
        let intervals: [Duration] = (1...10).map { .milliseconds(250 * $0) }
        func startRepeating(_ label: String) {
            let interval = intervals[Int(random.next() % UInt64(intervals.count))]
            let start = scheduler.now.advanced(by: .milliseconds(Int64(random.next() % 4_000)))
            scheduledCount += 1
            var order = scheduledCount
            timers.append(scheduler.repeating(every: interval, startingAt: start) { tick in
                ran.append((scheduler.now.nanoseconds, order, "\(label)#\(tick)"))
                scheduledCount += 1  // the next tick was queued just before this action ran
                order = scheduledCount
            })
        }
        func scheduleOnce(_ label: String) {
            // At whole quarter seconds: the same instants as the ticks.
            let delay = Duration.milliseconds(250 * Int64(random.next() % 16))
            scheduledCount += 1
            let order = scheduledCount
            scheduler.schedule(after: delay) {
                ran.append((scheduler.now.nanoseconds, order, label))
                if random.nextUnit() < 0.3 { scheduleOnce("\(label)+") }
                if random.nextUnit() < 0.05 { startRepeating("r\(timers.count)") }
                if random.nextUnit() < 0.05, let timer = timers.randomElement(using: &random) { timer.cancel() }
            }
        }
        for index in 0..<12 { startRepeating("r\(index)") }
        for index in 0..<200 { scheduleOnce("o\(index)") }
        try scheduler.run(for: .seconds(60))
        #expect(ran.count > 500)
        let expected = ran.sorted { ($0.instant, $0.order) < ($1.instant, $1.order) }
        #expect(ran.map(\.label) == expected.map(\.label))
    }
}
