import Foundation
import Testing

/// Option values that start with '-' reach the option: coordinates south and west of zero, and
/// numbers out of range, which are refused saying so (not "Missing value").
@Suite struct NegativeOptionValuesTests {
    @Test func waypointsSouthAndWestAreTakenWithASpaceBeforeThem() throws {
        let output = try CLI.run(["nmea", "export", "--waypoints", "-33.8688,151.2093;-33.87,151.21"])
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardOutput.hasPrefix("$GPGGA,000000.00,3352.128000,S,15112.558000,E,"), "\(output.standardOutput.prefix(200))")
        let west = try CLI.run(["nmea", "export", "--waypoints", "-22.9,-43.2;-22.91,-43.21", "--interval", "10s"])
        #expect(west.status == 0, "\(west.standardError)")
        #expect(west.standardOutput.contains(",S,04312.000000,W,"), "\(west.standardOutput.prefix(200))")
    }

    @Test func negativeNumbersAreRefusedAsOutOfRange() throws {
        let scenario = "Scenarios/dog-walk/01-starting-the-app.yaml"
        let cases: [([String], String)] = [
            (["run", scenario, "--jobs", "-1"], "--jobs must be 1 or more, found -1."),
            (["run", scenario, "--max-events", "-5"], "--max-events must be 1 or more, found -5."),
            (["run", scenario, "--shard-count", "-2"], "--shard-count must be 1 or more, found -2."),
            (["run", scenario, "--seed", "-1"], "-1 is out of range: a seed is a whole number from 0 to 18446744073709551615."),
            (["report", "out", "--out", "r.html", "--detailed", "-1"], "--detailed must be 0 or more, found -1."),
            (["nmea", "decode", "x.nmea", "--threads", "-3"], "--threads must be between 1 and 256, found -3."),
            (["serve", scenario, "--nmea-tcp", "0", "--speed", "-2"], "--speed must be from 0.001 to 10000 virtual seconds per wall second, found -2.0."),
            (["serve", scenario, "--nmea-tcp", "0", "--duration", "-5s"], "--duration must be longer than 0s, found -5s."),
        ]
        for (arguments, message) in cases {
            let output = try CLI.run(arguments)
            #expect(output.status == 2, "\(arguments): \(output.standardError)")
            #expect(output.standardError.contains(message), "\(arguments): \(output.standardError)")
            #expect(!output.standardError.contains("Missing value"), "\(arguments): \(output.standardError)")
        }
    }

    #if os(Linux)
    @Test func recordAndLiveRefuseADurationOfZeroOrLess() throws {
        for arguments in [["record", "--out", "/tmp/never-written.nmea"], ["live", "Scenarios/dog-walk/walk-2km.yaml"]] {
            for duration in ["0s", "0", "-5s"] {
                let output = try CLI.run(arguments + ["--gpsd", "127.0.0.1:9", "--duration", duration], timeout: 30)
                #expect(output.status == 2, "\(arguments) \(duration): \(output.standardError)")
                #expect(output.standardError.contains("--duration must be longer than 0s, found \(duration)."), "\(output.standardError)")
            }
        }
        #expect(!FileManager.default.fileExists(atPath: "/tmp/never-written.nmea"))
    }
    #endif
}
