import Foundation
import Testing

/// `merge` checks every shard's results against its share of the plan: a run missing (a job killed
/// while writing), given twice, or of another shard is an error naming the file and the run, unless
/// `--allow-partial` accepts partial results (issue 38, item 5).
@Suite struct MergePlanTests {
    /// A results file of shard `shard` (nil: a whole run) of a plan of `planSize` runs, holding the runs at `positions`.
    static func results(shard: String?, planSize: Int = 6, positions: [Int]) -> String {
        let header = shard.map { #"{"format":"devicesim-results/1","planSize":\#(planSize),"shard":"\#($0)"}"# } ?? #"{"format":"devicesim-results/1","planSize":\#(planSize)}"#
        return ([header] + positions.map { position in
            #"{"expectations":1,"failures":[],"name":"s\#(position).yaml","passed":true,"path":"s\#(position).yaml","position":\#(position),"seed":1,"swept":false,"title":"scenario \#(position)","virtualSeconds":60,"wallSeconds":0.01}"#
        }).joined(separator: "\n") + "\n"
    }

    /// `merge` of files named `names` written with `contents`.
    static func merge(_ contents: [String: String], _ extra: [String] = []) throws -> CLI.Output {
        let folder = try CLI.folder(contents)
        defer { try? FileManager.default.removeItem(at: folder) }
        return try CLI.run(["merge"] + contents.keys.sorted().map { folder.appendingPathComponent($0).path } + extra)
    }

    @Test func completeShardsMergeIntoOneRun() throws {
        let output = try Self.merge(["1.jsonl": Self.results(shard: "1/2", positions: [0, 2, 4]), "2.jsonl": Self.results(shard: "2/2", positions: [1, 3, 5])])
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardOutput.contains("6 scenarios: 6 passed, 0 failed"))
    }

    @Test func aShardCutShortIsNamedAndFailsTheMerge() throws {
        var cut = Self.results(shard: "2/2", positions: [1, 3, 5])
        cut.removeLast(40)   // the job was killed while writing its last line
        let output = try Self.merge(["1.jsonl": Self.results(shard: "1/2", positions: [0, 2, 4]), "2.jsonl": cut])
        #expect(output.status == 2, "\(output.standardOutput)")
        #expect(output.standardError.contains("2.jsonl:4: the results file ends in the middle of a line: it was cut short"), "\(output.standardError)")
        #expect(!output.standardOutput.contains("passed"))
    }

    @Test func aMissingRunIsNamedWithItsShardFile() throws {
        let output = try Self.merge(["1.jsonl": Self.results(shard: "1/2", positions: [0, 2, 4]), "2.jsonl": Self.results(shard: "2/2", positions: [1, 5])])
        #expect(output.status == 2)
        #expect(output.standardError.contains("2.jsonl (shard 2/2) misses 1 of its 3 runs: #3"), "\(output.standardError)")
    }

    @Test func aRunOutsideThePlanOrOfAnotherShardOrGivenTwiceIsNamed() throws {
        let cases: [(positions: [Int], planSize: Int, message: String)] = [
            ([1, 3, 5, 7], 6, "2.jsonl:5: position 7 is outside the plan of 6 runs"),
            ([1, 3, 4], 6, "2.jsonl: run #4 (s4.yaml, seed 1) belongs to shard 1/2, not to this file's shard 2/2"),
            ([1, 3, 3, 5], 6, "2.jsonl holds run #3 (s3.yaml, seed 1) twice"),
        ]
        for (positions, planSize, message) in cases {
            let output = try Self.merge(["1.jsonl": Self.results(shard: "1/2", planSize: planSize, positions: [0, 2, 4]), "2.jsonl": Self.results(shard: "2/2", planSize: planSize, positions: positions)])
            #expect(output.status == 2, "\(positions)")
            #expect(output.standardError.contains(message), "\(positions): \(output.standardError)")
        }
    }

    @Test func partialResultsAreMergedOnlyWhenAskedForAndSayWhatIsMissing() throws {
        var cut = Self.results(shard: "2/3", planSize: 9, positions: [1, 4, 7])
        cut.removeLast(40)
        let contents = ["1.jsonl": Self.results(shard: "1/3", planSize: 9, positions: [0, 3, 6]), "2.jsonl": cut]
        let refused = try Self.merge(contents)
        #expect(refused.status == 2)
        let partial = try Self.merge(contents, ["--allow-partial"])
        #expect(partial.status == 1, "\(partial.standardOutput)\(partial.standardError)")
        #expect(partial.standardError.contains("missing shard 3/3 (1 of 3)"), "\(partial.standardError)")
        #expect(partial.standardError.contains("2.jsonl (shard 2/3) misses 1 of its 3 runs: #7"), "\(partial.standardError)")
        #expect(partial.standardOutput.contains("5 scenarios: 5 passed, 0 failed"), "\(partial.standardOutput)")
        #expect(partial.standardOutput.contains("4 of 9 runs missing (--allow-partial): these results are partial"), "\(partial.standardOutput)")
    }

    @Test func aWholeRunMissingARunIsRefusedToo() throws {
        let output = try Self.merge(["whole.jsonl": Self.results(shard: nil, planSize: 3, positions: [0, 2])])
        #expect(output.status == 2)
        #expect(output.standardError.contains("whole.jsonl (a whole run) misses 1 of its 3 runs: #1"), "\(output.standardError)")
    }

    @Test func mergeRefusesAShardCountPastTenThousandWithoutAllocatingForIt() throws {
        for count in ["100000000", "\(Int.max)"] {
            let folder = try CLI.folder(["shard.jsonl": #"{"format":"devicesim-results/1","planSize":1,"shard":"1/"# + count + #""}"# + "\n"])
            defer { try? FileManager.default.removeItem(at: folder) }
            let output = try CLI.run(["merge", folder.appendingPathComponent("shard.jsonl").path], timeout: 30)
            #expect(output.status == 2, "\(output.standardError)")
            #expect(output.standardError.contains("shard.jsonl:1: a run cannot be split into \(count) shards; the count must be within 1...10000"), "\(output.standardError)")
        }
    }

    @Test func missingShardsAreCountedWithAFewNamesNotListedOneByOne() throws {
        let folder = try CLI.folder(["shard.jsonl": #"{"format":"devicesim-results/1","planSize":1,"shard":"1/10000"}"# + "\n"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = try CLI.run(["merge", folder.appendingPathComponent("shard.jsonl").path])
        #expect(output.status == 2)
        #expect(output.standardError.contains("missing shards 2/10000, 3/10000, 4/10000, 5/10000, 6/10000 and 9994 more (9999 of 10000)"), "\(output.standardError)")
        #expect(output.standardError.utf8.count < 1_000)
    }
}
