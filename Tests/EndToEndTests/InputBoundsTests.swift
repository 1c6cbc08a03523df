import Foundation
import Testing

/// Numbers from input that used to stop the process with a Swift runtime trap (SIGILL): each is now
/// refused where it is read, with exit status 2 and a message naming the place and the range
/// (issue 37).
@Suite struct InputBoundsTests {
    @Test func aRouteSpeedOfAlmostNothingIsRefusedWithItsRange() throws {
        let folder = try CLI.folder(["crawl.yaml": """
            name: a crawl
            duration: 1m
            devices:
              - id: walker
                at: [52.5, 13.4]
                route:
                  speed: 1e-300
                  waypoints: [[52.6, 13.4]]
            """])
        defer { try? FileManager.default.removeItem(at: folder) }
        try CLI.expectRunAndValidateRefuse(folder.appendingPathComponent("crawl.yaml"), saying: "crawl.yaml:7:14: expected a speed: walk, run, bike, drive, or metres per second within 0.01...400")
        let export = try CLI.run(["nmea", "export", "--waypoints", "0,0;0,1", "--speed", "1e-300"])
        #expect(export.status == 2)
        #expect(export.standardError.contains("--speed must be walk, run, bike, drive or a number of metres per second from 0.01 to 400"))
    }

    @Test func thousandsOfLongPausesAreRefusedWhereTheyAddUpPastAScenariosLength() throws {
        let waypoints = (0..<4_000).map { "      - { at: [\(52.5 + Double($0 % 2) * 0.001), 13.4], pause: 29d }" }.joined(separator: "\n")
        let folder = try CLI.folder(["pauses.yaml": "name: pauses\nduration: 1m\ndevices:\n  - id: walker\n    at: [52.5, 13.4]\n    route:\n      waypoints:\n\(waypoints)\n"])
        defer { try? FileManager.default.removeItem(at: folder) }
        try CLI.expectRunAndValidateRefuse(folder.appendingPathComponent("pauses.yaml"), saying: "pauses.yaml:9:")
        try CLI.expectRunAndValidateRefuse(folder.appendingPathComponent("pauses.yaml"), saying: "the pauses of this route add up to 58d here, more than a scenario runs (at most 30d)")
    }

