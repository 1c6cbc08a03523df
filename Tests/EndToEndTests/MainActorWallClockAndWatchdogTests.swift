import DeviceSimTestSupport
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A developer's own devicesim (`cafe-devicesim`) drives its `@MainActor` view model on the wall clock
/// in `serve` and `live` (WallClockDriver.runOnMainActor), and stops any run whose app's code holds the
/// main thread (Thread.sleep, a semaphore wait, a busy loop) after the main-thread limit, naming the
/// app's scenario line and the function and file:line holding it (issue 44). Every run is a process of
/// its own, killed with SIGKILL if it outlives its bound, so a stalled main actor never stalls the tests.
/// Slow (wall-clock runs of several seconds each, `live` through a gpsd): `.ci/run` runs it.
@Suite(.enabled(if: SlowTests.run, "slow: DEVICESIM_SLOW_TESTS=1 swift test (or .ci/run) runs it"))
struct MainActorWallClockAndWatchdogTests {
    static let cafe = CLI.builtExecutable(named: "cafe-devicesim")

    /// Runs `cafe-devicesim arguments…`, killed (SIGKILL: a blocked main thread may never handle SIGTERM)
    /// after `seconds`.
    static func run(_ arguments: [String], environment: [String: String] = [:], killAfter seconds: Double) throws -> (output: CLI.Output, seconds: Double) {
        let started = Date()
        let running = try CLI.start(arguments, environment: environment, executable: cafe)
        let pid = running.process.processIdentifier
        let killer = DispatchWorkItem { kill(pid, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: killer)
        defer { killer.cancel() }
        let output = try running.finish(timeout: seconds + 30)
        return (output, Date().timeIntervalSince(started))
    }

    /// A trace file's events, by name.
    static func eventNames(in trace: URL) throws -> [String] {
        try String(contentsOf: trace, encoding: .utf8).split(separator: "\n").compactMap { line in
            (try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["event"] as? String
        }
    }

    /// The visit, short enough for the wall clock: the phone drives into the café's geofence at about 3 s,
    /// checks in one second later and leaves at 6 s (two seconds to spare on a busy machine). The first
    /// device, standing still, is the one `live` gives gpsd's fixes.
    static func liveVisit(blocking: String? = nil) -> String {
        """
        name: check in at the café, on the wall clock
        seed: 3
        duration: 7s
        devices:
          - id: receiver
            at: [52.51450, 13.35010]
          - id: phone
            at: [52.51450, 13.34720]
            route: { start: 0s, speed: 40, waypoints: [[52.51450, 13.35010]] }
            app:
              name: cafe-check-in
              settings: { cafe: [52.51450, 13.35010], dwell: 1s\(blocking.map { ", blocks-main-thread: \($0)" } ?? "") }
        timeline:
          - { at: 6s, device: phone, do: leave }
        expect:
          - { order: [checkin.arrived, checkin.checked-in, checkin.left] }
        """
    }

    @Test func serveDrivesTheMainActorViewModelOnTheWallClock() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let trace = folder.appendingPathComponent("serve.jsonl")
        // Live time is wall time: at 400x the 9m17s between the check-in's start and the user leaving are
        // 1.4 s of wall time, so a busy machine does not push the check-in past the leaving (at 5000x, a
        // stall of a tenth of a second did).
        let (output, _) = try Self.run(
            ["serve", "Tests/CafeCheckInExample/Scenarios/check-in.yaml", "--nmea-tcp", "127.0.0.1:0", "--speed", "400", "--duration", "16m", "--trace", trace.path, "-q"],
            killAfter: 60)
        #expect(output.status == 0, "\(output.standardOutput)\(output.standardError)")
        let names = try Self.eventNames(in: trace).filter { $0.hasPrefix("checkin.") }
        #expect(names == ["checkin.arrived", "checkin.checked-in", "checkin.left"], "the view model's events, once each, in order")
    }

    /// A gpsd whose receiver stands still at the café.
    static func standingStill() throws -> FakeGPSD {
        try FakeGPSD.standingStill(latitude: "52.5145", longitude: "13.3501")
    }

    @Test func liveDrivesTheMainActorViewModelOnTheWallClock() throws {
        let gpsd = try Self.standingStill()
        defer { gpsd.stop() }
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenario = folder.appendingPathComponent("visit.yaml"), trace = folder.appendingPathComponent("live.jsonl")
        try Self.liveVisit().write(to: scenario, atomically: true, encoding: .utf8)
        let (output, _) = try Self.run(["live", "--gpsd", "127.0.0.1:\(gpsd.port)", scenario.path, "--trace", trace.path, "-q"], killAfter: 60)
        #expect(output.status == 0, "\(output.standardOutput)\(output.standardError)")
        let names = try Self.eventNames(in: trace).filter { $0.hasPrefix("checkin.") }
        #expect(names == ["checkin.arrived", "checkin.checked-in", "checkin.left"], "the view model's events, once each, in order")
    }

    @Test(arguments: ["thread-sleep", "semaphore", "busy-loop"])
    func aViewModelBlockingTheMainThreadStopsTheRunNamingWhereAndWhy(blocking: String) throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenario = folder.appendingPathComponent("main-thread.yaml"), traces = folder.appendingPathComponent("traces")
        let written = try String(contentsOfFile: CLI.repositoryRoot.appendingPathComponent("Tests/CafeCheckInExample/Scenarios/stops/main-thread.yaml").path, encoding: .utf8)
        try written.replacingOccurrences(of: "blocks-main-thread: thread-sleep", with: "blocks-main-thread: \(blocking)").write(to: scenario, atomically: true, encoding: .utf8)
        let (output, seconds) = try Self.run(
            ["run", scenario.path, "--trace", traces.path], environment: ["DEVICESIM_MAIN_THREAD_LIMIT": "1s"], killAfter: 60)
        let printed = output.standardOutput + output.standardError
        #expect(output.status == 1, "the scenario fails (its `never:` alone would have passed): \(printed)")
        #expect(printed.contains("the main thread has been blocked for 1s"), "\(printed)")
        #expect(printed.contains("(the limit is 1s)"), "\(printed)")
        #expect(printed.contains("'cafe-check-in' on phone at \(scenario.path):8"), "the app's scenario line: \(printed)")
        #expect(printed.contains("which started at 5m43s"), "the virtual instant it started, the café's geofence entered: \(printed)")
        #if os(Linux)
        #expect(printed.contains("in CafeCheckInModel.hold(_:) at CafeCheckInModel.swift:"), "the blocking function, sampled from the main thread: \(printed)")
        #endif
        #expect(seconds < 30, "it stopped soon after the limit, not at the kill (\(seconds) s)")
        let names = try Self.eventNames(in: traces.appendingPathComponent("main-thread.jsonl"))
        #expect(names.contains("checkin.arrived"), "the trace holds what ran before the block")
    }

