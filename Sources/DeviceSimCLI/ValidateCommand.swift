import ArgumentParser
import DeviceSimScenario
import DeviceSimSimulated
import Foundation

/// `devicesim validate`: check scenario files and world files without running them.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check scenario files and world files without running them.",
        discussion: """
            Prints 'file:line:column: message' for each invalid file. A world file (one with hotspots, beacons, places, roads or radio settings and no devices) and a campus game file (objectives and no devices) are checked on their own; for a world, and for the world a scenario names, validate also warns ('file:line:column: warning: ...') about hotspots whose access points cannot cover their area at the app's default -70 dBm. Warnings do not change the exit code. Exit codes: 0 all valid, 2 at least one invalid file or a usage error.

            Examples:
              devicesim validate Scenarios
              devicesim validate Simulator/worlds/campus.yaml
              devicesim validate Simulator/games/tu-campus.yaml
            """
    )

    @Argument(help: "Scenario files, world files, game files or folders.", completion: .file(extensions: ["yaml", "yml"]))
    var paths: [String]

    @Flag(name: .shortAndLong, help: "Print only errors and warnings.")
    var quiet = false

    func validate() throws {
        guard !paths.isEmpty else { throw ValidationError("Give at least one scenario file, world file or folder.") }
    }

    func run() throws {
        let found = try ScenarioDiscovery.findOrExit(paths)
        var invalid = 0
        var worldsWarned = Set<String>()
        func warn(aboutWorld path: String, _ check: WorldCheck) {
            guard worldsWarned.insert(URL(fileURLWithPath: path).standardizedFileURL.path).inserted else { return }
            for warning in check.warnings { Terminal.standardError.write("\(warning)\n") }
        }
        for item in found {
            do {
                if let refusal = item.refusalError { throw refusal }
                let kind = YAMLFileKind(contentsOf: item.path)
                if kind == .appData, let summary = try ScenarioAppRegistry.validateDataFile(atPath: item.path) {
                    if !quiet { Terminal.standardOutput.write("ok     \(item.path) — \(summary)\n") }
                    continue
                }
                if kind == .world {
                    let check = try WorldCheck(contentsOf: item.path)
                    warn(aboutWorld: item.path, check)
                    if !quiet {
                        let world = check.world
                        Terminal.standardOutput.write("ok     \(item.path) — world \(MessageText.excerpt(world.name)) (\(Plural.count(world.hotspots.count, "hotspot")), \(Plural.count(world.accessPoints.count, "access point")), \(Plural.count(world.beacons.count, "beacon")))\n")
                    }
                    continue
                }
                let scenario = try ScenarioParser.parse(contentsOf: item.path)
                if let worldPath = WorldCheck.worldPath(of: scenario), let check = try? WorldCheck(contentsOf: worldPath) {
                    warn(aboutWorld: worldPath, check)
                }
                if scenario.expectations.isEmpty {
                    Terminal.standardError.write("\(item.path):1:1: warning: no expectations, so the scenario passes whatever the app does: add an 'expect:' list\n")
                }
                if !quiet {
                    Terminal.standardOutput.write("ok     \(item.path) — \(MessageText.excerpt(scenario.name)) (\(Plural.count(scenario.devices.count, "device")), \(Plural.count(scenario.timeline.count, "step")), \(Plural.count(scenario.expectations.count, "expectation")))\n")
                }
            } catch {
                invalid += 1
                // Its lines (a YAML error's line and caret) kept, the file's control characters escaped.
                Terminal.standardError.write(MessageText.escapingControlsKeepingLines("\(error)") + "\n")
            }
        }
        if !quiet { Terminal.standardOutput.write("\(Plural.count(found.count, "file")), \(invalid) invalid\n") }
        if invalid > 0 { throw ExitCode(2) }
    }
}
