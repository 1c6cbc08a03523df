/// A count with its noun, in the singular for one: `1 hotspot`, `3 hotspots`, `0 expectations`.
enum Plural {
    /// `count` and `noun` (a regular English noun: the plural adds `s`).
    static func count(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }
}