    @Test func aStepBlockingTheMainThreadIsNamedWithItsLine() throws {
        let (output, seconds) = try Self.run(
            ["run", "Tests/CafeCheckInExample/Scenarios/stops/main-thread-in-a-step.yaml"], environment: ["DEVICESIM_MAIN_THREAD_LIMIT": "1s"], killAfter: 60)
        let printed = output.standardOutput + output.standardError
        #expect(output.status == 1, "\(printed)")
        #expect(printed.contains("which started at 1m during the step 'hold-main-thread' on phone at Tests/CafeCheckInExample/Scenarios/stops/main-thread-in-a-step.yaml:13"), "\(printed)")
        #if os(Linux)
        #expect(printed.contains("in CafeCheckInModel.hold(_:) at CafeCheckInModel.swift:"), "\(printed)")
        #endif
        #expect(seconds < 30, "it stopped soon after the limit, not at the kill (\(seconds) s)")
    }

    @Test func serveStopsWhenTheMainThreadIsBlocked() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let trace = folder.appendingPathComponent("serve.jsonl")
        let (output, seconds) = try Self.run(
            ["serve", "Tests/CafeCheckInExample/Scenarios/stops/main-thread.yaml", "--nmea-tcp", "127.0.0.1:0", "--speed", "5000", "--trace", trace.path, "-q"],
            environment: ["DEVICESIM_MAIN_THREAD_LIMIT": "1s"], killAfter: 60)
        let printed = output.standardOutput + output.standardError
        #expect(output.status == 1, "\(printed)")
        #expect(printed.contains("the main thread has been blocked for 1s"), "\(printed)")
        #expect(printed.contains("main-thread.yaml:8"), "\(printed)")
        #expect(seconds < 30, "it stopped soon after the limit, not at the kill (\(seconds) s)")
        #expect(try Self.eventNames(in: trace).contains("checkin.arrived"), "the trace holds what ran before the block")
    }

    @Test func liveStopsWhenTheMainThreadIsBlocked() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let scenario = folder.appendingPathComponent("visit.yaml"), trace = folder.appendingPathComponent("live.jsonl")
        try Self.liveVisit(blocking: "semaphore").write(to: scenario, atomically: true, encoding: .utf8)
        let gpsd = try Self.standingStill()
        defer { gpsd.stop() }
        let (output, seconds) = try Self.run(
            ["live", "--gpsd", "127.0.0.1:\(gpsd.port)", scenario.path, "--trace", trace.path, "-q"], environment: ["DEVICESIM_MAIN_THREAD_LIMIT": "1s"], killAfter: 60)
        let printed = output.standardOutput + output.standardError
        #expect(printed.contains("the main thread has been blocked for 1s"), "\(printed)")
        #expect(printed.contains("'cafe-check-in' on phone at \(scenario.path):7"), "the app's scenario line: \(printed)")
        #expect(output.status == 1, "\(printed)")
        #expect(seconds < 30, "it stopped soon after the limit, not at the kill (\(seconds) s)")
        #expect(try Self.eventNames(in: trace).contains("checkin.arrived"), "the trace holds what ran before the block")
    }
}
