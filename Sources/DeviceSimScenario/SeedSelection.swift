/// The seeds a sweep runs each scenario under: `--seeds 1-1000` (a range), `--seeds 200` (a count:
/// seeds 1 to 200) or `--seeds 3,17,42` (a list).
///
/// ```swift
/// let seeds = try SeedSelection(parsing: "1-1000")
/// seeds.values.count   // 1000
/// ```
public struct SeedSelection: Sendable, Hashable {
    /// The seeds, in the order they run.
    public let values: [UInt64]

    /// The largest sweep accepted (a typo such as `1-10000000000` should not start a month of work).
    public static let maximumCount = 1_000_000

    /// Seeds from their written form.
    public init(parsing text: String) throws(ScenarioError) {
        let trimmed = text.trimmingSpaces()
        var values: [UInt64] = []
        if trimmed.contains(",") {
            for part in trimmed.split(separator: ",", omittingEmptySubsequences: false) {
                guard let seed = UInt64(part.trimmingSpaces()) else { throw Self.invalid(text) }
                values.append(seed)
            }
        } else if let dash = trimmed.firstIndex(of: "-"), dash != trimmed.startIndex {
            guard let low = UInt64(trimmed[..<dash]), let high = UInt64(trimmed[trimmed.index(after: dash)...]) else {
                throw Self.invalid(text)
            }
            guard low <= high else { throw ScenarioError("--seeds \(text): the range runs backwards; write it low-high, e.g. \(high)-\(low)", at: nil) }
            guard high - low < UInt64(Self.maximumCount) else { throw Self.tooMany(text) }
            values = Array(low...high)
        } else if let count = Int(trimmed), count > 0 {
            guard count <= Self.maximumCount else { throw Self.tooMany(text) }
            values = (1...UInt64(count)).map { $0 }
        } else {
            throw Self.invalid(text)
        }
        guard !values.isEmpty else { throw Self.invalid(text) }
        guard values.count <= Self.maximumCount else { throw Self.tooMany(text) }
        self.values = values
    }

    private static func invalid(_ text: String) -> ScenarioError {
        ScenarioError("--seeds \(text): expected a range (1-1000), a count (200: seeds 1 to 200) or a list (3,17,42)", at: nil)
    }

    private static func tooMany(_ text: String) -> ScenarioError {
        ScenarioError("--seeds \(text): at most \(maximumCount) seeds in one sweep", at: nil)
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces.
    func trimmingSpaces() -> String {
        var text = Substring(self)
        while text.first == " " { text.removeFirst() }
        while text.last == " " { text.removeLast() }
        return String(text)
    }
}
