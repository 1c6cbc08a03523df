import DeviceSim
import DeviceSimScenario
import DeviceSimTestSupport
import Foundation
import Testing

/// The repository's root, found from this file.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

@Suite struct FriendLocatorScenarioTests {
    init() throws { try ScenarioAppRegistry.register(BundledApps.all) }

    static let files: [String] = {
        let folder = repositoryRoot.appendingPathComponent("Scenarios/friend-locator")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".yaml") }.sorted().map { folder.appendingPathComponent($0).path }
    }()

    @Test func everyBranchHasAScenario() {
        #expect(Self.files.count >= 20)
    }

    /// The scenarios' expectations hold whatever the radio noise: 50 seeds each with the slow suites
    /// (`DEVICESIM_SLOW_TESTS=1`, `.ci/run`), 5 in the default `swift test` (`.ci/run`'s sweep also runs
    /// every bundled scenario over 50 seeds).
    @Test(arguments: files) func theScenarioPassesOverManySeeds(file: String) throws {
        let scenario = try ScenarioParser.parse(contentsOf: file)
        var failures: [String] = []
        for seed in UInt64(1)...(SlowTests.run ? 50 : 5) {
            let result = ScenarioRunner(seedOverride: seed).run(scenario)
            if !result.passed {
                failures.append("seed \(seed): " + (result.runError ?? result.outcomes.filter { !$0.passed }.map { "\($0.expected) (\($0.observed))" }.joined(separator: "; ")))
            }
        }
        #expect(failures.isEmpty, "\(URL(fileURLWithPath: file).lastPathComponent): \(failures.prefix(3).joined(separator: "\n"))")
    }

    @Test func theSameSeedGivesAByteIdenticalTraceAndAnotherSeedOtherRadioNoise() throws {
        let scenario = try ScenarioParser.parse(contentsOf: repositoryRoot.appendingPathComponent("Scenarios/friend-locator/least-private-bluetooth.yaml").path)
        let first = ScenarioRunner(seedOverride: 7).run(scenario)
        let again = ScenarioRunner(seedOverride: 7).run(scenario)
        let other = ScenarioRunner(seedOverride: 8).run(scenario)
        #expect(first.passed && other.passed)
        #expect(first.traceJSONLines == again.traceJSONLines)
        #expect(first.traceJSONLines != other.traceJSONLines)
        let distances = { (result: ScenarioResult) in result.events.filter { $0.name == "located" }.map { $0.fields.first { $0.key == "distance" }?.value.description } }
        #expect(distances(first) != distances(other))
    }
}
