import ArgumentParser
import DeviceSimScenario
import Foundation

/// The whole `devicesim` command line (run, validate, nmea, merge, live, record, report, ...) as a library,
/// so a package can ship its own `devicesim` with its own apps registered.
///
/// A user's executable target depends on the `DeviceSimCLI` product and has a three-line `main.swift`:
///
/// ```swift
/// import DeviceSimCLI
///
/// DeviceSimCommandLine.main(apps: [CommuteScenarioApp.self])
/// ```
///
/// Scenario files then name `commute` like a bundled app: `my-devicesim validate Scenarios` checks its
/// settings and actions, `my-devicesim run Scenarios` runs them with traces, expectations and reports.
public enum DeviceSimCommandLine {
    /// Parses `arguments` (without the program's name) and runs the command in this process, returning
    /// the exit code `main` would exit with instead of exiting; messages go to standard error as usual.
    /// For harnesses that drive many commands in one process (the fuzz targets in Tests/Fuzz); `run` and
    /// `validate` still exit the process when a path names no scenario file.
    ///
    /// ```swift
    /// let status = DeviceSimCommandLine.run(arguments: ["merge", "out/1.jsonl", "--junit", "out/junit.xml"])
    /// ```
    public static func run(arguments: [String]) -> Int32 {
        DeviceSimCommand.status(running: arguments)
    }

    /// Registers `apps` next to the bundled ones, parses the process's arguments, runs the command and
    /// exits with the documented code (0 passed, 1 a scenario failed, 2 invalid input or usage).
    ///
    /// On Linux, `run` of a fleet restarts the process once, after finding its scenario files, with
    /// glibc's malloc on transparent huge pages when the kernel offers them on request
    /// (`DEVICESIM_HUGE_PAGES=0`: never, `=1`: for any run).
    ///
    /// When one of `apps` runs on the main actor (``DeviceSimScenario/ScenarioApp/runsOnMainActor``), the
    /// command runs on a thread of its own and the main thread serves the main actor, which drives the
    /// scenarios running such an app, one at a time (other scenarios still run in parallel).
    public static func main(apps: [any ScenarioApp.Type] = []) {
        do {
            try ScenarioAppRegistry.register(apps)
        } catch {
            Terminal.standardError.write("error: cannot register the apps: \(error)\n")
            Foundation.exit(2)
        }
        guard apps.contains(where: { $0.runsOnMainActor }) else { return DeviceSimCommand.main() }
        let command = Thread { DeviceSimCommand.main() }   // ends the process
        command.stackSize = 16 << 20
        command.start()
        // The main thread itself serves the main queue (not `dispatchMain()`, whose main queue borrows
        // Dispatch's worker threads, which the scenario workers waiting for main-actor runs may all hold).
        while true { _ = RunLoop.main.run(mode: .default, before: .distantFuture) }
    }
}
