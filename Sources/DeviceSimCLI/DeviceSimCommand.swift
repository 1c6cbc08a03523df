import ArgumentParser
import Foundation

/// `devicesim`: run mobile-app flows against a simulated (or live) device.
struct DeviceSimCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devicesim",
        abstract: "Run mobile-app flows against a simulated phone: scenarios in virtual time, NMEA tools, live GPS through gpsd.",
        discussion: """
            Exit codes: 0 every scenario passed, 1 a scenario failed or an output could not be written during or after the run, 2 invalid input or usage (including an output that is one of the command's inputs or another output, and one that cannot be created before the run); live and record: 3 gpsd was never reached.
            """,
        version: "0.1.0",
        subcommands: [
            RunCommand.self,
            ValidateCommand.self,
            NMEACommand.self,
            MergeCommand.self,
            ReportCommand.self,
            ServeCommand.self,
        ] + liveGPSSubcommands
    )

    /// Parses and runs the command, mapping outcomes onto the documented exit codes
    /// (usage errors exit 2, not ArgumentParser's 64).
    static func main() {
        let code: Int32
        do {
            var command = try parseAsRoot()
            try command.run()
            code = 0
        } catch let exit as ExitCode {
            code = exit.rawValue
        } catch {
            let status = exitCode(for: error)
            let message = fullMessage(for: error)
            if status == .success {
                if !message.isEmpty { Terminal.standardOutput.write(message + "\n") }
                code = 0
            } else {
                if !message.isEmpty { Terminal.standardError.write(message + "\n") }
                code = 2
            }
        }
        Foundation.exit(code)
    }
}
