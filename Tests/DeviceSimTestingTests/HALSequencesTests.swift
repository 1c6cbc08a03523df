import DeviceSim
import DeviceSimTesting
import Testing

/// The small protocols' async sequences and `ask`, as app code uses them without a `Device`.
@Suite struct HALSequencesTests {
    static let home = GeoCoordinate(latitude: 52.52, longitude: 13.405)

    @Test(.simulation) func aCancelledConsumerEndsAndItsObservationGoesAtTheNextChange() async throws {
        let simulation = try TestSimulation.current
        let phone = simulation.addDevice("phone", at: Self.home)
        let lines = LineLog()
        let changes = phone.connectivity.changes()
        let consumer = simulation.spawn {
            for await state in changes { lines.append("\(state)") }
        }
        phone.setOnline(false)
        phone.setOnline(true)
        consumer.cancel()
        try await simulation.runCurrent()
        phone.setOnline(false)                       // delivered to no one: the observation is gone
        #expect(lines.lines == ["offline", "online"])
        #expect(consumer.isFinished)
    }

    @Test(.simulation) func liveUpdatesCarryTheFixesAsLocations() async throws {
        let simulation = try TestSimulation.current
        let phone = simulation.addDevice("phone", at: Self.home)
        let updates = phone.gps.liveUpdates()
        let firstFive = simulation.spawn {
            var fixes: [LocationFix] = []
            for await update in updates {
                if let fix = update.location { fixes.append(fix) }
                if fixes.count == 5 { break }
            }
            return fixes.map { $0.coordinate.distance(to: Self.home) < 30 }
        }
        try await simulation.advance(by: .seconds(5))
        #expect(try firstFive.value() == [true, true, true, true, true])
    }

    @Test(.simulation) func askWaitsForTheAnswerAndCancellingTakesThePromptBack() async throws {
        let simulation = try TestSimulation.current
        let phone = simulation.addDevice("phone", at: Self.home)
        let prompts = UncheckedBox(phone.notifications as any NotificationPresenting)
        let prompt = UserPrompt(id: "rate", message: "Rate the walk?", choices: ["👍", "👎"])
        let answered = simulation.spawn { await prompts.value.ask(prompt, timeout: .seconds(30)) }
        try phone.answer(prompt: "rate", with: "👍", at: VirtualInstant(offset: .seconds(4)))
        try await simulation.advance(by: .seconds(5))
        #expect(try answered.value() == "👍")

        let cancelled = simulation.spawn { await prompts.value.ask(prompt, timeout: .seconds(30)) }
        try await simulation.advance(by: .seconds(1))
        #expect(phone.notifications.showing == [prompt])
        cancelled.cancel()
        try await simulation.runCurrent()
        #expect(try cancelled.value() == nil)
        #expect(phone.notifications.showing.isEmpty)
        #expect(simulation.events(named: "prompt.withdrawn").map(\.time) == [VirtualInstant(offset: .seconds(6))])

        let timedOut = simulation.spawn { await prompts.value.ask(prompt, timeout: .seconds(30)) }
        try await simulation.advance(by: .seconds(30))
        #expect(try timedOut.value() == nil)
    }
}