    @Test func aGPXTrackDatedOutsideItsYearsIsRefusedWithTheLine() throws {
        let gpx = { (first: String, second: String) in
            """
            <?xml version="1.0"?>
            <gpx version="1.1" creator="test"><trk><trkseg>
            <trkpt lat="52.5" lon="13.4"><time>\(first)</time></trkpt>
            <trkpt lat="52.6" lon="13.4"><time>\(second)</time></trkpt>
            </trkseg></trk></gpx>
            """
        }
        let folder = try CLI.folder([
            "far.gpx": gpx("2000-01-01T00:00:00Z", "9999-01-01T00:00:00Z"),
            "far.yaml": "name: far\nduration: 1m\ndevices:\n  - id: walker\n    track: { file: far.gpx }\n",
            "gap.gpx": gpx("2000-01-01T00:00:00Z", "9000-01-01T00:10:00Z"),
            "gap.yaml": "name: gap\nduration: 1m\ndevices:\n  - id: walker\n    track: { file: gap.gpx }\n",
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["far", "gap"] {
            try CLI.expectRunAndValidateRefuse(folder.appendingPathComponent("\(name).yaml"), saying: "\(name).gpx:4:")
            try CLI.expectRunAndValidateRefuse(folder.appendingPathComponent("\(name).yaml"), saying: "is outside the years 1970 to 2199 that a track's points may be dated")
        }
        let export = try CLI.run(["nmea", "export", "--gpx", folder.appendingPathComponent("far.gpx").path, "--out", folder.appendingPathComponent("far.nmea").path])
        #expect(export.status == 2)
        #expect(export.standardError.contains("far.gpx:4:") && export.standardError.contains("1970 to 2199"))
    }

    @Test func aTinyPlaybackSpeedFactorIsRefusedWithItsRange() throws {
        let log = CLI.repositoryRoot.appendingPathComponent("Simulator/tracks/tiergarten-walk.nmea").path
        let folder = try CLI.folder(["slow.yaml": "name: slow\nduration: 1m\ndevices:\n  - id: walker\n    track: { file: \(log), speed-factor: 1e-300 }\n"])
        defer { try? FileManager.default.removeItem(at: folder) }
        try CLI.expectRunAndValidateRefuse(folder.appendingPathComponent("slow.yaml"), saying: "speed-factor must be within 0.001...10000, found 1e-300")
    }

    @Test func traceTimesAndPositionsOutOfRangeAreNamedAndTheReportIsStillWritten() throws {
        let start = #"{"t":0.000,"event":"scenario.started","name":"x","seed":"1","devices":1}"#
        let folder = try CLI.folder([
            "t1e16.jsonl": start + "\n" + #"{"t":1e16,"device":"w","event":"marker.shown","lat":52.5,"lon":13.4}"# + "\n",
            "t93e9.jsonl": start + "\n" + #"{"t":9.3e9,"device":"w","event":"marker.shown","lat":52.5,"lon":13.4}"# + "\n",
            "far.jsonl": start + "\n" + #"{"t":1.000,"device":"w","event":"marker.shown","lat":1e300,"lon":1e308}"# + "\n",
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, message) in [("t1e16", "t 1e+16 is outside 0...1e9 seconds"), ("t93e9", "is outside 0...1e9 seconds"), ("far", "lat 1e+300 is outside -90...90 degrees")] {
            let report = folder.appendingPathComponent("\(name).html")
            let output = try CLI.run(["report", folder.appendingPathComponent("\(name).jsonl").path, "--out", report.path])
            #expect(output.status == 2, "\(name): \(output.standardError)")
            #expect(output.standardError.contains("\(name).jsonl:2:") && output.standardError.contains(message), "\(name): \(output.standardError)")
            #expect(FileManager.default.fileExists(atPath: report.path))
        }
    }

    @Test func resultsWhoseVirtualTimeIsOutOfRangeAreRefusedByReportAndMerge() throws {
        let line = { (virtual: String) in
            #"{"format":"devicesim-results/1","planSize":1}"# + "\n"
                + #"{"expectations":0,"failures":[],"name":"a.yaml","passed":true,"path":"a.yaml","position":0,"seed":1,"swept":false,"title":"a","virtualSeconds":"#
                + virtual + #","wallSeconds":0.1}"# + "\n"
        }
        let folder = try CLI.folder([
            "huge.jsonl": line("1e300"), "past.jsonl": line("9.3e9"),
            "trace.jsonl": #"{"t":0.000,"event":"scenario.started","name":"x","seed":"1","devices":1}"# + "\n",
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["huge", "past"] {
            let results = folder.appendingPathComponent("\(name).jsonl").path
            for arguments in [["merge", results], ["report", folder.appendingPathComponent("trace.jsonl").path, "--results", results, "--out", folder.appendingPathComponent("r.html").path]] {
                let output = try CLI.run(arguments)
                #expect(output.status == 2, "\(arguments): \(output.standardOutput)\(output.standardError)")
                #expect(output.standardError.contains("\(name).jsonl:2: virtualSeconds") && output.standardError.contains("is outside 0...2592000"), "\(output.standardError)")
                #expect(!output.standardOutput.contains("-9"), "no negative virtual time: \(output.standardOutput)")
            }
        }
    }

    @Test func shardVariablesAsLargeAsIntMaxAreRefusedByName() throws {
        for (index, total) in [("TEST_SHARD_INDEX", "TEST_TOTAL_SHARDS"), ("BUILDKITE_PARALLEL_JOB", "BUILDKITE_PARALLEL_JOB_COUNT"), ("JOB_COMPLETION_INDEX", "DEVICESIM_SHARD_COUNT")] {
            let output = try CLI.run(["run", "Scenarios/dog-walk/01-starting-the-app.yaml"], environment: [index: "\(Int.max)", total: "2"])
            #expect(output.status == 2, "\(index): \(output.standardError)")
            #expect(output.standardError.contains("\(index)=\(Int.max) is out of range: shards are numbered from 0 to 1"), "\(output.standardError)")
        }
        let count = try CLI.run(["run", "Scenarios/dog-walk/01-starting-the-app.yaml", "--shard", "1/\(Int.max)"])
        #expect(count.status == 2 && count.standardError.contains("the count must be within 1...10000"), "\(count.standardError)")
    }

    @Test func durationsAsLongAsAnInt64OfNanosecondsAreRefused() throws {
        let folder = try CLI.folder([
            "seconds.yaml": "name: long\nduration: 9999999999\ndevices:\n  - { id: walker, at: [52.5, 13.4] }\n",
            "parts.yaml": "name: long\nduration: 1s\ndevices:\n  - { id: walker, at: [52.5, 13.4] }\ntimeline:\n  - { at: 11000d11000d11000d11000d11000d11000d11000d11000d11000d11000d, do: gps-off }\n",
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        try CLI.expectRunAndValidateRefuse(folder.appendingPathComponent("seconds.yaml"), saying: "seconds.yaml:2:11: 9999999999 is longer than any duration can be (about 31 years; a scenario runs at most 30 days)")
        try CLI.expectRunAndValidateRefuse(folder.appendingPathComponent("parts.yaml"), saying: "parts.yaml:6:11: 11000d11000d11000d11000d11000d11000d11000d11000d11000d11000d is longer than any duration can be")
    }

    @Test func campusGamePointsPastTheirBoundAreRefusedByValidate() throws {
        let folder = try CLI.folder(["game.yaml": """
            name: greedy
            objectives:
              - { id: library, at: [52.5108, 13.3305], radius: 30, points: \(Int.max) }
            """])
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = try CLI.run(["validate", folder.appendingPathComponent("game.yaml").path])
        #expect(output.status == 2)
        #expect(output.standardError.contains("game.yaml:3:") && output.standardError.contains("points must be within 1...1000000"), "\(output.standardError)")
    }
}
