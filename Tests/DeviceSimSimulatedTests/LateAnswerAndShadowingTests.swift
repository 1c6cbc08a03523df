import DeviceSimHAL
import DeviceSimNMEA
@testable import DeviceSimSimulated
import DeviceSimTime
import Foundation
import Testing

/// Issue 11, point 10: a tap on a prompt that is gone is recorded as late, with the reason.
@Suite struct LateAnswerTests {
    func make() -> (EventScheduler, TraceRecorder, SimulatedNotifications) {
        let scheduler = EventScheduler()
        let trace = TraceRecorder()
        let device = Device(id: "alice", scheduler: scheduler, location: SimulatedGPS(scheduler: scheduler, motion: DeviceMotion(at: TestWorld.center), random: SeededRandomGenerator(seed: 1)), events: trace)
        return (scheduler, trace, device.attachSimulatedNotificationsAndConnectivity().notifications)
    }

    let prompt = UserPrompt(id: "inform-group", message: "Inform a group?", choices: ["friends", "no"])

    func reasons(_ trace: TraceRecorder) -> [String] {
        trace.events.filter { $0.name == "prompt.answer-rejected" }.compactMap { $0["reason"]?.description }
    }

    @Test func aTapThatLandsAfterThePromptTimedOutIsRejectedWithTheReason() throws {
        let (scheduler, trace, notifications) = make()
        var answers: [String?] = []
        notifications.ask(prompt, timeout: .seconds(60)) { answers.append($0) }
        scheduler.schedule(after: .seconds(50)) { notifications.answer(prompt: "inform-group", with: "friends", after: .seconds(20)) }
        try scheduler.run(for: .seconds(100))
        #expect(answers == [nil])
        #expect(trace.events.map(\.name) == ["prompt.shown", "prompt.timed-out", "prompt.answer-rejected"])
        #expect(reasons(trace) == ["the prompt timed out at 60.000s, before this tap"])
    }

    @Test func withOnlyIfShowingATapOnNothingIsRejectedAndNotKeptForTheNextPrompt() throws {
        let (scheduler, trace, notifications) = make()
        notifications.ask(prompt, timeout: .seconds(10)) { _ in }
        scheduler.schedule(after: .seconds(30)) { notifications.answer(prompt: "inform-group", with: "friends", after: .seconds(2), onlyIfShowing: true) }
        var later: [String?] = []
        scheduler.schedule(after: .seconds(40)) { notifications.ask(self.prompt, timeout: .seconds(10)) { later.append($0) } }
        try scheduler.run(for: .seconds(60))
        #expect(reasons(trace) == ["no 'inform-group' prompt is showing; the last one timed out at 10.000s"])
        #expect(trace.events.first { $0.name == "prompt.answer-rejected" }?.time == VirtualInstant(offset: .seconds(32)))
        #expect(later == [nil])  // the next visit's prompt is not answered by the late tap
    }

    @Test func aWithdrawnPromptDisappearsAndItsAnswerIsNeverCalled() throws {
        let (scheduler, trace, notifications) = make()
        var answers: [String?] = []
        let shown = notifications.ask(prompt, timeout: .seconds(60)) { answers.append($0) }
        scheduler.schedule(after: .seconds(5)) { shown.withdraw() }
        scheduler.schedule(after: .seconds(6)) { notifications.answer(prompt: "inform-group", with: "no", after: .zero, onlyIfShowing: true) }
        try scheduler.run(for: .seconds(100))
        #expect(answers.isEmpty)
        #expect(notifications.showing.isEmpty)
        #expect(trace.events.map(\.name) == ["prompt.shown", "prompt.withdrawn", "prompt.answer-rejected"])
        #expect(reasons(trace) == ["no 'inform-group' prompt is showing; the last one was withdrawn at 5.000s"])
    }
}

