import ArgumentParser
import DeviceSimScenario
import DeviceSimSimulated
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
        Foundation.exit(status(running: Array(CommandLine.arguments.dropFirst())))
    }

    /// Parses `arguments` (without the program's name), runs the command and returns its documented
    /// exit code; help and errors are printed as ``main()`` prints them.
    static func status(running arguments: [String]) -> Int32 {
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
            return 0
        } catch let exit as ExitCode {
            return exit.rawValue
        } catch {
            if let unknown = unknownSubcommandMessage(arguments) {
                Terminal.standardError.write(unknown + "\n")
                return 2
            }
            let status = exitCode(for: error)
            let message = fullMessage(for: error)
            if status == .success {
                if !message.isEmpty { Terminal.standardOutput.write(message + "\n") }
                return 0
            }
            if !message.isEmpty { Terminal.standardError.write(message + "\n") }
            return 2
        }
    }

    /// For a first argument that names no subcommand but is close to one (`devicesim rn`): the error
    /// that says which was meant; nil otherwise (ArgumentParser's own message stands).
    static func unknownSubcommandMessage(_ arguments: [String]) -> String? {
        guard let word = arguments.first, !word.hasPrefix("-") else { return nil }
        let names = configuration.subcommands.compactMap { $0.configuration.commandName } + ["help"]
        guard !names.contains(word), let suggestion = NearestWord.suggest(for: word, among: names) else { return nil }
        return "error: '\(MessageText.escapingControls(word))' is not a devicesim command; did you mean `\(suggestion)`? (devicesim --help lists them)"
    }
}
