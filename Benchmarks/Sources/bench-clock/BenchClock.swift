// Our virtual clock against swift-clocks' TestClock, side by side, on the same work:
//   1. a task looping `try await clock.sleep(for: .seconds(1))` through 24 virtual hours;
//   2. two tasks sleeping 2 s and 3 s, 60 s advanced in 1 s steps, repeated: how many distinct event orders;
//   3. a debounce (500 ms of quiet) over a burst of inputs, repeated: how many distinct outputs;
//   4. a timeout race (work 2 s against a 5 s timeout, then 9 s against 3 s), repeated.
//   swift run -c release --package-path Benchmarks bench-clock [REPEATS] [STEPWISE_HOURS]
import Clocks
import ConcurrencyExtras
import DeviceSim
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

final class Log: Sendable {
    private let entries = Mutex<[String]>([])
    func append(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
    var count: Int { entries.withLock { $0.count } }
}

/// CPU seconds (user and system, every thread) the process has used so far: TestClock's work is spread
/// over the cooperative pool's threads, so wall time alone says little on a busy machine.
func cpuSeconds() -> Double {
    var usage = rusage()
    #if canImport(Glibc)
    getrusage(RUSAGE_SELF.rawValue, &usage)
    #else
    getrusage(RUSAGE_SELF, &usage)
    #endif
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = ContinuousClock.now
    try body()
    return (ContinuousClock.now - start).inSeconds
}

func seconds(isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Void) async rethrows -> Double {
    let start = ContinuousClock.now
    try await body()
    return (ContinuousClock.now - start).inSeconds
}

// MARK: The work, written once against `any Clock<Duration>`.

/// How the work starts an unstructured task: on the default executor for TestClock; on the
/// simulation's executor for ours (`Task {}` does not inherit an executor preference, so simulated
/// code starts its tasks there, as `EventScheduler.spawn` does).
typealias TaskStarter = @Sendable (@escaping @Sendable () async -> Void) -> Task<Void, Never>

let onDefaultExecutor: TaskStarter = { body in Task { await body() } }

func onSimulation(_ executor: SimulationExecutor) -> TaskStarter {
    { body in Task(executorPreference: executor) { await body() } }
}

func tickLoop(_ clock: any Clock<Duration>, ticks: Int, log: Log) async {
    for index in 0..<ticks {
        do { try await clock.sleep(for: .seconds(1)) } catch { return }
        if index % 3_600 == 3_599 { log.append("hour") }
        tickCount.add(1, ordering: .relaxed)
    }
}

let tickCount = Atomic<Int>(0)

func twoSleepers(_ clock: any Clock<Duration>, log: Log, start: TaskStarter) -> [Task<Void, Never>] {
    [(2, "two"), (3, "three")].map { period, name in
        start {
            for _ in 0..<(60 / period) {
                do { try await clock.sleep(for: .seconds(period)) } catch { return }
                log.append(name)
            }
        }
    }
}

/// Emits an input once no other input came for 500 ms.
func debounce(_ clock: any Clock<Duration>, inputs: AsyncStream<Int>, log: Log, start: TaskStarter) async {
    await withTaskGroup(of: Void.self) { group in
        let pending = Mutex<Task<Void, Never>?>(nil)
        for await value in inputs {
            pending.withLock { $0?.cancel() }
            let task = start {
                do { try await clock.sleep(for: .milliseconds(500)) } catch { return }
                log.append("emit \(value)")
            }
            pending.withLock { $0 = task }
        }
        await pending.withLock { $0 }?.value
        _ = group
    }
}

func race(_ clock: any Clock<Duration>, work: Duration, timeout: Duration) async -> String {
    await withTaskGroup(of: String.self) { group in
        group.addTask { (try? await clock.sleep(for: work)).map { "work" } ?? "cancelled" }
        group.addTask { (try? await clock.sleep(for: timeout)).map { "timeout" } ?? "cancelled" }
        let first = await group.next()!
        group.cancelAll()
        return first
    }
}

// MARK: Ours: the simulation's executor and scheduler.

func oursDay() throws -> (Double, Int) {
    tickCount.store(0, ordering: .relaxed)
    let scheduler = EventScheduler()
    let clock = VirtualClock(scheduler)
    let log = Log()
    let time = try seconds {
        scheduler.spawn { await tickLoop(clock, ticks: 86_400, log: log) }
        try scheduler.run(for: .seconds(86_400))
    }
    return (time, tickCount.load(ordering: .relaxed))
}

func oursOrder() throws -> [String] {
    let scheduler = EventScheduler()
    let clock = VirtualClock(scheduler)
    let log = Log()
    let start = onSimulation(scheduler.executor)
    scheduler.spawn { _ = twoSleepers(clock, log: log, start: start) }
    for _ in 0..<60 { try scheduler.run(for: .seconds(1)) }
    return log.all
}

func oursDebounce() throws -> [String] {
    let scheduler = EventScheduler()
    let clock = VirtualClock(scheduler)
    let log = Log()
    let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
    let start = onSimulation(scheduler.executor)
    scheduler.spawn { await debounce(clock, inputs: stream, log: log, start: start) }
    for (index, at) in [0, 100, 200, 1_000, 1_300, 2_500].enumerated() {
        scheduler.schedule(after: .milliseconds(at)) { continuation.yield(index) }
    }
    scheduler.schedule(after: .seconds(4)) { continuation.finish() }
    try scheduler.run(for: .seconds(5))
    return log.all
}

func oursRace() throws -> [String] {
    let scheduler = EventScheduler()
    let clock = VirtualClock(scheduler)
    let log = Log()
    scheduler.spawn {
        log.append(await race(clock, work: .seconds(2), timeout: .seconds(5)))
        log.append(await race(clock, work: .seconds(9), timeout: .seconds(3)))
    }
    try scheduler.run(for: .seconds(20))
    return log.all
}

// MARK: swift-clocks' TestClock on the default executor.

func testClockDay(stepwiseHours: Int?) async -> (Double, Int) {
    tickCount.store(0, ordering: .relaxed)
    let clock = TestClock()
    let log = Log()
    let time = await seconds {
        let task = Task { await tickLoop(clock, ticks: 86_400, log: log) }
        if let hours = stepwiseHours {
            for _ in 0..<(hours * 3_600) { await clock.advance(by: .seconds(1)) }
        } else {
            await clock.advance(by: .seconds(86_400))
        }
        task.cancel()
    }
    return (time, tickCount.load(ordering: .relaxed))
}

func testClockOrder() async -> [String] {
    let clock = TestClock()
    let log = Log()
    let tasks = twoSleepers(clock, log: log, start: onDefaultExecutor)
    for _ in 0..<60 { await clock.advance(by: .seconds(1)) }
    for task in tasks { task.cancel() }
    return log.all
}

func testClockDebounce() async -> [String] {
    let clock = TestClock()
    let log = Log()
    let (stream, continuation) = AsyncStream.makeStream(of: Int.self)
    let task = Task { await debounce(clock, inputs: stream, log: log, start: onDefaultExecutor) }
    var now = 0
    for (index, at) in [0, 100, 200, 1_000, 1_300, 2_500].enumerated() {
        await clock.advance(by: .milliseconds(at - now))
        now = at
        continuation.yield(index)
    }
    await clock.advance(by: .milliseconds(4_000 - now))
    continuation.finish()
    await clock.advance(by: .seconds(1))
    task.cancel()
    return log.all
}

func testClockRace() async -> [String] {
    let clock = TestClock()
    let log = Log()
    let task = Task {
        log.append(await race(clock, work: .seconds(2), timeout: .seconds(5)))
        log.append(await race(clock, work: .seconds(9), timeout: .seconds(3)))
    }
    for _ in 0..<20 { await clock.advance(by: .seconds(1)) }
    task.cancel()
    return log.all
}

func distinct(_ runs: [[String]]) -> Int { Set(runs.map { $0.joined(separator: ",") }).count }

@main
struct BenchClock {
    static func main() async throws {
        let arguments = CommandLine.arguments.dropFirst()
        let repeats = arguments.first.flatMap(Int.init) ?? 1_000
        let stepwiseHours = arguments.dropFirst().first.flatMap(Int.init) ?? 24

        print("1. a 1 Hz sleep loop through 24 virtual hours (86,400 ticks expected)")
        var cpuStart = cpuSeconds()
        let (ours, oursTicks) = try oursDay()
        let oursCPU = cpuSeconds() - cpuStart
        print(String(format: "   DeviceSim VirtualClock, one run(for: 24h):        %8.3f s, %d ticks, %.3f s CPU", ours, oursTicks, oursCPU))
        let (oneAdvance, oneTicks) = await testClockDay(stepwiseHours: nil)
        print(String(format: "   TestClock, one advance(by: 24h):                  %8.3f s, %d ticks", oneAdvance, oneTicks))
        cpuStart = cpuSeconds()
        let (stepwise, stepTicks) = await testClockDay(stepwiseHours: stepwiseHours)
        let stepwiseCPU = cpuSeconds() - cpuStart
        print(String(format: "   TestClock, advance(by: 1s) x %6d:              %8.3f s, %d ticks, %.3f s CPU", stepwiseHours * 3_600, stepwise, stepTicks, stepwiseCPU))
        let stepwiseDay = stepwise * 24 / Double(stepwiseHours)
        print(String(format: "   ratio: ours is %.0fx faster than TestClock stepwise (per day), %.0fx than its one advance", stepwiseDay / ours, oneAdvance / ours))
        print(String(format: "   CPU ratio: ours uses %.0fx less CPU than TestClock stepwise (per day)", stepwiseCPU * 24 / Double(stepwiseHours) / oursCPU))

        print("2. two tasks sleeping 2 s and 3 s, 60 s in 1 s steps, \(repeats) runs: distinct event orders")
        var oursRuns: [[String]] = [], theirRuns: [[String]] = []
        let oursOrderTime = try seconds { for _ in 0..<repeats { oursRuns.append(try oursOrder()) } }
        let theirOrderTime = await seconds { for _ in 0..<repeats { theirRuns.append(await testClockOrder()) } }
        print(String(format: "   DeviceSim: %d distinct in %.3f s;  TestClock: %d distinct in %.3f s", distinct(oursRuns), oursOrderTime, distinct(theirRuns), theirOrderTime))

        print("3. debounce (500 ms) over 6 inputs, \(repeats) runs: distinct outputs")
        oursRuns = []; theirRuns = []
        let oursDebounceTime = try seconds { for _ in 0..<repeats { oursRuns.append(try oursDebounce()) } }
        let theirDebounceTime = await seconds { for _ in 0..<repeats { theirRuns.append(await testClockDebounce()) } }
        print(String(format: "   DeviceSim: %d distinct %@ in %.3f s;  TestClock: %d distinct in %.3f s", distinct(oursRuns), oursRuns[0].description, oursDebounceTime, distinct(theirRuns), theirDebounceTime))

        print("4. timeout race, \(repeats) runs: distinct outcomes")
        oursRuns = []; theirRuns = []
        let oursRaceTime = try seconds { for _ in 0..<repeats { oursRuns.append(try oursRace()) } }
        let theirRaceTime = await seconds { for _ in 0..<repeats { theirRuns.append(await testClockRace()) } }
        print(String(format: "   DeviceSim: %d distinct %@ in %.3f s;  TestClock: %d distinct in %.3f s", distinct(oursRuns), oursRuns[0].description, oursRaceTime, distinct(theirRuns), theirRaceTime))
    }
}
