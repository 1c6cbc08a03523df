import DeviceSimTime
import Testing

/// The scheduler asks the targets of ticks a few places down a lane what their ticks will read
/// (levels 0 and 1, see `TickPrefetching`), holds the lane's events itself, and lets them go.
@Suite struct TickPrefetchingTests {
    final class Sensor: TickPrefetching {
        let name: Int
        /// What happened to this sensor, in order: "0" and "1" for the levels asked, "tick".
        var log: [String] = []
        var timer: RepeatingEvent?

        init(name: Int) { self.name = name }

        func prefetchTickState(level: Int) { log.append("\(level)") }
        func tick() { log.append("tick") }
    }

    @Test func everyTickButTheLanesFirstIsAskedForBothLevelsFirstAndACancelledOneNoMore() throws {
        let scheduler = EventScheduler()
        let sensors = (0..<6).map(Sensor.init)
        for sensor in sensors {
            sensor.timer = scheduler.repeating(every: .seconds(1), calling: sensor) { sensor, _ in sensor.tick() }
        }
        try scheduler.run(for: .seconds(10))
        for sensor in sensors {
            // Each tick after the first second was asked for level 0, then level 1, since the one before.
            let rounds = sensor.log.split(separator: "tick", omittingEmptySubsequences: false).dropFirst().dropLast()
            #expect(rounds.count == 9)
            #expect(rounds.allSatisfy { $0 == ["0", "1"] }, "sensor \(sensor.name): \(sensor.log)")
        }
        // Level 1 is asked of the third tick after the one running, level 0 of the fifth: so the
        // lane's first three ticks were asked nothing, its fourth and fifth only level 1.
        #expect(sensors[0].log.first == "tick")
        #expect(sensors[1].log.first == "tick")
        #expect(sensors[2].log.first == "tick")
        #expect(sensors[3].log.prefix(2) == ["1", "tick"])
        #expect(sensors[4].log.prefix(2) == ["1", "tick"])
        #expect(sensors[5].log.prefix(3) == ["0", "1", "tick"])

        let cancelled = sensors[3]
        cancelled.timer?.cancel()
        let before = cancelled.log.count
        try scheduler.run(for: .seconds(5))
        #expect(cancelled.log.count == before)
        #expect(sensors[4].log.filter { $0 == "tick" }.count == 15)
    }

    @Test func theLaneLetsGoOfItsEventsWhenTheyAreDroppedAndWhenTheSchedulerGoes() throws {
        weak var dropped: RepeatingEvent?
        weak var pending: RepeatingEvent?
        var scheduler: EventScheduler? = EventScheduler()
        let sensor = Sensor(name: 0)
        do {
            let first = scheduler!.repeating(every: .seconds(1), calling: sensor) { sensor, _ in sensor.tick() }
            let second = scheduler!.repeating(every: .seconds(1), calling: sensor) { sensor, _ in sensor.tick() }
            dropped = first
            pending = second
            try scheduler!.run(for: .seconds(3))
            first.cancel()
            try scheduler!.run(for: .seconds(2))   // its queued tick comes to the head and is dropped
        }
        #expect(dropped == nil)
        #expect(pending != nil)   // its next tick is queued
        scheduler = nil
        #expect(pending == nil)
    }
}
