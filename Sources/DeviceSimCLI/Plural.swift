/// A count with its noun, in the singular for one: `1 hotspot`, `3 hotspots`, `0 expectations`.
enum Plural {
    /// `count` and `noun` (a regular English noun: the plural adds `s`).
    static func count(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }

    /// `count` and `noun`, or `plural` for any count but one: `1 fix`, `2 fixes`.
    static func count(_ count: Int, _ noun: String, plural: String) -> String {
        "\(count) \(count == 1 ? noun : plural)"
    }
}
