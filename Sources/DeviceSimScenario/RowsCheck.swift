/// How a `stored:` or `server:` expectation judges the rows it reads when exact rows in order
/// (`rows:` alone) would make its author predict ids, revisions or an order nobody promises:
/// `rows:` in any order (`order: any`), rows it must `contains:` among others, a row `count:`, and a
/// comparison with the same rows read elsewhere at the same instant (`same-as:` another device's
/// database or the server). `server:` may read a subset of a table's columns (`columns:`).
///
/// ```yaml
/// expect:
///   - server: task-list
///     table: tasks
///     account: kari@gmail.com
///     columns: [text, important]          # no ids
///     at: 5m
///     contains: [[Hent pakken, "false"]]
///     count: 3
///   - stored: "SELECT text FROM tasks"
///     device: phone-a
///     database: task-list
///     at: 5m
///     order: any
///     same-as: { device: phone-b }        # the same query on phone-b's database
/// ```
public struct RowsCheck: Sendable {
    /// The rows that must be read, all of them (nil: not checked).
    public var rows: [[String]]?
    /// Whether `rows` (and `same-as`) are compared without their order.
    public var anyOrder = false
    /// Rows that must be among those read (each as often as it is listed).
    public var contains: [[String]] = []
    /// How many rows must be read.
    public var count: Int?
    /// Other rows, read at the same instant, that must be the same.
    public var sameAs: RowsSource?

    /// "ok", or what differs, in words, for the rows `read` (and the rows `other` read by `sameAs`).
    func verdict(_ read: [[String]], other: [[String]]?) -> String {
        var differences: [String] = []
        if let count, read.count != count { differences.append("\(read.count) rows, not \(count)") }
        if let rows, !Self.same(read, rows, anyOrder: anyOrder) {
            differences.append("the rows are \(StoredProbe.text(of: read)), not \(StoredProbe.text(of: rows))\(anyOrder ? " in any order" : "")")
        }
        let missing = Self.missing(contains, from: read)
        if !missing.isEmpty { differences.append("no \(missing.map { StoredProbe.text(of: [$0]).dropFirst().dropLast() }.joined(separator: ", ")) among \(read.count) rows") }
        if let other, let sameAs, !Self.same(read, other, anyOrder: anyOrder) {
            differences.append("these rows \(StoredProbe.text(of: read)) are not those of \(sameAs.text) \(StoredProbe.text(of: other))\(anyOrder ? " in any order" : "")")
        }
        return differences.isEmpty ? "ok" : differences.joined(separator: "; ")
    }

    /// Whether `a` and `b` hold the same rows (in the same order unless `anyOrder`).
    static func same(_ a: [[String]], _ b: [[String]], anyOrder: Bool) -> Bool {
        anyOrder ? a.count == b.count && missing(b, from: a).isEmpty : a == b
    }

    /// The rows of `wanted` that `read` lacks, each row counted as often as it is listed.
    static func missing(_ wanted: [[String]], from read: [[String]]) -> [[String]] {
        var left = read
        var missing: [[String]] = []
        for row in wanted {
            if let index = left.firstIndex(of: row) { left.remove(at: index) } else { missing.append(row) }
        }
        return missing
    }
}

/// Where rows come from, with the columns kept (a server table's `columns:`, by their place).
public struct RowsSource: Sendable {
    public var source: StoredProbe.Source
    /// The places of the columns kept, in order (nil: every column).
    public var columns: [Int]?

    /// The source in words, for a verdict.
    var text: String {
        switch source {
        case .database(let device, let file, _): "\(device)'s \(file)"
        case .server(let app, let table, let account): "the \(app) server's \(table)" + (account.map { " of \($0)" } ?? "")
        }
    }

    /// `rows` with only the kept columns.
    func project(_ rows: [[String]]) -> [[String]] {
        guard let columns else { return rows }
        return rows.map { row in columns.map { $0 < row.count ? row[$0] : "" } }
    }
}

