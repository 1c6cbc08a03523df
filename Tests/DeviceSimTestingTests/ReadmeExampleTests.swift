// The example of docs/testing-your-flows.md, verbatim, so it cannot rot.
import DeviceSim
import DeviceSimTesting
import Testing

/// Your flow: tells the user when they arrive within 30 m of a destination, or gives up after a
/// deadline. Written with async/await against the HAL and `any Clock<Duration>`.
final class ArrivalWatcher {
    let device: Device
    let destination: GeoCoordinate
    private(set) var outcome: String?

    init(device: Device, destination: GeoCoordinate) {
        self.device = device
        self.destination = destination
    }

    func watch(clock: any Clock<Duration>, giveUpAfter deadline: Duration) async {
        let fixes = device.locationFixes()
        let destination = destination
        outcome = await withTaskGroup(of: String.self) { group in
            group.addTask {
                for await fix in fixes where fix.coordinate.distance(to: destination) < 30 { return "arrived" }
                return "stopped"
            }
            group.addTask {
                do { try await clock.sleep(for: deadline) } catch { return "cancelled" }
                return "gave up"
            }
            let first = await group.next()!
            group.cancelAll()
            return first
        }
        device.record("arrival", [("outcome", .string(outcome!))])
    }
}

@Suite struct ArrivalWatcherTests {
    let start = GeoCoordinate(latitude: 52.5145, longitude: 13.3501)

    @Test func arrivesAfterAWalkOfTwelveMinutes() throws {
        let simulation = TestSimulation(seed: 42)
        let walker = simulation.addDevice("walker", at: start)
        let cafe = start.destination(distance: 1_000, bearing: 90)
        let watcher = ArrivalWatcher(device: walker.device, destination: cafe)
        let bound = SimulationBound(watcher, executor: simulation.scheduler.executor)
        let clock = simulation.clock
        simulation.spawn { await bound.value.watch(clock: clock, giveUpAfter: .seconds(3_600)) }

        walker.walk(to: [cafe])                 // 1 km at 1.4 m/s: about 12 minutes
        try simulation.advance(by: .seconds(600))
        #expect(watcher.outcome == nil)         // still walking
        try simulation.advance(by: .seconds(300))
        #expect(watcher.outcome == "arrived")
        let arrival = try #require(simulation.events(named: "arrival").first)
        #expect(arrival.time.seconds > 690 && arrival.time.seconds < 720)
    }

    @Test func givesUpWhenTheSkyIsGone() throws {
        let simulation = TestSimulation(seed: 42)
        let walker = simulation.addDevice("walker", at: start)
        let watcher = ArrivalWatcher(device: walker.device, destination: start.destination(distance: 500, bearing: 0))
        let bound = SimulationBound(watcher, executor: simulation.scheduler.executor)
        let clock = simulation.clock
        simulation.spawn { await bound.value.watch(clock: clock, giveUpAfter: .seconds(3_600)) }

        walker.walk(to: [start.destination(distance: 500, bearing: 0)])
        walker.loseSignal(for: .seconds(7_200))  // a long tunnel: no fix ever arrives there
        try simulation.advance(by: .seconds(7_200))  // two hours of virtual time, no real waiting
        #expect(watcher.outcome == "gave up")
        #expect(simulation.events(named: "arrival").map(\.time) == [VirtualInstant(offset: .seconds(3_600))])
    }
}
