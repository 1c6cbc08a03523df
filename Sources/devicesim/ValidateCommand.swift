import ArgumentParser
import DeviceSim

/// `devicesim validate`: check scenario files without running them.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check scenario files without running them.",
        discussion: """
            Prints 'file:line:column: message' for each invalid file. Exit codes: 0 all valid,
            2 at least one invalid file or a usage error.
            """
    )

    @Argument(help: "Scenario files or folders.", completion: .file(extensions: ["yaml", "yml"]))
    var paths: [String]

    @Flag(name: .shortAndLong, help: "Print only errors.")
    var quiet = false

    func validate() throws {
        guard !paths.isEmpty else { throw ValidationError("Give at least one scenario file or folder.") }
    }

    func run() throws {
        let found = try ScenarioDiscovery.findOrExit(paths)
        var invalid = 0
        for item in found {
            do {
                let scenario = try ScenarioParser.parse(contentsOf: item.path)
                if !quiet {
                    Terminal.standardOutput.write("ok     \(item.path) — \(scenario.name) (\(scenario.devices.count) device\(scenario.devices.count == 1 ? "" : "s"), \(scenario.timeline.count) steps, \(scenario.expectations.count) expectations)\n")
                }
            } catch {
                invalid += 1
                Terminal.standardError.write("\(error)\n")
            }
        }
        if !quiet { Terminal.standardOutput.write("\(found.count) file\(found.count == 1 ? "" : "s"), \(invalid) invalid\n") }
        if invalid > 0 { throw ExitCode(2) }
    }
}
