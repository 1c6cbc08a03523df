import DeviceSim
import DeviceSimTesting
import Testing

/// The search service of the view model below: a protocol the app injects. Its requirement is a plain
/// nonisolated async function, so a call from the main actor leaves for the global executor (as does
/// the clock's `sleep`); `advanceOnMainActor` keeps that work in step.
protocol PlaceSearching: Sendable {
    func places(matching query: String) async throws -> [String]
}

/// A view model as app code writes it: `@MainActor`, starts `Task {}`s, sleeps on an injected clock.
/// Typing debounces the search by 300 ms; a failed search is retried with exponential backoff
/// (1 s, 2 s, 4 s); a new query cancels the search in flight.
@MainActor final class PlaceSearchViewModel {
    private(set) var results: [String] = []
    private(set) var status = "idle"
    private(set) var log: [String] = []
    private let clock: any Clock<Duration>
    private let search: any PlaceSearching
    private var searchTask: Task<Void, Never>?

    init(clock: any Clock<Duration>, search: any PlaceSearching) {
        self.clock = clock
        self.search = search
    }

    func queryChanged(_ query: String) {
        searchTask?.cancel()
        searchTask = Task {
            do {
                try await clock.sleep(for: .milliseconds(300))
                status = "searching"
                log.append("search \(query)")
                results = try await searchWithRetries(query)
                status = "done"
            } catch is CancellationError {
                log.append("cancelled \(query)")
            } catch {
                status = "failed"
            }
        }
    }

    private func searchWithRetries(_ query: String) async throws -> [String] {
        var delay = Duration.seconds(1)
        for attempt in 1... {
            do {
                return try await search.places(matching: query)
            } catch let error where !(error is CancellationError) && attempt < 4 {
                log.append("retry in \(delay)")
                try await clock.sleep(for: delay)
                delay *= 2
            }
        }
        fatalError("unreachable")
    }
}

/// A fake search on the simulation's clock: 200 ms per request, failing the first `failures` ones.
final class ScriptedPlaceSearch: PlaceSearching, @unchecked Sendable {
    let clock: VirtualClock
    var failures: Int
    var requests: [(query: String, at: VirtualInstant)] = []

    init(clock: VirtualClock, failures: Int = 0) {
        self.clock = clock
        self.failures = failures
    }

    func places(matching query: String) async throws -> [String] {
        requests.append((query, clock.now))
        try await clock.sleep(for: .milliseconds(200))
        if failures > 0 {
            failures -= 1
            throw FakeServiceError.injected
        }
        return ["\(query) Café", "\(query) Bar"]
    }
}

@MainActor @Suite struct MainActorViewModelTests {
    @Test func theSearchIsDebouncedBy300Milliseconds() async throws {
        let simulation = TestSimulation()
        let search = ScriptedPlaceSearch(clock: simulation.clock)
        let model = PlaceSearchViewModel(clock: simulation.clock, search: search)
        model.queryChanged("c")
        try await simulation.advanceOnMainActor(by: .milliseconds(100))
        model.queryChanged("ca")
        try await simulation.advanceOnMainActor(by: .milliseconds(100))
        model.queryChanged("caf")
        try await simulation.advanceOnMainActor(by: .milliseconds(299))
        #expect(model.status == "idle")
        try await simulation.advanceOnMainActor(by: .milliseconds(1))
        #expect(model.status == "searching")
        #expect(search.requests.map(\.query) == ["caf"])
        #expect(search.requests.map(\.at) == [VirtualInstant(offset: .milliseconds(500))])
        try await simulation.advanceOnMainActor(by: .milliseconds(200))
        #expect(model.results == ["caf Café", "caf Bar"])
        #expect(model.log == ["cancelled c", "cancelled ca", "search caf"])
        try simulation.expectNoPendingWork()
    }

    @Test func aFailedSearchIsRetriedWithExponentialBackoff() async throws {
        let simulation = TestSimulation()
        let search = ScriptedPlaceSearch(clock: simulation.clock, failures: 3)
        let model = PlaceSearchViewModel(clock: simulation.clock, search: search)
        model.queryChanged("museum")
        try await simulation.runOnMainActorUntilIdle()
        // 0.3 s debounce, then requests of 0.2 s each, separated by 1, 2 and 4 s of backoff.
        #expect(search.requests.map(\.at.description) == ["0.300s", "1.500s", "3.700s", "7.900s"])
        #expect(model.log == ["search museum", "retry in 1.0 seconds", "retry in 2.0 seconds", "retry in 4.0 seconds"])
        #expect(model.status == "done")
        #expect(simulation.now == VirtualInstant(offset: .milliseconds(8_100)))
    }

    /// The same view model, the same steps, 200 times: the same log and times every time, while Swift
    /// Testing runs other tests (and these) in parallel.
    @Test(arguments: 0..<200) func theSameStepsGiveTheSameResultEveryTime(run: Int) async throws {
        let simulation = TestSimulation(seed: 5)
        let search = ScriptedPlaceSearch(clock: simulation.clock, failures: 2)
        let model = PlaceSearchViewModel(clock: simulation.clock, search: search)
        model.queryChanged("z")
        try await simulation.advanceOnMainActor(by: .milliseconds(150))
        model.queryChanged("zoo")
        try await simulation.advanceOnMainActor(by: .seconds(5))
        #expect(model.log == ["cancelled z", "search zoo", "retry in 1.0 seconds", "retry in 2.0 seconds"])
        #expect(search.requests.map(\.at.description) == ["0.450s", "1.650s", "3.850s"])
        #expect(model.results == ["zoo Café", "zoo Bar"])
        #expect(simulation.now == VirtualInstant(offset: .milliseconds(5_150)))
        try simulation.expectNoPendingWork()
    }
}
