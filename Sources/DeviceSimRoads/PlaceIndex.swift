import DeviceSimHAL
import Foundation

/// A named place: from OSM names (nodes, buildings and other ways or relations, streets, addresses)
/// or from a world file's `places:`.
public struct Place: Sendable, Hashable {
    /// Where a place comes from.
    public enum Source: String, Sendable, Hashable {
        /// A world file's `places:`.
        case world
        /// A named OSM node (a shop, a station, a statue...).
        case osmNode = "osm-node"
        /// A named OSM way or relation that is not a street (a building, a square, a park), at the
        /// mean of its nodes.
        case osmArea = "osm-area"
        /// A named OSM street (at its middle node).
        case street
        /// An address without a name (`addr:street` + `addr:housenumber`).
        case address
    }

    /// The name shown.
    public var name: String
    /// Where it is.
    public var coordinate: GeoCoordinate
    /// Where it comes from.
    public var source: Source
    /// Other names it is found by (`name:fi`, `name:sv`, `alt_name`..., its address).
    public var aliases: [String]

    /// Creates a place.
    public init(name: String, coordinate: GeoCoordinate, source: Source, aliases: [String] = []) {
        self.name = name
        self.coordinate = coordinate
        self.source = source
        self.aliases = aliases
    }

    /// The place an OSM feature names (its `name`, else another name, else its address), with its
    /// other names and address as aliases; nil when it has none.
    init?(_ feature: OSMExtract.Feature) {
        let tags = feature.tags
        let names = ["name", "name:fi", "name:sv", "name:en", "alt_name", "official_name", "short_name", "loc_name"].compactMap { tags[$0] }
            .flatMap { $0.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) } }.filter { !$0.isEmpty }
        var address: String?
        if let street = tags["addr:street"], let number = tags["addr:housenumber"] { address = "\(street) \(number)" }
        guard let name = names.first ?? address else { return nil }
        var aliases: [String] = []
        for other in names.dropFirst() + (names.isEmpty ? [] : [address].compactMap { $0 }) where other != name && !aliases.contains(other) { aliases.append(other) }
        let source: Source = names.isEmpty ? .address : feature.kind == .node ? .osmNode : .osmArea
        self.init(name: name, coordinate: feature.coordinate, source: source, aliases: aliases)
    }
}

/// Searchable places by name or address. Matching ignores case, accents and punctuation (`Senate
/// square` finds `senate-square`, `cafe` finds `Café`) and tolerates one typo (a letter wrong,
/// missing, extra, or two swapped) in queries of four letters or more.
///
/// **Ranking**: by how the best of a place's names matches (the same; a prefix; a word starting
/// with the query; the query inside a word; with one typo), then by distance from the position
/// searched near (when one is given), then shorter names first.
///
/// ```swift
/// let index = PlaceIndex(places)
/// index.search("kiasma")                    // [Place(name: "Kiasma", ...)]
/// index.search("svenska teatern", near: here)
/// index.place(named: "Kiasma")              // the first place of that name
/// ```
public struct PlaceIndex: Sendable {
    /// How a name matches a query, best first.
    public enum Match: Int, Sendable, Hashable, Comparable {
        case same = 0, prefix, wordPrefix, inside, oneTypo

        public static func < (a: Match, b: Match) -> Bool { a.rawValue < b.rawValue }
    }

    /// A place found, with how it matched.
    public struct Found: Sendable, Hashable {
        /// The place.
        public var place: Place
        /// How its best name matched.
        public var match: Match
        /// Metres from the position searched near (0 when none was given).
        public var distance: Double
    }

    /// Every place, in the order given (a place whose name and source repeat an earlier one's is
    /// kept only once; see ``namesakes``).
    public let places: [Place]
    /// Each place's folded names (its name first), as Unicode scalars.
    let folded: [[[Unicode.Scalar]]]
    /// For each place, where the other places of its name and source are (two bakeries named
    /// alike); empty for streets, whose pieces are one street. A search near a position puts such a
    /// place at the nearest of its positions.
    let namesakes: [[GeoCoordinate]]

    /// Indexes `places`.
    public init(_ places: [Place]) {
        var seen: [String: Int] = [:]
        var kept: [Place] = [], namesakes: [[GeoCoordinate]] = []
        for place in places {
            let key = "\(place.source.rawValue)\u{0}\(place.name)"
            if let first = seen[key] {
                if place.source != .street, place.coordinate != kept[first].coordinate, !namesakes[first].contains(place.coordinate) {
                    namesakes[first].append(place.coordinate)
                }
                continue
            }
            seen[key] = kept.count
            kept.append(place)
            namesakes.append([])
        }
        self.places = kept
        self.namesakes = namesakes
        folded = kept.map { place in ([place.name] + place.aliases).map { Array(Self.fold($0).unicodeScalars) } }
    }

