// The discrete-event scheduler alone: events per second of wall time.
//   1. 5,000,000 one-shot events at seeded random instants over a day, scheduled up front, then run;
//   2. 1,000 repeating timers (periods 1 to 10 s) through an hour: events rescheduling themselves;
//   3. 100,000 async tasks each sleeping 10 times on the virtual clock (jobs through the executor).
//   swift run -c release --package-path Benchmarks bench-scheduler
import DeviceSim
import Foundation

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let clock = ContinuousClock()
    let start = clock.now
    try body()
    let elapsed = start.duration(to: clock.now)
    return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
}

@main
struct BenchScheduler {
    static func main() throws {
        do {
            let scheduler = EventScheduler(limits: .unbounded)
            var random = SeededRandomGenerator(seed: 1)
            var fired = 0
            let count = 5_000_000
            let scheduling = seconds {
                for _ in 0..<count {
                    scheduler.schedule(at: VirtualInstant(nanoseconds: Int64(random.nextUnit() * 86_400e9))) { fired += 1 }
                }
            }
            let running = try seconds { try scheduler.run(for: .seconds(86_400)) }
            precondition(fired == count)
            print(String(format: "one-shot events: scheduled %d in %.3f s (%.1f M/s), ran them in %.3f s (%.1f M/s)",
                         count, scheduling, Double(count) / scheduling / 1e6, running, Double(count) / running / 1e6))
        }
        do {
            let scheduler = EventScheduler(limits: .unbounded)
            var fired = 0
            let timers = (0..<1_000).map { index in scheduler.repeating(every: .milliseconds(1_000 + 9 * index)) { _ in fired += 1 } }
            let running = try seconds { try scheduler.run(for: .seconds(3_600)) }
            print(String(format: "repeating timers: %d events in %.3f s (%.1f M/s)", fired, running, Double(fired) / running / 1e6))
            timers.forEach { $0.cancel() }
        }
        do {
            let scheduler = EventScheduler(limits: .unbounded)
            let clock = VirtualClock(scheduler)
            let tasks = 100_000
            let running = try seconds {
                for index in 0..<tasks {
                    scheduler.spawn {
                        for _ in 0..<10 { try await clock.sleep(for: .milliseconds(100 + index % 900)) }
                    }
                }
                try scheduler.run(for: .seconds(60))
            }
            print(String(format: "async sleepers: %d tasks x 10 sleeps in %.3f s (%.2f M sleeps/s)", tasks, running, Double(tasks * 10) / running / 1e6))
        }
    }
}
