import DeviceSim
import Foundation
import DeviceSimTesting
import Synchronization
import Testing

// The reproducers of issue 35: a test touching the simulation between two advances (connectivity,
// Bluetooth, a prompt's answer) wakes app tasks that must stay in virtual time, and an advance from
// the main actor must run the main actor's work. Each failed every time before the fix.

/// App code: a `Task {}` that uploads whenever the device comes back online (2 s per upload).
final class ReconnectUploader: Sendable {
    let clock: any Clock<Duration>
    let log = LineLog()

    init(clock: any Clock<Duration>) {
        self.clock = clock
    }

    func start(changes: AsyncStream<ConnectivityState>) {
        Task {
            for await state in changes where state == .online {
                try await clock.sleep(for: .seconds(2))
                log.append("uploaded")
            }
        }
    }
}

/// App code: a `@MainActor` view model that syncs for 2 s whenever the device comes back online.
@MainActor final class ReconnectViewModel {
    private(set) var syncs = 0
    private(set) var status = "idle"
    private let clock: any Clock<Duration>
    private var task: Task<Void, Never>?

    init(clock: any Clock<Duration>) {
        self.clock = clock
    }

    func start(changes: AsyncStream<ConnectivityState>) {
        task = Task {
            for await state in changes where state == .online {
                status = "syncing"
                do { try await clock.sleep(for: .seconds(2)) } catch { return }
                syncs += 1
                status = "synced"
            }
        }
    }

    func stop() { task?.cancel() }
}

/// App code: a `@MainActor` view model that shows a banner for 3 s.
@MainActor final class BannerViewModel {
    private(set) var banner: String?
    private let clock: any Clock<Duration>

    init(clock: any Clock<Duration>) {
        self.clock = clock
    }

    func show(_ text: String) {
        banner = text
        Task {
            try? await clock.sleep(for: .seconds(3))
            banner = nil
        }
    }
}

@Suite struct EscapeReproducerTests {
    static let shop = GeoCoordinate(latitude: 52.5200, longitude: 13.4050)
    static let beacon = Beacon(id: .iBeacon(uuid: "F7826DA6-4FA2-4E98-8024-BC5B71E0893E", major: 1, minor: 7), position: shop.offsetBy(east: 2, north: 0), fence: "shop")

    @Test func aTaskWokenBySetOnlineBetweenAdvancesStaysInVirtualTime() throws {
        let simulation = TestSimulation()
        let phone = simulation.addDevice("phone", at: Self.shop)
        let uploader = ReconnectUploader(clock: simulation.clock)
        let changes = phone.device.connectivityChanges()
        simulation.spawn { uploader.start(changes: changes) }
        try simulation.advance(by: .seconds(10))
        phone.setOnline(false)
        try simulation.advance(by: .seconds(10))
        phone.setOnline(true)
        try simulation.advance(by: .seconds(1))
        #expect(uploader.log.lines.isEmpty)
        try simulation.advance(by: .seconds(1))
        #expect(uploader.log.lines == ["uploaded"])
        try simulation.expectNoPendingWork()
    }

    @Test func turningBluetoothOffWakesTheFenceWatcherInVirtualTime() throws {
        let simulation = TestSimulation(world: World(beacons: [Self.beacon]))
        let phone = simulation.addDevice("phone", at: Self.shop)
        let clock = simulation.clock
        let log = LineLog()
        let fences = phone.device.fenceEvents()
        simulation.spawn {
            Task {
                for await event in fences where !event.entered {
                    try await clock.sleep(for: .seconds(1))
                    log.append("left \(event.fence) @\(clock.now)")
                }
            }
        }
        try simulation.advance(by: .seconds(5))
        phone.setBluetooth(on: false)
        try simulation.advance(by: .seconds(2))
        #expect(log.lines == ["left shop @6.000s"])
    }

