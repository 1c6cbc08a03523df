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
    public var rows: [[StoredValue]]?
    /// Whether `rows` (and `same-as`) are compared without their order.
    public var anyOrder = false
    /// Rows that must be among those read (each as often as it is listed).
    public var contains: [[StoredValue]] = []
    /// How many rows must be read.
    public var count: Int?
    /// Other rows, read at the same instant, that must be the same.
    public var sameAs: RowsSource?

    /// "ok", or what differs, in words, for the rows `read` (and the rows `other` read by `sameAs`).
    /// Values are compared as typed values (``StoredValue/isSame(as:)``), a database's against a
    /// server's too.
    func verdict(_ read: [[StoredValue]], other: [[StoredValue]]?) -> String {
        var differences: [String] = []
        if let count, read.count != count { differences.append("\(read.count) rows, not \(count)") }
        if let rows, !Self.same(read, rows, anyOrder: anyOrder) {
            differences.append("the rows are \(StoredProbe.text(of: read)), not \(StoredProbe.text(of: rows))\(anyOrder ? " in any order" : "")" + Self.typeHint(read, rows))
        }
        let missing = Self.missing(contains, from: read)
        if !missing.isEmpty {
            differences.append("no \(missing.map { StoredProbe.text(of: [$0]).dropFirst().dropLast() }.joined(separator: ", ")) among \(read.count) rows" + Self.typeHint(read, missing))
        }
        if let other, let sameAs, !Self.same(read, other, anyOrder: anyOrder) {
            differences.append("these rows \(StoredProbe.text(of: read)) are not those of \(sameAs.text) \(StoredProbe.text(of: other))\(anyOrder ? " in any order" : "")")
        }
        return differences.isEmpty ? "ok" : differences.joined(separator: "; ")
    }

    /// When some expected value differs from a value read only by its type (text "0" against the
    /// integer 0), how to write it; otherwise nothing.
    static func typeHint(_ read: [[StoredValue]], _ expected: [[StoredValue]]) -> String {
        let readValues = read.flatMap { $0 }
        for value in expected.flatMap({ $0 }) {
            guard case .text(let text) = value,
                  readValues.contains(where: { !$0.isSame(as: value) && $0.displayText == text && $0 != .text(text) })
            else { continue }
            return " (\(StoredValue.text(text).json) is text, quoted in the scenario, but the value read is a number or NULL: write it unquoted, \(text))"
        }
        return ""
    }

    /// Whether the rows `a` and `b` are the same, value by value.
    static func sameRow(_ a: [StoredValue], _ b: [StoredValue]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { $0.isSame(as: $1) }
    }

    /// Whether `a` and `b` hold the same rows (in the same order unless `anyOrder`).
    static func same(_ a: [[StoredValue]], _ b: [[StoredValue]], anyOrder: Bool) -> Bool {
        guard a.count == b.count else { return false }
        return anyOrder ? missing(b, from: a).isEmpty : zip(a, b).allSatisfy { sameRow($0, $1) }
    }

    /// The rows of `wanted` that `read` lacks, each row counted as often as it is listed.
    static func missing(_ wanted: [[StoredValue]], from read: [[StoredValue]]) -> [[StoredValue]] {
        var left = read
        var missing: [[StoredValue]] = []
        for row in wanted {
            if let index = left.firstIndex(where: { sameRow($0, row) }) { left.remove(at: index) } else { missing.append(row) }
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
    func project(_ rows: [[StoredValue]]) -> [[StoredValue]] {
        guard let columns else { return rows }
        return rows.map { row in columns.map { $0 < row.count ? row[$0] : .null } }
    }
}

