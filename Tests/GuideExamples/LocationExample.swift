import DeviceSim
import DeviceSimTesting
import Testing

// MARK: App code (a target that links only DeviceSimCore)

/// Shows how far the user has run and says when they reach the finish: a `@MainActor` view model that
/// reads fixes from any location provider as an async sequence.
@MainActor final class RunViewModel {
    private(set) var metres = 0.0
    private(set) var finished = false
    private(set) var signal = "searching"
    private let location: any LocationProvider
    private let finish: GeoCoordinate
    private var task: Task<Void, Never>?

    init(location: any LocationProvider, finish: GeoCoordinate) {
        self.location = location
        self.finish = finish
    }

    func start() {
        task = Task {
            var last: GeoCoordinate?
            for await update in location.liveUpdates() {
                guard let fix = update.location else {
                    if case .unavailable = update { signal = "lost" }
                    continue
                }
                signal = "ok"
                if let last {
                    let step = last.distance(to: fix.coordinate)
                    guard step >= 10 else { continue }                // within the fixes' noise: not a move
                    metres += step
                }
                last = fix.coordinate
                if fix.coordinate.distance(to: finish) < 20 { finished = true }
            }
        }
    }

    func stop() { task?.cancel() }
}

// MARK: Tests

@MainActor @Suite struct RunViewModelTests {
    let start = GeoCoordinate(latitude: 52.5145, longitude: 13.3501)

    @Test(.simulation(seed: 3)) func aRunOfFourHundredMetres() async throws {
        let simulation = try TestSimulation.current
        let runner = simulation.addDevice("runner", at: start)
        let model = RunViewModel(location: runner.gps, finish: start.destination(distance: 400, bearing: 90))
        model.start()
        runner.walk(to: [start.destination(distance: 400, bearing: 90)], speed: 3)   // 400 m at 3 m/s
        try await simulation.advance(by: .seconds(60))
        #expect(!model.finished && model.signal == "ok")
        #expect((170...230).contains(model.metres))                                    // 180 m, and some noise
        try await simulation.advance(by: .seconds(80))
        #expect(model.finished)
        runner.loseSignal(for: .seconds(30))                                           // a tunnel
        try await simulation.advance(by: .seconds(5))
        #expect(model.signal == "lost")
        model.stop()
    }
}
