// The view-model example of docs/testing-your-flows.md (app code and tests), verbatim, so it
// cannot rot. CI also builds it in a package of its own (.ci/check-readme-package).
import DeviceSim
import DeviceSimTesting
import Testing

/// The app's search service; the real one calls your HTTP API.
public protocol PlaceSearch: Sendable {
    func places(matching query: String) async throws -> [String]
}

/// A view model as apps write them: typing is debounced by 300 ms, a new query cancels the search in
/// flight, and a failed search is retried after 1 s, then 2 s.
@MainActor public final class SearchViewModel {
    public private(set) var results: [String] = []
    public private(set) var isSearching = false
    private let clock: any Clock<Duration>
    private let search: any PlaceSearch
    private var task: Task<Void, Never>?

    public init(clock: any Clock<Duration>, search: any PlaceSearch) {
        self.clock = clock
        self.search = search
    }

    public func queryChanged(_ query: String) {
        task?.cancel()
        task = Task {
            do {
                try await clock.sleep(for: .milliseconds(300))
                isSearching = true
                defer { isSearching = false }
                results = try await searchRetrying(query)
            } catch {
                // Cancelled by a newer query, or failed three times: keep the last results.
            }
        }
    }

    private func searchRetrying(_ query: String) async throws -> [String] {
        for delay in [Duration.seconds(1), .seconds(2)] {
            do {
                return try await search.places(matching: query)
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                try await clock.sleep(for: delay)
            }
        }
        return try await search.places(matching: query)
    }
}

/// The search service in virtual time: every request takes 200 ms; failures are scripted.
final class FakePlaceSearch: PlaceSearch, @unchecked Sendable {
    let service: FakeService<String, [String]>

    init(_ simulation: TestSimulation) {
        service = FakeService(simulation, name: "search", latency: .milliseconds(200)) { ["\($0) Café", "\($0) Bar"] }
    }

    func places(matching query: String) async throws -> [String] {
        try await service.call(query)
    }
}

@MainActor @Suite struct SearchViewModelTests {
    @Test func debouncesTyping() async throws {
        let simulation = TestSimulation()
        let search = FakePlaceSearch(simulation)
        let model = SearchViewModel(clock: simulation.clock, search: search)
        model.queryChanged("ca")
        try await simulation.advanceOnMainActor(by: .milliseconds(100))
        model.queryChanged("cafe")               // cancels the search for "ca"
        try await simulation.advanceOnMainActor(by: .milliseconds(299))
        #expect(search.service.calls.isEmpty)
        try await simulation.advanceOnMainActor(by: .milliseconds(1))
        #expect(model.isSearching)
        try await simulation.advanceOnMainActor(by: .milliseconds(200))
        #expect(model.results == ["cafe Café", "cafe Bar"])
        #expect(search.service.calls.map(\.request) == ["cafe"])
        try simulation.expectNoPendingWork()
    }

    @Test func retriesAFailedSearchAfterOneThenTwoSeconds() async throws {
        let simulation = TestSimulation()
        let search = FakePlaceSearch(simulation)
        search.service.failNext(2)
        let model = SearchViewModel(clock: simulation.clock, search: search)
        model.queryChanged("museum")
        try await simulation.runOnMainActorUntilIdle()
        // 0.3 s debounce; requests of 0.2 s; 1 s and 2 s between them.
        #expect(search.service.calls.map(\.receivedAt) == [0.3, 1.5, 3.7].map { VirtualInstant(offset: .seconds($0)) })
        #expect(model.results == ["museum Café", "museum Bar"])
        #expect(simulation.now == VirtualInstant(offset: .seconds(3.9)))
        try simulation.expectNoPendingWork()
    }
}