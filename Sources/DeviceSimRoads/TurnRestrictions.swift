/// The turn restrictions of an extract for cars (`type=restriction` relations with a `from` way, a
/// `via` node and a `to` way): `no_*` forbids the turn from the `from` way to the `to` way at the
/// node, `only_*` forbids every other turn from the `from` way there (U-turns included).
///
/// Read: `restriction`, or `restriction:motorcar` / `restriction:motor_vehicle` when present (they
/// take precedence); a relation whose `except` lists `motorcar` or `motor_vehicle` does not apply.
/// Conditions of time (`restriction:conditional`, `day_on`, `hour_on`) are not read: the
/// restriction applies at all times. Restrictions through a `via` way are left out (counted in
/// ``skippedCount``).
///
/// ```swift
/// let restrictions = TurnRestrictions(extract)
/// restrictions.allows(from: a, via: b, to: c)   // false for a forbidden turn a -> b -> c
/// ```
struct TurnRestrictions: Sendable {
    /// Per via node: per node arriving from, the nodes one may not go on to.
    private(set) var forbidden: [Int64: [Int64: Set<Int64>]] = [:]
    /// Per via node: per node arriving from, the only nodes one may go on to.
    private(set) var only: [Int64: [Int64: Set<Int64>]] = [:]
    /// Restrictions left out (via ways, members missing from the extract, unknown kinds).
    private(set) var skippedCount = 0

    /// Reads the restrictions of `extract`.
    init(_ extract: OSMExtract) {
        for relation in extract.restrictionRelations {
            let exceptions = (relation.tags["except"] ?? "").split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            if exceptions.contains("motorcar") || exceptions.contains("motor_vehicle") { continue }
            guard let kind = relation.tags["restriction:motorcar"] ?? relation.tags["restriction:motor_vehicle"] ?? relation.tags["restriction"] else { continue }
            let froms = relation.members.filter { $0.role == "from" }, vias = relation.members.filter { $0.role == "via" }, tos = relation.members.filter { $0.role == "to" }
            guard froms.count == 1, tos.count == 1, vias.count == 1, vias[0].kind == .node, froms[0].kind == .way, tos[0].kind == .way,
                  let fromWay = extract.nodeIDs(ofWay: froms[0].id), let toWay = extract.nodeIDs(ofWay: tos[0].id)
            else {
                skippedCount += 1
                continue
            }
            let via = vias[0].id
            let arriving = Self.neighbours(of: via, in: fromWay), leaving = Set(Self.neighbours(of: via, in: toWay))
            guard !arriving.isEmpty, !leaving.isEmpty else {
                skippedCount += 1
                continue
            }
            if kind.hasPrefix("no_") {
                for from in arriving { forbidden[via, default: [:]][from, default: []].formUnion(leaving) }
            } else if kind.hasPrefix("only_") {
                for from in arriving { only[via, default: [:]][from, default: []].formUnion(leaving) }
            } else {
                skippedCount += 1
            }
        }
    }

    /// The nodes next to `node` along `way` (one at an end, two in the middle).
    private static func neighbours(of node: Int64, in way: [Int64]) -> [Int64] {
        var result: [Int64] = []
        for (index, id) in way.enumerated() where id == node {
            if index > 0 { result.append(way[index - 1]) }
            if index + 1 < way.count { result.append(way[index + 1]) }
        }
        return result
    }

    /// Whether turns at `via` depend on where one came from.
    func restricts(_ via: Int64) -> Bool { forbidden[via] != nil || only[via] != nil }

    /// The nodes arriving from which a turn at `via` is restricted.
    func restrictedArrivals(at via: Int64) -> Set<Int64> {
        Set((forbidden[via]?.keys).map(Array.init) ?? []).union((only[via]?.keys).map(Array.init) ?? [])
    }

    /// Whether a car may go from `from` through `via` on to `to`.
    func allows(from: Int64, via: Int64, to: Int64) -> Bool {
        if let allowed = only[via]?[from], !allowed.contains(to) { return false }
        if let banned = forbidden[via]?[from], banned.contains(to) { return false }
        return true
    }
}
