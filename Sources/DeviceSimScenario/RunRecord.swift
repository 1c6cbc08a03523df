import Foundation
import DeviceSimSimulated

/// What one (scenario, seed) pair of a run came to, in a form that can be saved and merged:
/// `devicesim run --results FILE` writes one per line (JSON Lines), and `devicesim merge` joins the
/// files of several shards into the result of one run.
///
/// ```swift
/// let record = RunRecord(result, position: 3, path: "Scenarios/a.yaml", name: "a.yaml", swept: false, wallSeconds: 0.02)
/// record.passed
/// ```
public struct RunRecord: Codable, Sendable, Hashable {
    /// A failed expectation.
    public struct Failure: Codable, Sendable, Hashable {
        /// `file:line:column` of the expectation.
        public var location: String
        /// What was expected.
        public var expected: String
        /// What was observed.
        public var observed: String
    }

    /// The pair's place in the whole run's order (files sorted, then seeds), the same in every shard.
    public var position: Int
    /// The scenario file's path as found.
    public var path: String
    /// Its name relative to the folder searched (outputs are named after it).
    public var name: String
    /// The scenario's title (nil for an invalid file).
    public var title: String?
    /// The seed used (nil for an invalid file).
    public var seed: UInt64?
    /// Whether the run was a seed sweep (`--seeds`): names then carry the seed.
    public var swept: Bool
    /// Whether the scenario ran to its end with every expectation met.
    public var passed: Bool
    /// The file's error, when it is not a valid scenario.
    public var invalid: String?
    /// The file the error is in (for the JUnit case's name).
    public var invalidFile: String?
    /// Why the simulation stopped early (a runaway bound, a setup error), if it did.
    public var runError: String?
    /// How many expectations the scenario has.
    public var expectations: Int
    /// The expectations that failed.
    public var failures: [Failure]
    /// Virtual time run, in seconds.
    public var virtualSeconds: Double
    /// Wall time, in seconds (the only field that differs between identical runs).
    public var wallSeconds: Double

    /// The record of a scenario that ran.
    public init(_ result: ScenarioResult, position: Int, path: String, name: String, swept: Bool, wallSeconds: Double) {
        self.position = position
        self.path = path
        self.name = name
        self.title = result.scenario.name
        self.seed = result.seed
        self.swept = swept
        self.passed = result.passed
        self.runError = result.runError
        self.expectations = result.outcomes.count
        self.failures = result.outcomes.filter { !$0.passed }.map {
            Failure(location: $0.location.description, expected: $0.expected, observed: $0.observed)
        }
        self.virtualSeconds = result.scenario.duration.inSeconds
        self.wallSeconds = wallSeconds
    }

    /// The record of a file that is not a valid scenario.
    public init(invalid error: ScenarioError, position: Int, path: String, name: String, swept: Bool) {
        self.position = position
        self.path = path
        self.name = name
        self.swept = swept
        self.passed = false
        self.invalid = error.description
        self.invalidFile = error.location?.file ?? path
        self.expectations = 0
        self.failures = []
        self.virtualSeconds = 0
        self.wallSeconds = 0
    }

    /// The name shown in summaries and JUnit: the title, and the seed in a sweep.
    /// (The scenario's name is cut to ``MessageText/excerptLength`` characters here, so a 10 MB name
    /// does not fill the summary and the JUnit XML; the trace and the results keep it whole.)
    public var displayTitle: String {
        guard let title else { return name }
        // Cut, not escaped: each output escapes in its own way (the terminal, XML).
        let shown = title.count > MessageText.excerptLength
            ? String(title.prefix(MessageText.excerptLength)) + "… (\(title.count - MessageText.excerptLength) more characters)" : title
        guard swept, let seed else { return shown }
        return "\(shown) [seed \(seed)]"
    }

    /// The one-line command that runs this pair again by itself: always with its seed, which may
    /// be a sweep's, `--seed N`'s or the file's own (which the file may no longer say).
    public var reproduceCommand: String {
        var command = "devicesim run \(ShellQuoting.quote(path))"
        if let seed { command += " --seed \(seed)" }
        return command
    }
}

/// Quoting for commands printed for people to paste into a POSIX shell.
package enum ShellQuoting {
    package static func quote(_ word: String) -> String {
        let safe = word.unicodeScalars.allSatisfy { scalar in
            scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "-_./=:,+@%".unicodeScalars.contains(scalar)
        }
        if safe && !word.isEmpty { return word }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