    /// Letters that are not a base letter with an accent, so diacritic folding keeps them, written as
    /// a keyboard without them would (`Ærø` is found by `aero`, `Straße` by `strasse`, `Łódź` by `lodz`).
    static let letterFoldings: [Unicode.Scalar: String] = [
        "æ": "ae", "ø": "o", "ß": "ss", "ł": "l", "œ": "oe", "đ": "d", "ð": "d", "þ": "th", "ı": "i", "ħ": "h", "ŧ": "t", "ŀ": "l",
        "ĸ": "k", "ŋ": "n", "ſ": "s", "ɨ": "i", "ƶ": "z",
    ]

    /// `text` in lower case without accents (and with æ, ø, ß, ł... spelled in plain letters), each
    /// run of punctuation and spaces one space.
    static func fold(_ text: String) -> String {
        let lowered = text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        var result = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in lowered.unicodeScalars {
            if CharacterSet.alphanumerics.contains(scalar) {
                if pendingSpace, !result.isEmpty { result.append(" ") }
                pendingSpace = false
                if let plain = letterFoldings[scalar] { result.append(contentsOf: plain.unicodeScalars); continue }
                result.append(scalar)
            } else {
                pendingSpace = true
            }
        }
        return String(result)
    }

    /// Places matching `query`, best first, at most `limit`.
    public func search(_ query: String, near position: GeoCoordinate? = nil, limit: Int = 10) -> [Place] {
        matches(for: query, near: position, limit: limit).map(\.place)
    }

    /// Places matching `query` with how they matched, best first, at most `limit`.
    public func matches(for query: String, near position: GeoCoordinate? = nil, limit: Int = 10) -> [Found] {
        let needle = Array(Self.fold(query).unicodeScalars)
        guard !needle.isEmpty, limit > 0 else { return [] }
        var found: [(Found, length: Int, index: Int)] = []
        for (index, names) in folded.enumerated() {
            var best: Match?
            for name in names {
                guard let match = Self.match(needle, in: name) else { continue }
                if best == nil || match < best! { best = match }
            }
            guard let best else { continue }
            var place = places[index]
            if let position {
                // Of places of one name, the nearest (the first read on a tie).
                for other in namesakes[index] where position.distance(to: other) < position.distance(to: place.coordinate) { place.coordinate = other }
            }
            found.append((Found(place: place, match: best, distance: position.map { $0.distance(to: place.coordinate) } ?? 0), names[0].count, index))
        }
        found.sort { ($0.0.match, $0.0.distance, $0.length, $0.index) < ($1.0.match, $1.0.distance, $1.length, $1.index) }
        return found.prefix(limit).map(\.0)
    }

    /// How `name` matches `needle` (both folded, `needle` not empty), nil when not at all.
    static func match(_ needle: [Unicode.Scalar], in name: [Unicode.Scalar]) -> Match? {
        var best: Match?
        if needle.count <= name.count {
            for start in 0...(name.count - needle.count) where name[start] == needle[0] {
                var index = 1
                while index < needle.count, name[start + index] == needle[index] { index += 1 }
                guard index == needle.count else { continue }
                if start == 0 { return name.count == needle.count ? .same : .prefix }
                if name[start - 1] == " " { best = .wordPrefix } else if best == nil { best = .inside }
            }
        }
        if let best { return best }
        guard needle.count >= 4 else { return nil }
        // One typo: against the start of a word, as long as the query give or take a letter.
        for start in name.indices where start == 0 || name[start - 1] == " " {
            for length in (needle.count - 1)...(needle.count + 1) where start + length <= name.count {
                if withinOneEdit(needle, name[start..<start + length]) { return .oneTypo }
            }
        }
        return nil
    }

    /// Whether `a` becomes `b` by at most one edit: a letter changed, added or removed, or two
    /// neighbours swapped.
    static func withinOneEdit(_ a: [Unicode.Scalar], _ b: ArraySlice<Unicode.Scalar>) -> Bool {
        let b = Array(b)
        if a.count == b.count {
            let differences = a.indices.filter { a[$0] != b[$0] }
            if differences.count <= 1 { return true }
            return differences.count == 2 && differences[1] == differences[0] + 1 && a[differences[0]] == b[differences[1]] && a[differences[1]] == b[differences[0]]
        }
        let (short, long) = a.count < b.count ? (a, b) : (b, a)
        guard long.count == short.count + 1 else { return false }
        var i = 0
        while i < short.count, short[i] == long[i] { i += 1 }
        return short[i...] == long[(i + 1)...]
    }

    /// The first place named exactly `name` (ignoring case, accents and punctuation), by its name or
    /// one of its other names.
    public func place(named name: String) -> Place? {
        let needle = Array(Self.fold(name).unicodeScalars)
        guard !needle.isEmpty else { return nil }
        if let index = folded.firstIndex(where: { $0[0] == needle }) { return places[index] }
        return folded.firstIndex { $0.dropFirst().contains(needle) }.map { places[$0] }
    }
}
