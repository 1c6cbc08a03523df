// DeviceSim tests side by side, in one parallel process, with tests that use swift-concurrency-extras'
// `withMainSerialExecutor` (as every TCA / swift-dependencies suite does). Both set the runtime's
// process-wide global-enqueue hook: each kind must keep working before, during and after the other.
//
// They run in a process of their own (the launcher at the end starts this test binary again, for this
// target only): once `withMainSerialExecutor` has run, it leaves its hook installed for the rest of the
// process whenever it found any hook installed when it started, so every job of every later test goes
// to the main actor, one at a time. That is its behaviour in any process with a hook (DeviceSim's or
// another), and it would slow the whole `swift test` run to a crawl.
import ConcurrencyExtras
import DeviceSim
import DeviceSimTesting
import Foundation
import Synchronization
import Testing

/// Whether this process is the one the launcher started for the mixed tests.
enum MixedProcess {
    static let variable = "DEVICESIM_MIXED_EXECUTOR_PROCESS"
    static let isChild = ProcessInfo.processInfo.environment[variable] == "1"
}

/// Lines appended from any task.
final class Lines: Sendable {
    private let stored = Mutex<[String]>([])
    func append(_ line: String) { stored.withLock { $0.append(line) } }
    var all: [String] { stored.withLock { $0 } }
}

/// App code: starts a `Task {}` per batch (fire and forget), each sending for 2 s of virtual time.
final class BatchSender: Sendable {
    let clock: any Clock<Duration>
    let lines = Lines()

    init(clock: any Clock<Duration>) {
        self.clock = clock
    }

    func run(batches: Int) async throws {
        for batch in 1...batches {
            try await clock.sleep(for: .seconds(10))
            Task {
                try await clock.sleep(for: .seconds(2))
                lines.append("batch \(batch)")
            }
        }
    }
}

/// App code: a `@MainActor` view model that refreshes every 5 s in a `Task {}`.
@MainActor final class RefreshingModel {
    private(set) var refreshes = 0
    private let clock: any Clock<Duration>
    private var task: Task<Void, Never>?

    init(clock: any Clock<Duration>) {
        self.clock = clock
    }

    func start() {
        task = Task {
            while true {
                do { try await clock.sleep(for: .seconds(5)) } catch { return }
                refreshes += 1
            }
        }
    }

    func stop() { task?.cancel() }
}

/// DeviceSim: `Task {}`s of simulated code stay in virtual time, whatever hook the other tests set.
@Suite(.enabled(if: MixedProcess.isChild)) struct DeviceSimBesideMainSerialExecutorTests {
    static func sendBatches() throws -> [String] {
        let simulation = TestSimulation()
        let sender = BatchSender(clock: simulation.clock)
        simulation.spawn { try await sender.run(batches: 3) }
        try simulation.advance(by: .seconds(32))
        try simulation.expectNoPendingWork()
        return sender.lines.all
    }

    @Test(arguments: 0..<12) func tasksStartedBySimulatedCodeStayInVirtualTime(run: Int) throws {
        #expect(try Self.sendBatches() == ["batch 1", "batch 2", "batch 3"])
    }

    @Test(arguments: 0..<4) func anHourOfOneSecondSleeps(run: Int) throws {
        let simulation = TestSimulation(seed: UInt64(run))
        let clock = simulation.clock
        let ticks = LockIsolated(0)
        simulation.spawn {
            for _ in 0..<3_600 {
                try await clock.sleep(for: .seconds(1))
                Task { ticks.withValue { $0 += 1 } }
            }
        }
        try simulation.advance(by: .seconds(3_600))
        #expect(ticks.value == 3_600)
    }

    @Test func aTaskWokenByATestActionStaysInVirtualTime() throws {
        let simulation = TestSimulation()
        let phone = simulation.addDevice("phone", at: GeoCoordinate(latitude: 52.52, longitude: 13.405))
        let clock = simulation.clock
        let lines = Lines()
        let changes = phone.device.connectivityChanges()
        simulation.spawn {
            Task {
                for await state in changes where state == .online {
                    try await clock.sleep(for: .seconds(2))
                    lines.append("uploaded @\(clock.now)")
                }
            }
        }
        phone.setOnline(false)
        try simulation.advance(by: .seconds(10))
        phone.setOnline(true)
        try simulation.advance(by: .seconds(3))
        #expect(lines.all == ["uploaded @12.000s"])
    }

    /// Inside `withMainSerialExecutor` (its hook in the slot, sending every job to the main actor), and
    /// after it (it puts its hook back when it found one): DeviceSim still keeps its tasks in.
    @MainActor @Test func duringAndAfterWithMainSerialExecutor() async throws {
        try await withMainSerialExecutor {
            await Task.yield()                      // the async form, as a @MainActor test uses it
            let during = try Self.sendBatches()
            #expect(during == ["batch 1", "batch 2", "batch 3"])
        }
        let after = try Self.sendBatches()
        #expect(after == ["batch 1", "batch 2", "batch 3"])
    }
}

