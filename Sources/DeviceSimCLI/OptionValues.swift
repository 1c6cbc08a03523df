import ArgumentParser
import DeviceSimScenario

/// Checks of option values shared by the subcommands, with messages that say what was given.
///
/// Options whose values may start with '-' (coordinates south or west, numbers out of range) are
/// declared with `parsing: .unconditional`, so `--jobs -1` reaches these checks and is refused as
/// out of range instead of ArgumentParser's "Missing value".
enum OptionValues {
    /// The duration `text` of `option`, which must be longer than zero: "--duration must be longer
    /// than 0s, found -5s".
    static func positiveDuration(_ text: String, option: String) throws -> Duration {
        if text.trimmingCharacters(in: .whitespaces).hasPrefix("-") {
            throw ValidationError("\(option) must be longer than 0s, found \(text).")
        }
        guard let duration = DurationText.parse(text) else {
            throw ValidationError("\(option) must be a duration such as 90s or 10m, found '\(text)'.")
        }
        guard duration > .zero else { throw ValidationError("\(option) must be longer than 0s, found \(text).") }
        return duration
    }

    /// A seed: a whole number from 0 to 2^64 - 1 (`--seed -1` says it is out of range).
    static func seed(_ text: String) throws -> UInt64 {
        if let value = UInt64(text) { return value }
        if let number = Double(text), number.isFinite, number == number.rounded() {
            throw ValidationError("\(text) is out of range: a seed is a whole number from 0 to \(UInt64.max).")
        }
        throw ValidationError("a seed is a whole number from 0 to \(UInt64.max).")
    }
}
