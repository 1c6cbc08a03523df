import DeviceSim
@testable import DeviceSimScenario
import Testing

@Suite struct SweepPlanTests {
    init() throws { try ScenarioAppRegistry.register(BundledApps.all) }

    @Test func seedsAreARangeACountOrAList() throws {
        #expect(try SeedSelection(parsing: "3-7").values == [3, 4, 5, 6, 7])
        #expect(try SeedSelection(parsing: "4").values == [1, 2, 3, 4])
        #expect(try SeedSelection(parsing: "42, 7,9").values == [42, 7, 9])
        for bad in ["", "0", "7-3", "a-b", "1-", "-5", "1,,2", "1-2000000"] {
            #expect(throws: ScenarioError.self, "\(bad)") { try SeedSelection(parsing: bad) }
        }
    }

    @Test func shardsAreOneBasedAndCheckTheirBounds() throws {
        let shard = try Shard(parsing: "2/4")
        #expect(shard.index == 2 && shard.count == 4)
        for bad in ["0/4", "5/4", "1/0", "2", "a/b", "1/2/3"] {
            #expect(throws: ScenarioError.self, "\(bad)") { try Shard(parsing: bad) }
        }
    }

    @Test(arguments: [1, 2, 3, 5, 7, 40])
    func shardsOfAPlanNeitherOverlapNorMissAPair(count: Int) throws {
        let files = (0..<11).map { ScenarioDiscovery.Found(path: "s/\($0).yaml", relativeName: "\($0).yaml") }
        let whole = ScenarioBatch.plan(files, seeds: [1, 2, 3])
        #expect(whole.map(\.position) == Array(0..<33))
        var seen: [Int] = []
        var sizes: [Int] = []
        for index in 1...count {
            let part = ScenarioBatch.plan(files, seeds: [1, 2, 3], shard: try Shard(index: index, count: count))
            seen += part.map(\.position)
            sizes.append(part.count)
            #expect(part.allSatisfy { whole[$0.position] == $0 })
        }
        #expect(seen.sorted() == Array(0..<33))
        #expect((sizes.max() ?? 0) - (sizes.min() ?? 0) <= 1)
    }

    @Test func theEnvironmentNamesTheShard() throws {
        #expect(try Shard.fromEnvironment(["TEST_SHARD_INDEX": "0", "TEST_TOTAL_SHARDS": "2"])?.shard == Shard(index: 1, count: 2))
        #expect(try Shard.fromEnvironment(["JOB_COMPLETION_INDEX": "4"], count: 5)?.shard == Shard(index: 5, count: 5))
        #expect(try Shard.fromEnvironment(["CI_NODE_INDEX": "3", "CI_NODE_TOTAL": "3"])?.source == .gitlab)
        #expect(try Shard.fromEnvironment(["BUILDKITE_PARALLEL_JOB": "2", "BUILDKITE_PARALLEL_JOB_COUNT": "3"])?.shard == Shard(index: 3, count: 3))
        #expect(try Shard.fromEnvironment(["HOME": "/root"]) == nil)
        #expect(throws: ScenarioError.self) { try Shard.fromEnvironment(["JOB_COMPLETION_INDEX": "0"]) }
        #expect(throws: ScenarioError.self) { try Shard.fromEnvironment(["CI_NODE_INDEX": "4", "CI_NODE_TOTAL": "3"]) }
    }
}