/// DeviceSim: a `@MainActor` view model advanced from a `@MainActor` test.
@MainActor @Suite(.enabled(if: MixedProcess.isChild)) struct MainActorModelBesideMainSerialExecutorTests {
    @Test(arguments: 0..<8) func refreshesEveryFiveSeconds(run: Int) async throws {
        let simulation = TestSimulation()
        let model = RefreshingModel(clock: simulation.clock)
        model.start()
        try await simulation.advance(by: .seconds(24))
        #expect(model.refreshes == 4)
        try await simulation.advance(by: .seconds(1))
        #expect(model.refreshes == 5)
        model.stop()
        try await simulation.runCurrent()
        try simulation.expectNoPendingWork()
    }

    @Test func insideWithMainSerialExecutor() async throws {
        try await withMainSerialExecutor {
            let simulation = TestSimulation()
            let model = RefreshingModel(clock: simulation.clock)
            model.start()
            try await simulation.advance(by: .seconds(30))
            #expect(model.refreshes == 6)
            model.stop()
            try await simulation.runCurrent()
            try simulation.expectNoPendingWork()
        }
    }
}

/// swift-concurrency-extras' own guarantees (from its test suite): under `withMainSerialExecutor`, child
/// tasks and unstructured tasks run one at a time, in the order they were started, while DeviceSim's
/// hook is installed and DeviceSim tests run beside.
@MainActor @Suite(.enabled(if: MixedProcess.isChild)) struct MainSerialExecutorBesideDeviceSimTests {
    @Test(arguments: 0..<6) func childTasksRunInOrder(run: Int) async {
        let xs = LockIsolated<[Int]>([])
        await withMainSerialExecutor {
            await withTaskGroup(of: Void.self) { group in
                for x in 1...1_000 {
                    group.addTask { xs.withValue { $0.append(x) } }
                }
            }
        }
        #expect(xs.value == Array(1...1_000))
    }

    @Test(arguments: 0..<6) func childTasksThatYieldRunInOrder(run: Int) async {
        let xs = LockIsolated<[Int]>([])
        await withMainSerialExecutor {
            await withTaskGroup(of: Void.self) { group in
                for x in 1...1_000 {
                    group.addTask {
                        if x.isMultiple(of: 2) { await Task.yield() }
                        xs.withValue { $0.append(x) }
                    }
                }
            }
        }
        #expect(xs.value == Array(0...499).map { $0 * 2 + 1 } + Array(1...500).map { $0 * 2 })
    }

    @Test func unstructuredTasksRunInOrder() async {
        await withMainSerialExecutor {
            let xs = LockIsolated<[Int]>([])
            for x in 1...1_000 {
                Task { xs.withValue { $0.append(x) } }
            }
            while xs.value.count < 1_000 { await Task.yield() }
            #expect(xs.value == Array(1...1_000))
        }
    }
}

import CEnqueueHookPlaceholder

@Suite(.enabled(if: MixedProcess.isChild)) struct EnqueueHookPlaceholderTests {
    /// The slot held a hook from the moment the process loaded (DeviceSimTesting's placeholder), so no
    /// `withMainSerialExecutor` call can have found it empty, and none can empty it when it returns.
    @Test func theSlotWasNeverEmpty() {
        #expect(devicesim_enqueue_hook_placeholder_installed() == 1)
    }
}

/// Starts this test binary again for this target only, in a process of its own, and checks that every
/// mixed test ran and passed there.
@Suite(.enabled(if: !MixedProcess.isChild)) struct MixedExecutorProcessTests {
    @Test func theMixedTestsPassInAProcessOfTheirOwn() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["--testing-library", "swift-testing", "--filter", "DeviceSimMainSerialExecutorTests"]
        process.environment = ProcessInfo.processInfo.environment.merging([MixedProcess.variable: "1"]) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let summary = text.split(separator: "\n").last { $0.contains("Test run with") }.map(String.init) ?? "(no summary)"
        #expect(process.terminationStatus == 0, "\(text.suffix(3_000))")
        #expect(summary.contains("Test run with 11 tests in 5 suites passed"), "\(summary)")
    }
}