    @Test func anAnswerWithNoDelayResumesTheAskingTaskInVirtualTime() throws {
        let simulation = TestSimulation()
        let phone = simulation.addDevice("phone", at: Self.shop)
        let notifications = SimulationBound(phone.notifications, executor: simulation.scheduler.executor)
        let clock = simulation.clock
        let log = LineLog()
        simulation.spawn {
            let prompt = UserPrompt(id: "stamp", message: "Collect your stamp?", choices: ["yes", "no"])
            Task {
                let answer = await withCheckedContinuation { continuation in
                    notifications.value.ask(prompt, timeout: .seconds(60)) { continuation.resume(returning: $0) }
                }
                try await clock.sleep(for: .seconds(1))
                log.append("\(answer ?? "none") @\(clock.now)")
            }
        }
        try simulation.advance(by: .seconds(3))
        phone.answer(prompt: "stamp", with: "yes")
        try simulation.advance(by: .seconds(2))
        #expect(log.lines == ["yes @4.000s"])
        try simulation.expectNoPendingWork()
    }
}

@MainActor @Suite struct MainActorEscapeReproducerTests {
    @Test func aViewModelWokenBySetOnlineBetweenAdvancesStaysInVirtualTime() async throws {
        let simulation = TestSimulation()
        let phone = simulation.addDevice("phone", at: EscapeReproducerTests.shop)
        let model = ReconnectViewModel(clock: simulation.clock)
        model.start(changes: phone.device.connectivityChanges())
        try await simulation.advanceOnMainActor(by: .seconds(10))
        phone.setOnline(false)
        try await simulation.advanceOnMainActor(by: .seconds(10))
        phone.setOnline(true)
        try await simulation.advanceOnMainActor(by: .seconds(1))
        #expect(model.status == "syncing")
        try await simulation.advanceOnMainActor(by: .seconds(1))
        #expect(model.status == "synced" && model.syncs == 1)
        model.stop()
        try await simulation.advanceOnMainActor(by: .zero)
        try simulation.expectNoPendingWork()
    }

    /// `try await` on the one advance: from the main actor it must let the view model's tasks run.
    @Test func anAdvanceFromTheMainActorRunsTheMainActorsWork() async throws {
        let simulation = TestSimulation()
        let model = BannerViewModel(clock: simulation.clock)
        model.show("Stamp collected")
        try await simulation.advance(by: .seconds(2))
        #expect(model.banner == "Stamp collected")
        try await simulation.advance(by: .seconds(1))
        #expect(model.banner == nil)
        try simulation.expectNoPendingWork()
    }
}

/// What still cannot stay in virtual time is reported by the next advance, with the file:line that
/// started it.
@MainActor @Suite struct ReportedEscapeTests {
    /// A synchronous advance, called from the main actor, lets the view model's task go on after its
    /// sleep, at its instant (it used to throw `.mainActorWorkStranded`: the task went on only once this
    /// test suspended).
    @Test func aSynchronousAdvanceOnTheMainActorRunsTheCodeAfterAMainActorSleep() async throws {
        let simulation = TestSimulation()
        let model = BannerViewModel(clock: simulation.clock)
        model.show("Stamp collected")
        try await simulation.advance(by: .seconds(1))    // the banner's task sleeps until 3 s
        func advanceSynchronously() throws { try simulation.advance(by: .seconds(5)) }
        try advanceSynchronously()
        #expect(model.banner == nil)
        #expect(simulation.now == VirtualInstant(offset: .seconds(6)))
        try simulation.expectNoPendingWork()
    }

    /// An action called from another thread while the simulation advances runs at the next drain, and
    /// the advance throws, naming the action and where it was called.
    @Test func anActionFromAnotherThreadDuringAnAdvanceIsReported() async throws {
        let simulation = TestSimulation()
        let phone = UncheckedBox(simulation.addDevice("phone", at: EscapeReproducerTests.shop))
        let line = #line + 4
        simulation.spawn {
            // A thread of its own, while this drain waits for it: the simulation is advancing meanwhile.
            let done = DispatchSemaphore(value: 0)
            Thread.detachNewThread { phone.value.setOnline(false); done.signal() }
            done.wait()
        }
        #expect(throws: TestSimulationError.touchedFromAnotherThread(
            "setOnline(_:)", at: SimulationTaskOrigin(fileID: "DeviceSimTestingTests/EscapeReproducerTests.swift", line: line)
        )) { try simulation.advance(by: .seconds(1)) }
        #expect(phone.value.connectivity.state == .offline)  // it ran, in the same advance's drain
    }
}

/// A value used only where the test says (a test double carried across threads on purpose).
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
