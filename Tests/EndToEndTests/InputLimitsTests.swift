import Foundation
import Testing

/// Inputs that used to take memory or time without bound (a hang, gigabytes, a segfault): each now
/// trips a documented limit at once, with exit status 2 and a message naming the place and the
/// limit (issue 37).
@Suite struct InputLimitsTests {
    @Test func tracksThatAreNotRegularFilesAreRefusedWithTheReason() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("pipe.nmea")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let cases: [(String, String)] = [
            ("/dev/zero", "this is a device, not a regular file: only regular files are read as inputs"),
            ("/dev/urandom", "this is a device, not a regular file: only regular files are read as inputs"),
            (fifo.path, "this is a FIFO (named pipe), not a regular file: only regular files are read as inputs"),
            ("/proc/self/mem", "this is a file of the kernel's /proc or /sys file system, not a regular file: only regular files are read as inputs"),
        ]
        for (index, (track, reason)) in cases.enumerated() where FileManager.default.fileExists(atPath: track) {
            let file = folder.appendingPathComponent("track-\(index).yaml")
            try "name: odd track\nduration: 1m\ndevices:\n  - id: walker\n    track: { file: \(track) }\n".write(to: file, atomically: true, encoding: .utf8)
            try CLI.expectRunAndValidateRefuse(file, saying: "track-\(index).yaml:5:20: cannot read the track file \(track): \(reason)")
        }
    }

    @Test func aLoopingLogWithEveryFixAtOneTimeStopsWithItsBound() throws {
        func sentence(_ body: String) -> String {
            "$" + body + "*" + String(format: "%02X", body.utf8.reduce(0, ^)) + "\r\n"
        }
        let epoch = sentence("GPGGA,080000.00,5230.870000,N,01321.006000,E,1,09,0.9,35.0,M,0.0,M,,")
            + sentence("GPRMC,080000.00,A,5230.870000,N,01321.006000,E,2.72,90.0,010526,,,A")
        let folder = try CLI.folder([
            "stuck.nmea": String(repeating: epoch, count: 20_000),
            "stuck.yaml": "name: stuck\nduration: 1h\ndevices:\n  - id: walker\n    track: { file: stuck.nmea, loop: true }\n",
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = try CLI.run(["run", folder.appendingPathComponent("stuck.yaml").path], timeout: 60)
        #expect(output.status == 2, "\(output.standardOutput)\(output.standardError)")
        #expect(output.standardError.contains("stuck.nmea has more than 10000 sentences in a row without a new fix time"), "\(output.standardError)")
    }

    @Test func aWallOfBeaconsAtOneSpotStopsWithItsBound() throws {
        let beacons = (0..<1_500).map { "  - { ibeacon: { uuid: E2C56DB5-DFFB-48D2-B060-D0F5A71096E0, major: 1, minor: \($0) }, at: [52.5, 13.4] }" }
        let folder = try CLI.folder([
            "wall.yaml": "name: wall\nbeacons:\n" + beacons.joined(separator: "\n") + "\n",
            "scenario.yaml": "name: a wall of beacons\nworld: wall.yaml\nduration: 2m\ndevices:\n  - { id: walker, at: [52.5, 13.4] }\n",
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = try CLI.run(["run", folder.appendingPathComponent("scenario.yaml").path], timeout: 60)
        #expect(output.status == 2, "\(output.standardOutput)\(output.standardError)")
        #expect(output.standardError.contains("1500 beacons of the world 'wall' are in reach of one device") && output.standardError.contains("a phone ranges at most 1000 beacons at once"), "\(output.standardError)")
    }

    @Test func aStepTenYearsInWithoutADurationIsBoundedLikeADuration() throws {
        let folder = try CLI.folder(["late.yaml": "name: late\ndevices:\n  - { id: walker, at: [52.5, 13.4] }\ntimeline:\n  - { at: 3650d, do: gps-off }\n"])
        defer { try? FileManager.default.removeItem(at: folder) }
        try CLI.expectRunAndValidateRefuse(folder.appendingPathComponent("late.yaml"), saying: "late.yaml:5:5: this happens at 3650d, but a scenario runs at most 30d")
    }

    @Test func aHugeValueIsQuotedInOneShortExcerpt() throws {
        let value = String(repeating: "x", count: 3_000_000)
        let folder = try CLI.folder(["big.yaml": "name: big\nduration: 10s\ndevices:\n  - { id: walker, at: [52.5, 13.4], app: { name: dog-walk } }\ntimeline:\n  - { at: 1s, do: \(value) }\n"])
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = try CLI.run(["validate", folder.appendingPathComponent("big.yaml").path], timeout: 60)
        #expect(output.status == 2)
        #expect(output.standardError.contains("unknown action '" + String(repeating: "x", count: 120) + "… (2999880 more characters)'"), "\(output.standardError.prefix(300))")
        #expect(output.standardError.utf8.count < 2_000)
    }

    @Test func worldFilesAreLimitedToFourMebibytes() throws {
        let accessPoints = (0..<80_000).map { "      - { ssid: n\($0), bssid: \"02:00:\(String(format: "%02x:%02x:%02x", $0 >> 16 & 255, $0 >> 8 & 255, $0 & 255)):01\", at: [52.5, 13.4] }" }
        let folder = try CLI.folder([
            "big-world.yaml": "name: big world\nhotspots:\n  - name: h\n    area: { center: [52.5, 13.4], radius: 40 }\n    access-points:\n" + accessPoints.joined(separator: "\n") + "\n",
            "scenario.yaml": "name: in a big world\nworld: big-world.yaml\nduration: 10s\ndevices:\n  - { id: walker, at: [52.5, 13.4] }\n",
        ])
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent("big-world.yaml").path)[.size] as? Int ?? 0 > 4 << 20)
        for file in ["big-world.yaml", "scenario.yaml"] {
            let output = try CLI.run(["validate", folder.appendingPathComponent(file).path], timeout: 60)
            #expect(output.status == 2)
            #expect(output.standardError.contains("big-world.yaml: the file is more than 4194304 bytes; world files are limited to 4194304 bytes (4 MiB)"), "\(file): \(output.standardError)")
        }
    }
}
