/// One of `count` shards of a run: `--shard 2/4` takes the second quarter of the (scenario, seed)
/// pairs. Numbers are 1-based, as in Playwright's and Jest's `--shard`.
///
/// The split is stable and complete: pairs are numbered in the run's order (files sorted, seeds in
/// order) and pair `i` (0-based) belongs to shard `i % count + 1`, so the shards of one run never
/// overlap, never miss a pair, and differ in size by at most one.
///
/// When no `--shard` is given, the job engines' own variables are read (``fromEnvironment(_:count:)``).
///
/// ```swift
/// let shard = try Shard(parsing: "2/4")
/// shard.contains(5)    // true: pair 5 is the 2nd of the 4 shards (5 % 4 == 1)
/// ```
public struct Shard: Sendable, Hashable, CustomStringConvertible {
    /// 1-based index.
    public let index: Int
    /// How many shards there are.
    public let count: Int

    /// The most shards a run may be split into (a CI matrix or an Indexed Job of that many jobs is
    /// already far more than one run needs; `merge` holds a list of every shard).
    public static let maximumCount = 10_000

    /// Shard `index` (1-based) of `count`.
    public init(index: Int, count: Int) throws(ScenarioError) {
        guard count >= 1, count <= Self.maximumCount else {
            throw ScenarioError("a run cannot be split into \(count) shards; the count must be within 1...\(Self.maximumCount)", at: nil)
        }
        guard (1...count).contains(index) else {
            throw ScenarioError("shard \(index)/\(count) does not exist; shards are numbered 1 to \(count)", at: nil)
        }
        self.index = index
        self.count = count
    }

    /// `INDEX/COUNT`, 1-based (`1/4` ... `4/4`).
    public init(parsing text: String) throws(ScenarioError) {
        let parts = text.split(separator: "/")
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else {
            throw ScenarioError("--shard \(text): expected INDEX/COUNT with INDEX from 1 to COUNT, e.g. 2/4", at: nil)
        }
        try self.init(index: index, count: count)
    }

    /// Whether pair number `position` (0-based, in the run's order) is in this shard.
    public func contains(_ position: Int) -> Bool {
        position % count == index - 1
    }

    public var description: String { "\(index)/\(count)" }

    /// Where a shard came from, for messages.
    public enum Source: Sendable, Hashable {
        case option, bazel, kubernetes, gitlab, buildkite
    }

    /// The shard that the job engine running this process assigns, read from its variables:
    /// - Bazel: `TEST_SHARD_INDEX` (0-based) and `TEST_TOTAL_SHARDS` (and `TEST_SHARD_STATUS_FILE`,
    ///   which the caller touches to say sharding is supported);
    /// - Kubernetes Indexed Jobs: `JOB_COMPLETION_INDEX` (0-based), with the count given by
    ///   `count` (`--shard-count`, the Job's `completions`) or `DEVICESIM_SHARD_COUNT`;
    /// - GitLab `parallel:`: `CI_NODE_INDEX` (1-based) and `CI_NODE_TOTAL`;
    /// - Buildkite `parallelism:`: `BUILDKITE_PARALLEL_JOB` (0-based) and `BUILDKITE_PARALLEL_JOB_COUNT`.
    /// Nil when none of them is set.
    public static func fromEnvironment(_ environment: [String: String], count: Int? = nil) throws(ScenarioError) -> (shard: Shard, source: Source)? {
        func number(_ name: String) throws(ScenarioError) -> Int? {
            guard let text = environment[name], !text.isEmpty else { return nil }
            guard let value = Int(text) else { throw ScenarioError("\(name)=\(text) is not a whole number", at: nil) }
            return value
        }
        /// Shard `index` of `total` where the engine numbers shards from 0 (`name` gives the index).
        func zeroBased(_ index: Int, of total: Int, _ name: String) throws(ScenarioError) -> Shard {
            guard index >= 0, index < min(total, Self.maximumCount) else {
                throw ScenarioError("\(name)=\(index) is out of range: shards are numbered from 0 to \(max(0, min(total, Self.maximumCount) - 1)) (at most \(Self.maximumCount) shards)", at: nil)
            }
            return try Shard(index: index + 1, count: total)
        }
        if let index = try number("TEST_SHARD_INDEX"), let total = try number("TEST_TOTAL_SHARDS") {
            return (try zeroBased(index, of: total, "TEST_SHARD_INDEX"), .bazel)
        }
        if let index = try number("JOB_COMPLETION_INDEX") {
            let total: Int
            if let count {
                total = count
            } else if let fromEnvironment = try number("DEVICESIM_SHARD_COUNT") {
                total = fromEnvironment
            } else {
                throw ScenarioError("JOB_COMPLETION_INDEX=\(index) is set (a Kubernetes Indexed Job) but the number of shards is not: pass --shard-count N (the Job's completions) or set DEVICESIM_SHARD_COUNT", at: nil)
            }
            return (try zeroBased(index, of: total, "JOB_COMPLETION_INDEX"), .kubernetes)
        }
        if let index = try number("CI_NODE_INDEX"), let total = try number("CI_NODE_TOTAL") {
            return (try Shard(index: index, count: total), .gitlab)
        }
        if let index = try number("BUILDKITE_PARALLEL_JOB"), let total = try number("BUILDKITE_PARALLEL_JOB_COUNT") {
            return (try zeroBased(index, of: total, "BUILDKITE_PARALLEL_JOB"), .buildkite)
        }
        return nil
    }
}
