import DeviceSim
import DeviceSimTesting
import Synchronization
import Testing

/// A flow as app code writes it: a location uploader that starts a `Task {}` per batch (fire and
/// forget), each waiting 2 s of virtual time for the "upload", with a deadline of 5 s raced against it.
final class BatchUploader: @unchecked Sendable {
    let clock: VirtualClock
    private let log = Mutex<[String]>([])
    var entries: [String] { log.withLock { $0 } }

    init(clock: VirtualClock) {
        self.clock = clock
    }

    func run(batches: Int) async throws {
        for batch in 1...batches {
            try await clock.sleep(for: .seconds(10))
            Task {
                try await clock.sleep(for: .seconds(2))
                log.withLock { $0.append("batch \(batch) sent @\(clock.now)") }
            }
        }
    }
}

/// Lines appended from any task.
final class LineLog: Sendable {
    private let stored = Mutex<[String]>([])
    func append(_ line: String) { stored.withLock { $0.append(line) } }
    var lines: [String] { stored.withLock { $0 } }
}

@Suite struct TasksInsideFlowsTests {
    @Test func aTaskStartedInsideAFlowRunsInTheSameAdvance() throws {
        let simulation = TestSimulation()
        let uploader = BatchUploader(clock: simulation.clock)
        simulation.spawn { try await uploader.run(batches: 3) }
        try simulation.advance(by: .seconds(12))
        #expect(uploader.entries == ["batch 1 sent @12.000s"])
        try simulation.advance(by: .seconds(20))
        #expect(uploader.entries == ["batch 1 sent @12.000s", "batch 2 sent @22.000s", "batch 3 sent @32.000s"])
        try simulation.expectNoPendingWork()
    }

    @Test func taskDetachedAndTaskGroupsInsideAFlowStayInTheSimulationToo() throws {
        let simulation = TestSimulation()
        let clock = simulation.clock
        let log = LineLog()
        simulation.spawn {
            Task.detached { try await clock.sleep(for: .seconds(3)); log.append("detached @\(clock.now)") }
            await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await clock.sleep(for: .seconds(1)); log.append("child @\(clock.now)") }
            }
        }
        try simulation.advance(by: .seconds(3))
        #expect(log.lines == ["child @1.000s", "detached @3.000s"])
    }

    @Test func withoutCaptureAnEscapedTaskFailsAtOnceNamingWhereItCameFrom() async throws {
        let simulation = TestSimulation()
        simulation.scheduler.executor.capturesGlobalWork = false
        let clock = simulation.clock
        let inner = Mutex<Task<Void, any Error>?>(nil)
        let spawnLine = #line + 1
        simulation.spawn { inner.withLock { $0 = Task { try await clock.sleep(for: .seconds(1)) } } }
        try await simulation.runCurrent()
        let escaped = try #require(inner.withLock { $0 })
        let origin = SimulationTaskOrigin(fileID: "DeviceSimTestingTests/TasksInsideFlowsTests.swift", line: spawnLine)
        // Where the escaped task ran: another thread, or the main actor once a test in this process has
        // used swift-concurrency-extras' withMainSerialExecutor (its hook then sends every job there).
        let thrown = await #expect(throws: VirtualClockError.self) { try await escaped.value }
        let place = try #require(simulation.scheduler.executor.escapes.first?.place)
        let escape = SimulationEscape(deadline: VirtualInstant(offset: .seconds(1)), origin: origin, place: place)
        #expect(thrown == .sleptOutsideTheSimulation(escape))
        let otherThread = SimulationEscape(deadline: escape.deadline, origin: origin, place: .otherThread)
        #expect(otherThread.description.contains("spawned at DeviceSimTestingTests/TasksInsideFlowsTests.swift:\(spawnLine)"))
        #expect(throws: TestSimulationError.workEscapedTheSimulation([escape])) { try simulation.advance(by: .seconds(1)) }
    }

    @Test func deviceSpawnIsTheTaskOfAppCode() throws {
        let simulation = TestSimulation()
        let walker = simulation.addDevice("walker", at: GeoCoordinate(latitude: 52.5145, longitude: 13.3501))
        let device = walker.device
        let clock = device.clock
        let spawnLine = #line + 1
        let upload = device.spawn { try await clock.sleep(for: .seconds(30)) }
        try simulation.advance(by: .seconds(10))
        let origin = SimulationTaskOrigin(fileID: "DeviceSimTestingTests/TasksInsideFlowsTests.swift", line: spawnLine)
        #expect(simulation.pendingWork == [.sleep(simulation.scheduler.pendingSleeps[0]), .task(origin)])
        #expect(simulation.scheduler.pendingSleeps.map(\.origin) == [origin])
        upload.cancel()
        try simulation.runCurrent()
        try simulation.expectNoPendingWork()
        #expect(simulation.now == VirtualInstant(offset: .seconds(10)))
    }
}
