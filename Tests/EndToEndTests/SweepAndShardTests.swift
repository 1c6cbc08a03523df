import DeviceSimTestSupport
import Foundation
import Testing

@Suite(.enabled(if: SlowTests.run, "slow: DEVICESIM_SLOW_TESTS=1 swift test (or .ci/run) runs it")) struct SweepAndShardTests {
    /// A scenario whose outcome depends on the seed: the marker must be within 3 m of the true spot,
    /// and GPS noise (5 m accuracy) puts it there only for some seeds.
    static let seedDependent = """
        name: a tight marker
        devices:
          - { id: walker, at: [52.5145, 13.3501], app: { name: dog-walk } }
        timeline:
          - { at: 0s, do: start-service }
        expect:
          - { position: marker, at: 30s, near: [52.5145, 13.3501], radius: 3 }
        """

    static func withoutTimes(_ text: String) -> String {
        text.replacingOccurrences(of: #""wallSeconds":[0-9.e-]+"#, with: "", options: .regularExpression)
            .replacingOccurrences(of: #"time="[0-9.]+""#, with: "", options: .regularExpression)
            .replacingOccurrences(of: #" [0-9]+\.[0-9]+ s\)"#, with: " s)", options: .regularExpression)
    }

    @Test func aSeedSweepReportsEachFailingSeedWithACommandThatReproducesIt() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("tight.yaml")
        try Self.seedDependent.write(to: file, atomically: true, encoding: .utf8)
        let junit = folder.appendingPathComponent("junit.xml")
        let sweep = try CLI.run(["run", file.path, "--seeds", "1-12", "--junit", junit.path])
        #expect(sweep.status == 1)
        let commands = sweep.standardOutput.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.hasPrefix("devicesim run ") }
        let failing = commands.compactMap { $0.split(separator: " ").last.flatMap { Int($0) } }
        #expect(!failing.isEmpty && failing.count < 12, "some seeds fail, not all: \(sweep.standardOutput)")
        #expect(sweep.standardOutput.contains("12 runs: \(12 - failing.count) passed, \(failing.count) failed"))
        #expect(sweep.standardOutput.contains("failing seeds: " + failing.map(String.init).joined(separator: ", ")))
        // Each printed command fails on its own; a seed that passed passes on its own.
        for command in commands.prefix(2) {
            let arguments = command.split(separator: " ").dropFirst().map(String.init)
            #expect(try CLI.run(arguments).status == 1, "\(command)")
        }
        let passing = try #require((1...12).first { !failing.contains($0) })
        #expect(try CLI.run(["run", file.path, "--seed", "\(passing)"]).status == 0)
        // JUnit: one case per seed.
        let xml = try String(contentsOf: junit, encoding: .utf8)
        for seed in 1...12 { #expect(xml.contains("name=\"a tight marker [seed \(seed)]\"")) }
        #expect(xml.contains("tests=\"12\" failures=\"\(failing.count)\""))
    }

    @Test func fourShardsInFourProcessesMergeIntoTheUnshardedRun() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let tight = folder.appendingPathComponent("tight.yaml")
        try Self.seedDependent.write(to: tight, atomically: true, encoding: .utf8)
        let inputs = ["Scenarios/dog-walk", tight.path, "--seeds", "1-3", "-q"]
        let whole = try CLI.run(["run"] + inputs + ["--results", folder.appendingPathComponent("whole.jsonl").path, "--junit", folder.appendingPathComponent("whole.xml").path])
        // Four processes at once, one shard each (as a CI matrix or an Indexed Job would run them).
        let shards = try (1...4).map { index in
            try CLI.start(["run"] + inputs + ["--shard", "\(index)/4", "--jobs", "1", "--results", folder.appendingPathComponent("shard-\(index).jsonl").path])
        }
        let statuses = try shards.map { try $0.finish().status }
        #expect(statuses.contains(1) == (whole.status == 1))
        let merged = try CLI.run(["merge", "-q"] + (1...4).map { folder.appendingPathComponent("shard-\($0).jsonl").path }
            + ["--results", folder.appendingPathComponent("merged.jsonl").path, "--junit", folder.appendingPathComponent("merged.xml").path])
        #expect(merged.status == whole.status)
        for (a, b) in [("whole.jsonl", "merged.jsonl"), ("whole.xml", "merged.xml")] {
            let first = try String(contentsOf: folder.appendingPathComponent(a), encoding: .utf8)
            let second = try String(contentsOf: folder.appendingPathComponent(b), encoding: .utf8)
            #expect(Self.withoutTimes(first) == Self.withoutTimes(second), "\(a) vs \(b)")
        }
        #expect(Self.withoutTimes(merged.standardOutput) == Self.withoutTimes(whole.standardOutput))
        // Every pair ran in exactly one shard.
        let positions = try (1...4).flatMap { index in
            try String(contentsOf: folder.appendingPathComponent("shard-\(index).jsonl"), encoding: .utf8)
                .split(separator: "\n").dropFirst().compactMap { line in
                    (try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["position"] as? Int
                }
        }
        let dogWalkFiles = try FileManager.default.contentsOfDirectory(atPath: CLI.repositoryRoot.appendingPathComponent("Scenarios/dog-walk").path)
            .filter { $0.hasSuffix(".yaml") }.count
        #expect(positions.sorted() == Array(0..<positions.count) && positions.count == dogWalkFiles * 3 + 3)
        // A missing shard is refused.
        let partial = try CLI.run(["merge"] + (1...3).map { folder.appendingPathComponent("shard-\($0).jsonl").path })
        #expect(partial.status == 2 && partial.standardError.contains("missing shard 4/4"))
        // A shard's results that came back with CRLF line ends (through a Windows runner's
        // artifacts) merge the same.
        let shard1 = folder.appendingPathComponent("shard-1.jsonl")
        try String(contentsOf: shard1, encoding: .utf8).replacingOccurrences(of: "\n", with: "\r\n").write(to: shard1, atomically: true, encoding: .utf8)
        let again = try CLI.run(["merge", "-q"] + (1...4).map { folder.appendingPathComponent("shard-\($0).jsonl").path }
            + ["--results", folder.appendingPathComponent("merged-crlf.jsonl").path])
        #expect(again.status == whole.status)
        let mergedFromCRLF = try String(contentsOf: folder.appendingPathComponent("merged-crlf.jsonl"), encoding: .utf8)
        let wholeResults = try String(contentsOf: folder.appendingPathComponent("whole.jsonl"), encoding: .utf8)
        #expect(Self.withoutTimes(mergedFromCRLF) == Self.withoutTimes(wholeResults))
    }

    @Test func parallelJobsGiveTheOutputOfOneJob() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        var outputs: [String] = []
        for jobs in ["1", "3"] {
            let run = try CLI.run(["run", "Scenarios", "--jobs", jobs, "--trace", folder.appendingPathComponent("t\(jobs)").path,
                                   "--results", folder.appendingPathComponent("r\(jobs).jsonl").path])
            #expect(run.status == 0)
            outputs.append(Self.withoutTimes(run.standardOutput))
        }
        #expect(outputs[0] == outputs[1])
        let names = try FileManager.default.subpathsOfDirectory(atPath: folder.appendingPathComponent("t1").path).filter { $0.hasSuffix(".jsonl") }.sorted()
        #expect(names.count >= 30)
        for name in names {
            #expect(try Data(contentsOf: folder.appendingPathComponent("t1/\(name)")) == Data(contentsOf: folder.appendingPathComponent("t3/\(name)")), "\(name)")
        }
    }

    @Test func shardsComeFromTheJobEnginesVariables() throws {
        let cases: [([String: String], String)] = [
            (["TEST_SHARD_INDEX": "1", "TEST_TOTAL_SHARDS": "3"], "shard 2/3"),        // Bazel, 0-based
            (["JOB_COMPLETION_INDEX": "2", "DEVICESIM_SHARD_COUNT": "3"], "shard 3/3"),  // Kubernetes, 0-based
            (["CI_NODE_INDEX": "1", "CI_NODE_TOTAL": "3"], "shard 1/3"),                // GitLab, 1-based
            (["BUILDKITE_PARALLEL_JOB": "0", "BUILDKITE_PARALLEL_JOB_COUNT": "3"], "shard 1/3"),
        ]
        for (environment, expected) in cases {
            let run = try CLI.run(["run", "Scenarios/dog-walk"], environment: environment)
            #expect(run.standardOutput.hasPrefix(expected), "\(environment): \(run.standardOutput)")
        }
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let status = folder.appendingPathComponent("status")
        _ = try CLI.run(["run", "Scenarios/dog-walk"], environment: ["TEST_SHARD_INDEX": "0", "TEST_TOTAL_SHARDS": "2", "TEST_SHARD_STATUS_FILE": status.path])
        #expect(FileManager.default.fileExists(atPath: status.path), "Bazel's status file is touched")
        let kubernetes = try CLI.run(["run", "Scenarios/dog-walk"], environment: ["JOB_COMPLETION_INDEX": "0"])
        #expect(kubernetes.status == 2 && kubernetes.standardError.contains("--shard-count"))
    }
}
