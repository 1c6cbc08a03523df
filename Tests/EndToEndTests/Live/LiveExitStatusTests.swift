import DeviceSimTestSupport
import Foundation
import Testing

/// `devicesim live` exits 1 when an expectation fails, as `serve` does; an expectation whose window
/// the run never reached (it stopped early) is said as not judged and does not fail it (issue 36, 5).
@Suite struct LiveExitStatusTests {
    static let scenario = """
        name: live exit status
        devices:
          - id: walker
            at: [52.5145, 13.3501]
            app: { name: dog-walk }
        timeline:
          - { at: 0s, do: start-service }
        expect:
          - { event: service.started, within: [0s, 2s] }
        %@
        duration: 10m
        """

    /// A gpsd with a receiver standing still where the walker is.
    static func standingStill() throws -> FakeGPSD {
        try FakeGPSD.standingStill(latitude: "52.5145", longitude: "13.3501")
    }

    func live(_ expectation: String) throws -> CLI.Output {
        let fake = try Self.standingStill()
        defer { fake.stop() }
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("live.yaml")
        try Self.scenario.replacingOccurrences(of: "%@", with: expectation).write(to: file, atomically: true, encoding: .utf8)
        return try CLI.run(["live", "--gpsd", "127.0.0.1:\(fake.port)", file.path, "--duration", "3s", "-q"], timeout: 60)
    }

    @Test func aFailedExpectationExits1() throws {
        let output = try live("  - { event: service.stopped, within: [0s, 2s] }")
        #expect(output.status == 1, "\(output.standardOutput)\(output.standardError)")
        #expect(output.standardOutput.contains("  ✗ expected at least 1 'service.stopped' within [0s, 2s]; observed 0 found"), "\(output.standardOutput)")
        #expect(output.standardOutput.contains("  ✓ expected at least 1 'service.started'"))
    }

    @Test func anExpectationAfterAnEarlyStopIsNotJudgedAndDoesNotFailTheRun() throws {
        let output = try live("  - { event: service.stopped, within: [5m, 6m] }")
        #expect(output.status == 0, "\(output.standardOutput)\(output.standardError)")
        #expect(output.standardOutput.contains("  – not judged (the run stopped at 3s, before the end of its window [5m, 6m]): expected at least 1 'service.stopped'"), "\(output.standardOutput)")
    }
}