/// The time- and space-correlated Wi-Fi shadowing (issue 11, "Also seen").
@Suite struct CorrelatedShadowingTests {
    func samples(environment: RadioEnvironment, step: Double, every seconds: Int64, count: Int) -> [Double] {
        var shadowing = CorrelatedShadowing(SeededRandomGenerator(seed: 9))
        let start = GeoCoordinate(latitude: 52.45, longitude: 13.29)
        return (0..<count).map { index in
            shadowing.next(for: 0, identity: "0a:00:00:00:00:01", at: start.offsetBy(east: step * Double(index), north: 0),
                           time: VirtualInstant(offset: .seconds(seconds * Int64(index))), environment: environment)
        }
    }

    func lagOneCorrelation(_ values: [Double]) -> Double {
        let mean = values.reduce(0, +) / Double(values.count)
        let centred = values.map { $0 - mean }
        let variance = centred.map { $0 * $0 }.reduce(0, +)
        return zip(centred.dropLast(), centred.dropFirst()).map { $0 * $1 }.reduce(0, +) / variance
    }

    func deviation(_ values: [Double]) -> Double {
        let mean = values.reduce(0, +) / Double(values.count)
        return (values.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(values.count)).squareRoot()
    }

    @Test func standingStillScansAreCorrelatedAndKeepTheirSpread() {
        let values = samples(environment: RadioEnvironment(), step: 0, every: 30, count: 200_000)
        #expect(abs(lagOneCorrelation(values) - exp(-30.0 / 1800)) < 0.02)  // exp(-t/T), T = 30 minutes
        #expect(abs(deviation(values) - 5) < 0.3)
    }

    @Test func walkingDecorrelatesOverTheDecorrelationDistance() {
        let values = samples(environment: RadioEnvironment(), step: 10, every: 1, count: 20_000)
        #expect(abs(lagOneCorrelation(values) - exp(-1.0) * exp(-1.0 / 1800)) < 0.02)  // 10 m apart: 1/e
    }

    @Test func aZeroDistanceGivesTheIndependentDrawsOfBefore() {
        var environment = RadioEnvironment()
        environment.shadowingDistance = 0
        let correlated = samples(environment: environment, step: 0, every: 30, count: 50)
        // Independent draws from the emitter's own stream, split from the device's by its identity.
        var independent = SeededRandomGenerator(seed: 9).split("0a:00:00:00:00:01")
        #expect(correlated == (0..<50).map { _ in independent.nextGaussian(mean: 0, standardDeviation: 5) })
    }
}

/// Issue 11, point 11: the receiver of an NMEA playback can be switched off and on.
@Suite struct PlaybackReceiverTests {
    @Test func switchedOffEpochsPassUndeliveredAndFixesResumeOnTheLogsOwnTimeline() throws {
        let url = try northboundNMEALog(seconds: 30, prefix: "receiver")
        defer { try? FileManager.default.removeItem(at: url) }
        let scheduler = EventScheduler()
        let playback = try NMEAPlaybackLocationProvider(scheduler: scheduler, file: url)
        var fixes: [Double] = [], unavailable: [String] = []
        let subscription = playback.observe { update in
            switch update {
            case .fix(let fix): fixes.append(fix.receivedAt.seconds)
            case .unavailable(let reason): unavailable.append(reason)
            case .satellites: break
            }
        }
        playback.start()
        scheduler.schedule(after: .milliseconds(4500)) { playback.switchReceiver(on: false) }
        scheduler.schedule(after: .milliseconds(9500)) { playback.switchReceiver(on: true) }
        scheduler.schedule(after: .milliseconds(12500)) { playback.hideSky(true) }
        scheduler.schedule(after: .milliseconds(14500)) { playback.hideSky(false) }
        try scheduler.run(for: .seconds(20))
        #expect(fixes == [0, 1, 2, 3, 4, 10, 11, 12, 15, 16, 17, 18, 19, 20])
        #expect(unavailable == ["receiver off", "no satellites in view"])
        #expect(playback.currentFix != nil)
        _ = subscription
    }
}
