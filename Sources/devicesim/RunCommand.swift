import ArgumentParser
import DeviceSim
import Foundation

/// `devicesim run`: run scenario files in virtual time and check their expectations.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run scenario files in virtual time and check their expectations.",
        discussion: """
            Each argument is a scenario file or a folder searched recursively for .yaml/.yml files.
            Exit codes: 0 all passed, 1 a scenario failed, 2 invalid input or usage (the valid
            scenarios still run and are reported).

            Examples:
              devicesim run Scenarios
              devicesim run Scenarios/dog-walk/walk-2km.yaml --trace out/traces --junit out/junit.xml
              devicesim run Scenarios --seed 7
            """
    )

    @Argument(help: "Scenario files or folders.", completion: .file(extensions: ["yaml", "yml"]))
    var paths: [String]

    @Option(help: ArgumentHelp("Write each scenario's trace as JSON Lines into this folder.", valueName: "dir"))
    var trace: String?

    @Option(help: ArgumentHelp("Write a JUnit XML report to this file.", valueName: "file"))
    var junit: String?

    @Option(help: "Use this seed instead of each scenario's own.")
    var seed: UInt64?

    @Option(help: "Stop a scenario that runs more than this many events (a runaway bound).")
    var maxEvents: Int = 50_000_000

    @Option(help: "Colour in the summary: auto (on a terminal), always, never.")
    var color: ColorChoice = .auto

    @Flag(name: .shortAndLong, help: "Show every expectation, not only failed ones.")
    var verbose = false

    @Flag(name: .shortAndLong, help: "Print only failures and the final count.")
    var quiet = false

    func validate() throws {
        guard !paths.isEmpty else { throw ValidationError("Give at least one scenario file or folder, e.g. 'devicesim run Scenarios'.") }
        guard maxEvents > 0 else { throw ValidationError("--max-events must be greater than zero.") }
    }

    func run() throws {
        let out = Terminal.standardOutput
        let style = Style(enabled: color.enabled(for: out))
        let found = try ScenarioDiscovery.findOrExit(paths)

        let runner = ScenarioRunner(seedOverride: seed, limits: RunLimits(maximumVirtualTime: VirtualInstant(offset: ScenarioParser.maximumDuration), maximumEvents: maxEvents))
        var results: [ScenarioResult] = []
        var seconds: [Double] = []
        var invalid: [ScenarioError] = []
        let clock = ContinuousClock()
        let started = clock.now
        for item in found {
            let scenario: Scenario
            do {
                scenario = try ScenarioParser.parse(contentsOf: item.path)
            } catch {
                invalid.append(error)
                Terminal.standardError.write(style.red("error: ") + "\(error)\n")
                continue
            }
            let begin = clock.now
            let result = runner.run(scenario)
            let elapsed = begin.duration(to: clock.now).inSeconds
            results.append(result)
            seconds.append(elapsed)
            report(result, name: item.relativeName, seconds: elapsed, style: style)
            if let trace {
                try write(result.traceJSONLines, to: traceFile(in: trace, for: item.relativeName))
            }
        }
        let total = started.duration(to: clock.now).inSeconds
        if let junit {
            try write(JUnitReport().xml(for: results, invalid: invalid, seconds: seconds), to: junit)
        }

        let failed = results.filter { !$0.passed }.count
        let virtual = results.reduce(Duration.zero) { $0 + $1.scenario.duration }
        var summary = "\(results.count) scenario\(results.count == 1 ? "" : "s"): \(results.count - failed) passed, \(failed) failed"
        if !invalid.isEmpty { summary += ", \(invalid.count) invalid" }
        summary += style.dim(" (\(DurationText.format(virtual)) of virtual time in \(String(format: "%.2f", total)) s)")
        out.write((failed == 0 && invalid.isEmpty ? style.green(summary) : style.red(summary)) + "\n")
        if !invalid.isEmpty { throw ExitCode(2) }
        if failed > 0 { throw ExitCode(1) }
    }

    private func report(_ result: ScenarioResult, name: String, seconds: Double, style: Style) {
        let out = Terminal.standardOutput
        let timing = style.dim("(\(result.outcomes.count) expectations, \(DurationText.format(result.scenario.duration)) virtual, \(String(format: "%.3f", seconds)) s)")
        if result.passed {
            if !quiet { out.write("\(style.green("PASS"))  \(name) — \(result.scenario.name) \(timing)\n") }
        } else {
            out.write("\(style.red("FAIL"))  \(name) — \(result.scenario.name) \(timing)\n")
        }
        if let runError = result.runError {
            out.write("      \(style.red("✗")) \(runError)\n")
        }
        for outcome in result.outcomes where verbose || !outcome.passed {
            let mark = outcome.passed ? style.green("✓") : style.red("✗")
            out.write("      \(mark) expected \(outcome.expected); observed \(outcome.observed)\n")
            if !outcome.passed { out.write("        \(style.dim("at \(outcome.location)"))\n") }
        }
    }

    private func traceFile(in folder: String, for relativeName: String) -> String {
        var name = relativeName
        for suffix in [".yaml", ".yml"] where name.hasSuffix(suffix) { name.removeLast(suffix.count) }
        return folder + "/" + name + ".jsonl"
    }

    private func write(_ text: String, to path: String) throws {
        let url = URL(fileURLWithPath: path)
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url, options: .atomic)
        } catch {
            Terminal.standardError.write("error: cannot write \(path): \(error.localizedDescription)\n")
            throw ExitCode(2)
        }
    }
}
