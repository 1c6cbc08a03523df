import DeviceSimHAL
import Foundation

/// A named place: from OSM `name` tags (named nodes, and streets by their name) or from a world
/// file's `places:`.
public struct Place: Sendable, Hashable {
    /// Where a place comes from.
    public enum Source: String, Sendable, Hashable {
        /// A world file's `places:`.
        case world
        /// A named OSM node (a shop, a station, a statue...).
        case osmNode = "osm-node"
        /// A named OSM street (at its middle node).
        case street
    }

    /// The name.
    public var name: String
    /// Where it is.
    public var coordinate: GeoCoordinate
    /// Where it comes from.
    public var source: Source

    /// Creates a place.
    public init(name: String, coordinate: GeoCoordinate, source: Source) {
        self.name = name
        self.coordinate = coordinate
        self.source = source
    }
}

/// Searchable places by name: case- and accent-insensitive, exact matches first, then names that
/// start with the query, then names with a word that starts with it, then names that contain it.
///
/// ```swift
/// let index = PlaceIndex(places)
/// index.search("kiasma")       // [Place(name: "Kiasma", ...)]
/// index.place(named: "Kiasma") // the first place of that exact name
/// ```
public struct PlaceIndex: Sendable {
    /// Every place, in the order given (world places first, then OSM nodes, then streets).
    public let places: [Place]
    private let folded: [String]
    /// Each folded name's UTF-8 bytes when they are all ASCII (most are, once accents are folded
    /// away), for a byte search; nil for the others, searched with Foundation's `contains`.
    private let foldedASCII: [[UInt8]?]

    /// Indexes `places`; a place whose name and source repeat an earlier one is kept only once.
    public init(_ places: [Place]) {
        var seen = Set<String>()
        var kept: [Place] = []
        for place in places where seen.insert("\(place.source.rawValue)\u{0}\(place.name)").inserted { kept.append(place) }
        self.places = kept
        folded = kept.map { Self.fold($0.name) }
        foldedASCII = folded.map(Self.asciiBytes)
    }

    private static func asciiBytes(_ text: String) -> [UInt8]? {
        let bytes = Array(text.utf8)
        return bytes.allSatisfy { $0 < 0x80 } ? bytes : nil
    }

    static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

    /// Places matching `query`, best first, at most `limit`.
    public func search(_ query: String, limit: Int = 10) -> [Place] {
        let needle = Self.fold(query.trimmingCharacters(in: .whitespaces))
        guard !needle.isEmpty else { return [] }
        let needleASCII = Self.asciiBytes(needle)
        var ranked: [(rank: Int, index: Int)] = []
        for (index, name) in folded.enumerated() {
            let rank: Int
            if let needleASCII, let nameASCII = foldedASCII[index] {
                // ASCII in both: every byte is a character, so a byte search finds what `contains` does.
                guard let found = Self.rank(of: needleASCII, in: nameASCII) else { continue }
                rank = found
            } else if name == needle { rank = 0 } else if name.hasPrefix(needle) { rank = 1 } else if name.contains(" " + needle) || name.contains("-" + needle) { rank = 2 } else if name.contains(needle) { rank = 3 } else { continue }
            ranked.append((rank, index))
        }
        ranked.sort { ($0.rank, folded[$0.index].count, $0.index) < ($1.rank, folded[$1.index].count, $1.index) }
        return ranked.prefix(limit).map { places[$0.index] }
    }

    /// How `name` matches `needle` (both ASCII, `needle` not empty): 0 the same, 1 a prefix, 2 after a
    /// space or a hyphen, 3 anywhere else; nil not at all.
    static func rank(of needle: [UInt8], in name: [UInt8]) -> Int? {
        guard needle.count <= name.count else { return nil }
        var best: Int?
        for start in 0...(name.count - needle.count) where name[start] == needle[0] {
            var index = 1
            while index < needle.count, name[start + index] == needle[index] { index += 1 }
            guard index == needle.count else { continue }
            if start == 0 { return name.count == needle.count ? 0 : 1 }
            if name[start - 1] == UInt8(ascii: " ") || name[start - 1] == UInt8(ascii: "-") { return 2 }
            best = 3
        }
        return best
    }

    /// The first place named exactly `name` (ignoring case and accents).
    public func place(named name: String) -> Place? {
        let needle = Self.fold(name)
        return folded.firstIndex(of: needle).map { places[$0] }
    }
}
