/// What one read-only query (a scenario's `stored:` expectation) may cost, each bound enforced by
/// SQLite while the query runs (``SQLiteConnection/readOnlyQuery(_:budget:)``).
///
/// The wall-time bound never changes what a passing run records: a query that reaches it fails with
/// that reason, so a run is either deterministic or says why it stopped.
///
/// ```swift
/// var budget = ReadOnlyQueryBudget()
/// budget.maximumRows = 20
/// let rows = try connection.readOnlyQuery("SELECT text FROM notes", budget: budget)
/// ```
public struct ReadOnlyQueryBudget: Sendable, Hashable {
    /// Steps of SQLite's virtual machine (a recursive query that never ends).
    public var maximumInstructions = 50_000_000
    /// Rows returned.
    public var maximumRows = 10_000
    /// Bytes of one value, text or blob, anywhere in the query (SQLite's `SQLITE_LIMIT_LENGTH`: a
    /// `zeroblob(999999999)` or a `replace` that grows a value is refused where it is made).
    public var maximumValueBytes = 1 << 20
    /// Bytes of all the values returned.
    public var maximumTotalBytes = 16 << 20
    /// Wall time, in seconds (per-row work that is one instruction to SQLite's machine).
    public var maximumSeconds: Double = 2

    /// The default budget.
    public init() {}
}
