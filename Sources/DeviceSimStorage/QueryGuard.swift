import CSQLite
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The state of one bounded read-only query: SQLite's progress handler calls ``step()`` every
/// ``instructionsPerCallback`` instructions (counting them and reading the monotonic clock), and its
/// authorizer calls ``authorize(_:_:_:)`` for every action the statement takes while it is prepared.
final class QueryGuard {
    static let instructionsPerCallback = 1_000

    /// The functions a read needs: SQLite's core scalar, aggregate, window, date, JSON and math
    /// functions. Left out: `load_extension`, `fts3_tokenizer` (it gives a process address), the
    /// random ones (not reproducible), and those that say something about the connection.
    static let allowedFunctions: Set<String> = [
        "abs", "avg", "char", "coalesce", "concat", "concat_ws", "count", "date", "datetime", "format", "glob", "group_concat",
        "hex", "ifnull", "iif", "instr", "julianday", "length", "like", "likelihood", "likely", "lower", "ltrim", "max",
        "min", "nullif", "octet_length", "printf", "quote", "replace", "round", "rtrim", "sign", "soundex", "strftime",
        "string_agg", "substr", "substring", "sum", "time", "timediff", "total", "trim", "typeof", "unhex", "unicode",
        "unixepoch", "unlikely", "upper", "zeroblob",
        "row_number", "rank", "dense_rank", "percent_rank", "cume_dist", "ntile", "lag", "lead", "first_value",
        "last_value", "nth_value",
        "json", "json_array", "json_array_length", "json_extract", "json_group_array", "json_group_object", "json_insert",
        "json_object", "json_patch", "json_quote", "json_remove", "json_replace", "json_set", "json_type", "json_valid",
        "json_each", "json_tree",
        "acos", "asin", "atan", "atan2", "ceil", "ceiling", "cos", "degrees", "exp", "floor", "ln", "log", "log10", "log2",
        "mod", "pi", "pow", "power", "radians", "sin", "sqrt", "tan", "trunc",
    ]

    private let budget: ReadOnlyQueryBudget
    private var callbacksLeft: Int
    private let deadline: UInt64
    /// Why the progress handler stopped the query (nil: it did not).
    private(set) var stopReason: String?
    /// What the authorizer refused, as words ("calls fts3_tokenizer").
    private(set) var denied: String?

    init(budget: ReadOnlyQueryBudget) {
        self.budget = budget
        callbacksLeft = max(1, budget.maximumInstructions / Self.instructionsPerCallback)
        deadline = Self.monotonicNanoseconds() &+ UInt64(max(0, min(budget.maximumSeconds, 3_600)) * 1e9)
    }

    /// One progress callback: false stops the query.
    func step() -> Bool {
        callbacksLeft -= 1
        if callbacksLeft < 0 {
            stopReason = "the query was stopped after \(budget.maximumInstructions) steps of SQLite's machine: it does not end (a recursive query without a limit?) or reads far too much"
            return false
        }
        if Self.monotonicNanoseconds() > deadline {
            stopReason = "the query was stopped after \(budget.maximumSeconds) s, the most a stored: expectation's query may take: it does far too much work per row"
            return false
        }
        return true
    }

    /// Whether the statement may take `action` (an `SQLITE_*` authorizer code) on `third`/`fourth`.
    func authorize(_ action: Int32, _ third: String?, _ fourth: String?) -> Bool {
        switch action {
        case SQLITE_SELECT, SQLITE_READ, SQLITE_RECURSIVE:
            return true
        case SQLITE_FUNCTION:
            let name = (fourth ?? "").lowercased()
            if Self.allowedFunctions.contains(name) { return true }
            denied = denied ?? "calls \(name)"
            return false
        case SQLITE_PRAGMA:
            denied = denied ?? "runs PRAGMA \(third ?? "")"
            return false
        case SQLITE_ATTACH:
            denied = denied ?? "attaches a database"
            return false
        default:
            denied = denied ?? "changes the database or the connection"
            return false
        }
    }

    private static func monotonicNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }
}
