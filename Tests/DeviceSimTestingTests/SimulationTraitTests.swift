import DeviceSim
import DeviceSimTesting
import Testing
import XCTest

/// App code as plain Swift: a `@MainActor` view model with a `Task {}` and an injected clock.
@MainActor final class ToastModel {
    private(set) var toast: String?
    private let clock: any Clock<Duration>
    private var hiding: Task<Void, Never>?

    init(clock: any Clock<Duration>) {
        self.clock = clock
    }

    func show(_ text: String) {
        toast = text
        hiding?.cancel()
        hiding = Task {
            do { try await clock.sleep(for: .seconds(4)) } catch { return }
            toast = nil
        }
    }
}

/// App code as plain Swift: an actor whose `Task {}` retries every 10 s until it succeeds.
actor RetryingSender {
    private(set) var attempts = 0
    private let clock: any Clock<Duration>
    private let succeedsOnAttempt: Int

    init(clock: any Clock<Duration>, succeedsOnAttempt: Int) {
        self.clock = clock
        self.succeedsOnAttempt = succeedsOnAttempt
    }

    func start() {
        Task {
            while !attempt() {
                try await clock.sleep(for: .seconds(10))
            }
        }
    }

    private func attempt() -> Bool {
        attempts += 1
        return attempts >= succeedsOnAttempt
    }
}

@Suite struct SimulationTraitTests {
    @MainActor @Test(.simulation) func aMainActorViewModelUnderTheTrait() async throws {
        let model = ToastModel(clock: try TestSimulation.current.clock)
        model.show("Saved")
        try await TestSimulation.current.advance(by: .seconds(3))
        model.show("Saved again")                          // restarts the 4 s
        try await TestSimulation.current.advance(by: .seconds(3.999))
        #expect(model.toast == "Saved again")
        try await TestSimulation.current.advance(by: .milliseconds(1))
        #expect(model.toast == nil)
    }

    @Test(.simulation) func anActorWithATaskUnderTheTrait() async throws {
        let simulation = try TestSimulation.current
        let sender = RetryingSender(clock: simulation.clock, succeedsOnAttempt: 3)
        try await simulation.run { await sender.start() }
        try await simulation.advance(by: .seconds(19))
        #expect(await sender.attempts == 2)
        try await simulation.advance(by: .seconds(1))
        #expect(await sender.attempts == 3)
    }

    @Test func theTraitFailsATestThatLeavesWorkPending() async throws {
        let trait: SimulationTrait = .simulation
        let test = try #require(Test.current)
        await #expect(throws: TestSimulationError.self) {
            try await trait.provideScope(for: test, testCase: nil) {
                let simulation = try TestSimulation.current
                let clock = simulation.clock
                simulation.spawn { try await clock.sleep(for: .seconds(60)) }
                try await simulation.advance(by: .seconds(1))
            }
        }
    }

    @Test func theTraitCanLeaveWorkPendingWhenAskedTo() async throws {
        let trait: SimulationTrait = .simulation(checksPendingWork: false)
        let test = try #require(Test.current)
        try await trait.provideScope(for: test, testCase: nil) {
            let simulation = try TestSimulation.current
            let clock = simulation.clock
            simulation.spawn { try await clock.sleep(for: .seconds(60)) }
            try await simulation.advance(by: .seconds(1))
        }
    }

    @Test(.simulation, arguments: 1...4) func eachCaseOfAParameterizedTestGetsItsOwnSimulation(seconds: Int) throws {
        let simulation = try TestSimulation.current
        #expect(simulation.now == .zero)
        try simulation.advance(by: .seconds(seconds))
    }

    @Test func outsideTheTraitThereIsNoCurrentSimulation() {
        #expect(throws: TestSimulationError.noSimulationInScope) { try TestSimulation.current }
    }
}

/// On a suite, each test gets its own simulation, made from the trait's seed.
@Suite(.simulation(seed: 9)) struct SimulationTraitOnASuiteTests {
    @Test func first() throws {
        let simulation = try TestSimulation.current
        #expect(simulation.seed == 9 && simulation.now == .zero)
        try simulation.advance(by: .seconds(5))
    }

    @Test func second() throws {
        let simulation = try TestSimulation.current
        #expect(simulation.seed == 9 && simulation.now == .zero)
        try simulation.advance(by: .seconds(7))
    }
}

/// The XCTest equivalent.
final class SimulationTestCaseTests: SimulationTestCase {
    override var seed: UInt64 { 4 }

    @MainActor func testAMainActorViewModel() async throws {
        let model = ToastModel(clock: simulation.clock)
        model.show("Saved")
        try await simulation.advance(by: .seconds(4))
        XCTAssertNil(model.toast)
        XCTAssertEqual(simulation.seed, 4)
        XCTAssertTrue(try TestSimulation.current === simulation)
    }

    func testTearDownFailsWhenWorkIsPending() async throws {
        let clock = simulation.clock
        simulation.spawn { try await clock.sleep(for: .seconds(60)) }
        try await simulation.advance(by: .seconds(1))
        do {
            try await tearDown()                           // what the real tear-down would find
            XCTFail("the tear-down did not report the pending sleep")
        } catch {
            XCTAssertTrue("\(error)".contains("a sleep until 60.000s"), "\(error)")
        }
    }
}
