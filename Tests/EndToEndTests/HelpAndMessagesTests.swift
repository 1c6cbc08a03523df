import Foundation
import Testing

/// One meaning per option name across subcommands, singulars for one, and a warning for a scenario
/// that checks nothing (issue 36, item 7).
@Suite struct HelpAndMessagesTests {
    @Test func recordNamesItsGpsdDeviceAsLiveDoesAndKeepsTheOldSpellingHidden() throws {
        let help = try CLI.run(["record", "--help"]).standardOutput
        #expect(help.contains("--gpsd-device <path>"), "\(help)")
        #expect(!help.contains("--device <"), "--device names a scenario device in live and serve: \(help)")
        let live = try CLI.run(["live", "--help"]).standardOutput
        #expect(live.contains("--device <id>") && live.contains("--gpsd-device <path>"), "\(live)")
        // The old spelling still parses (it fails later, for the unreachable gpsd, not as an unknown option).
        let old = try CLI.run(["record", "--gpsd", "127.0.0.1:1", "--out", "/dev/null", "--device", "/dev/ttyACM0", "--duration", "1s", "-q"], timeout: 60)
        #expect(old.status == 3, "\(old.standardError)")
    }

    @Test func validateWarnsAboutAScenarioWithoutExpectationsAndCountsInTheSingular() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("nothing.yaml")
        try "name: nothing checked\ndevices: [{ id: a, at: [52.5, 13.4] }]\ntimeline:\n  - { at: 1s, do: gps-off }\n".write(to: file, atomically: true, encoding: .utf8)
        let output = try CLI.run(["validate", file.path])
        #expect(output.status == 0)
        #expect(output.standardError.contains("nothing.yaml:1:1: warning: no expectations, so the scenario passes whatever the app does"), "\(output.standardError)")
        #expect(output.standardOutput.contains("(1 device, 1 step, 0 expectations)"), "\(output.standardOutput)")
        #expect(output.standardOutput.contains("1 file, 0 invalid"), "\(output.standardOutput)")
    }
}
