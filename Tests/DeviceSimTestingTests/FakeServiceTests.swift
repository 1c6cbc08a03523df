import DeviceSim
import DeviceSimTesting
import Testing

@Suite struct FakeServiceTests {
    /// A flow that retries a failed request after 5 s, at most three attempts.
    static func fetchWithRetry(_ service: FakeService<String, Int>, clock: VirtualClock) async -> Int? {
        for attempt in 0..<3 {
            if attempt > 0 { try? await clock.sleep(for: .seconds(5)) }
            if let answer = try? await service.call("q") { return answer }
        }
        return nil
    }

    @Test func answersAfterTheLatencyInVirtualTime() throws {
        let simulation = TestSimulation()
        let service = FakeService<String, Int>(simulation, name: "lookup", latency: .milliseconds(300)) { $0.count }
        let bound = SimulationBound(service, executor: simulation.scheduler.executor)
        simulation.spawn { try await bound.value.call("four") }
        try simulation.advance(by: .milliseconds(299))
        #expect(service.calls.count == 1 && service.calls[0].result == nil)
        try simulation.advance(by: .milliseconds(1))
        #expect(try service.calls[0].result?.get() == 4)
        #expect(service.calls[0].finishedAt == VirtualInstant(offset: .milliseconds(300)))
        #expect(simulation.events(named: "lookup.request").map(\.time) == [.zero])
        #expect(simulation.events(named: "lookup.response").map(\.time) == [VirtualInstant(offset: .milliseconds(300))])
    }

    @Test func failsTheNextRequestsThenRecovers() throws {
        let simulation = TestSimulation()
        let service = FakeService<String, Int>(simulation, name: "lookup", latency: .seconds(1)) { _ in 7 }
        service.failNext(2)
        let bound = SimulationBound(service, executor: simulation.scheduler.executor)
        let clock = simulation.clock
        let box = Box()
        let boundBox = SimulationBound(box, executor: simulation.scheduler.executor)
        simulation.spawn { boundBox.value.answer = await Self.fetchWithRetry(bound.value, clock: clock) }
        try simulation.advance(by: .seconds(60))
        #expect(box.answer == 7)
        // Attempts at 0 s, 6 s (1 s latency + 5 s wait) and 12 s; the third succeeds at 13 s.
        #expect(service.calls.map(\.receivedAt) == [0, 6, 12].map { VirtualInstant(offset: .seconds($0)) })
        #expect(simulation.events(named: "lookup.failed").count == 2)
        #expect(simulation.events(named: "lookup.response").map(\.time) == [VirtualInstant(offset: .seconds(13))])
    }

    @Test func failsRequestsArrivingInAWindow() throws {
        let simulation = TestSimulation()
        let service = FakeService<String, Int>(simulation, latency: .seconds(1)) { _ in 1 }
        service.failures(within: .seconds(10) ... .seconds(20))
        let bound = SimulationBound(service, executor: simulation.scheduler.executor)
        let clock = simulation.clock
        simulation.spawn {
            for _ in 0..<4 {
                _ = try? await bound.value.call("tick")
                try await clock.sleep(for: .seconds(7))
            }
        }
        try simulation.advance(by: .seconds(60))
        // Requests at 0, 8, 16 and 24 s: only the one at 16 s is inside the window.
        let outcomes = service.calls.map { call in (try? call.result?.get()) != nil }
        #expect(service.calls.map(\.receivedAt.offset) == [.seconds(0), .seconds(8), .seconds(16), .seconds(24)])
        #expect(outcomes == [true, true, false, true])
        #expect(simulation.events(named: "tick.request").isEmpty)   // unnamed: nothing in the trace
    }

    private final class Box { var answer: Int? }
}

@Suite struct SpawnedTaskTests {
    @Test func aSynchronousTestReadsWhetherTheTaskFinishedAndWhatItReturned() throws {
        let simulation = TestSimulation()
        let clock = simulation.clock
        let search = simulation.spawn { () async throws -> [String] in
            try await clock.sleep(for: .milliseconds(300))    // a debounce
            return ["Café Einstein"]
        }
        try simulation.advance(by: .milliseconds(299))
        #expect(!search.isFinished && search.result == nil)
        #expect(throws: SpawnedTaskError.notFinished) { try search.value() }
        try simulation.advance(by: .milliseconds(1))
        #expect(search.isFinished)
        #expect(try search.value() == ["Café Einstein"])
    }

    @Test func aCancelledTaskFinishesWithItsError() throws {
        let simulation = TestSimulation()
        let clock = simulation.clock
        let waiting = simulation.spawn { try await clock.sleep(for: .seconds(10)) }
        try simulation.advance(by: .seconds(5))
        waiting.cancel()
        try simulation.runCurrent()
        #expect(waiting.isFinished)
        #expect(throws: CancellationError.self) { try waiting.value() }
    }
}
