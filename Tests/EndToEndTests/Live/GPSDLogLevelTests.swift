import DeviceSimTestSupport
import Foundation
import Testing

/// `record` and `live` print swift-log diagnostics ("info devicesim.gpsd: connected to gpsd") only
/// when DEVICESIM_LOG_LEVEL asks for them, as docs/live-gpsd-and-serve.md says.
@Suite struct GPSDLogLevelTests {
    @Test func connectedToGpsdIsADiagnosticShownOnlyWithDevicesimLogLevelInfo() throws {
        let fake = try LiveAgainstMisbehavingGPSDTests.outOfRange()
        defer { fake.stop() }
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let commands = [
            ["record", "--gpsd", "127.0.0.1:\(fake.port)", "--out", folder.appendingPathComponent("r.nmea").path, "--duration", "1s", "-q"],
            ["live", "--gpsd", "127.0.0.1:\(fake.port)", try LiveAgainstMisbehavingGPSDTests.scenarioWithoutNever(in: folder), "--duration", "1s", "-q"],
        ]
        for arguments in commands {
            let quiet = try CLI.run(arguments, environment: ["DEVICESIM_LOG_LEVEL": ""], timeout: 60)
            #expect(quiet.status == 0, "\(arguments): \(quiet.standardError)\n\(quiet.standardOutput)")
            #expect(!quiet.standardError.contains("devicesim.gpsd"), "\(arguments): \(quiet.standardError)")
            let told = try CLI.run(arguments, environment: ["DEVICESIM_LOG_LEVEL": "info"], timeout: 60)
            #expect(told.standardError.contains("info devicesim.gpsd: connected to gpsd endpoint=127.0.0.1:\(fake.port)"), "\(arguments): \(told.standardError)")
        }
    }
}
