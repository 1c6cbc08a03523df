import Foundation
import Testing

/// A developer's own devicesim (`cafe-devicesim`) runs scenario files whose app is a `@MainActor` view
/// model, through the whole command line: swept over seeds, in parallel, the same as alone; and a run
/// whose view model sleeps on `ContinuousClock` stops, saying why and where (issue 44).
@Suite struct MainActorAppCLITests {
    static let cafe = CLI.builtExecutable(named: "cafe-devicesim")

    func traces(jobs: Int) throws -> (CLI.Output, [String: String]) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cafe-traces-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = try CLI.run(
            ["run", "Tests/CafeCheckInExample/Scenarios/check-in.yaml", "--seeds", "1-20", "--jobs", String(jobs), "--trace", folder.path],
            executable: Self.cafe)
        var traces: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            traces[name] = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
        }
        return (output, traces)
    }

    @Test func aMainActorViewModelPassesItsScenarioOverTwentySeedsInParallelAsAlone() throws {
        let (parallel, parallelTraces) = try traces(jobs: 2)
        #expect(parallel.status == 0, "\(parallel.standardOutput)\(parallel.standardError)")
        #expect(parallelTraces.count == 20)
        #expect(parallelTraces.values.allSatisfy { $0.contains("\"checkin.checked-in\"") })
        let (alone, aloneTraces) = try traces(jobs: 1)
        #expect(alone.status == 0)
        #expect(aloneTraces == parallelTraces, "the same seeds give the same traces in --jobs 2 as in --jobs 1")
    }

    @Test func aViewModelSleepingOnContinuousClockStopsTheRunNamingTheCause() throws {
        let output = try CLI.run(["run", "Tests/CafeCheckInExample/Scenarios/stops/real-clock.yaml"], executable: Self.cafe)
        let printed = output.standardOutput + output.standardError
        #expect(output.status == 1, "the scenario fails (a `never:` alone would have passed): \(printed)")
        #expect(printed.contains("slept on a real clock"), "\(printed)")
        #expect(printed.contains("real-clock.yaml:7"), "the app's device, file:line: \(printed)")
    }
}
