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

    /// Shards of different runs of the same size (issue: `--seeds 1-5` shards 1/3 and 3/3 with
    /// `--seeds 6-10` shard 2/3 merged into "210 runs: 210 passed").
    @Test func shardsOfDifferentRunsOfOneSizeAreRefused() throws {
        let files = #""scenarios":"2 files, fnv1a 00000000000000aa""#
        let cases: [(other: String, message: String)] = [
            (#""scenarios":"2 files, fnv1a 00000000000000aa","seeds":"6-8""#, "(--seeds 1-3 and --seeds 6-8)"),
            (#""scenarios":"2 files, fnv1a 00000000000000bb","seeds":"1-3""#, "(scenario files 2 files, fnv1a 00000000000000aa and 2 files, fnv1a 00000000000000bb)"),
            (#""scenarios":"2 files, fnv1a 00000000000000aa","seed":7,"seeds":"1-3""#, "(the scenarios' own seeds and --seed 7)"),
        ]
        for (other, message) in cases {
            let first = Self.results(shard: "1/2", planSize: 6, positions: [0, 2, 4]).replacingOccurrences(of: #""shard""#, with: files + #","seeds":"1-3","shard""#)
            let second = Self.results(shard: "2/2", planSize: 6, positions: [1, 3, 5]).replacingOccurrences(of: #""shard""#, with: other + #","shard""#)
            let output = try Self.merge(["1.jsonl": first, "2.jsonl": second])
            #expect(output.status == 2, "\(output.standardOutput)")
            #expect(output.standardError.contains("1.jsonl and "), "\(output.standardError)")
            #expect(output.standardError.contains("2.jsonl come from different runs \(message): merge the shards of one run"), "\(output.standardError)")
            #expect(!output.standardOutput.contains("passed"))
        }
    }

    /// Real shards: what `run` records tells `--seeds 1-2` from `--seeds 3-4`, and `merge` and
    /// `report --results` refuse them together; the shards of one run merge, and the merged
    /// results keep the run's identity.
    @Test func runRecordsItsIdentityAndMergeAndReportRefuseShardsOfTwoRuns() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["a", "b"] {
            try """
                name: \(name)
                duration: 10s
                devices: [{ id: walker, at: [52.5, 13.4] }]
                """.write(to: folder.appendingPathComponent("\(name).yaml"), atomically: true, encoding: .utf8)
        }
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        for (seeds, shard, file) in [("1-2", "1/2", "1.jsonl"), ("3-4", "2/2", "2.jsonl"), ("1-2", "2/2", "2b.jsonl")] {
            let run = try CLI.run(["run", path("a.yaml"), path("b.yaml"), "--seeds", seeds, "--shard", shard, "--results", path(file), "-q"])
            #expect(run.status == 0, "\(run.standardError)")
        }
        let header = try String(contentsOfFile: path("1.jsonl"), encoding: .utf8).split(separator: "\n")[0]
        #expect(header.contains(#""seeds":"1-2""#) && header.contains(#""scenarios":"2 files, fnv1a "#), "\(header)")
        let mixed = try CLI.run(["merge", path("1.jsonl"), path("2.jsonl")])
        #expect(mixed.status == 2)
        #expect(mixed.standardError.contains("\(path("1.jsonl")) and \(path("2.jsonl")) come from different runs (--seeds 1-2 and --seeds 3-4)"), "\(mixed.standardError)")
        let report = try CLI.run(["report", folder.path, "--results", path("1.jsonl"), path("2.jsonl"), "--out", path("r.html")])
        #expect(report.status == 2)
        #expect(report.standardError.contains("come from different runs (--seeds 1-2 and --seeds 3-4): give the results files of one run"), "\(report.standardError)")
        let merged = try CLI.run(["merge", path("1.jsonl"), path("2b.jsonl"), "--results", path("m.jsonl")])
        #expect(merged.status == 0, "\(merged.standardError)")
        #expect(merged.standardOutput.contains("4 runs: 4 passed"), "\(merged.standardOutput)")
        let mergedHeader = try String(contentsOfFile: path("m.jsonl"), encoding: .utf8).split(separator: "\n")[0]
        #expect(mergedHeader == header.replacingOccurrences(of: #","shard":"1/2""#, with: ""), "\(mergedHeader)")
        // The merged results with one of its shards is not one run either.
        let twice = try CLI.run(["report", folder.path, "--results", path("m.jsonl"), path("1.jsonl"), "--out", path("r.html")])
        #expect(twice.status == 2)
        #expect(twice.standardError.contains("(a whole run) and \(path("1.jsonl")) (shard 1/2) do not make up one run"), "\(twice.standardError)")
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
