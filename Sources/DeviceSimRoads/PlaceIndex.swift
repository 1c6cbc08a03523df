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

    /// Indexes `places`; a place whose name and source repeat an earlier one is kept only once.
    public init(_ places: [Place]) {
        var seen = Set<String>()
        var kept: [Place] = []
        for place in places where seen.insert("\(place.source.rawValue)\u{0}\(place.name)").inserted { kept.append(place) }
        self.places = kept
        folded = kept.map { Self.fold($0.name) }
    }

    static func fold(_ text: String) -> String {
        text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
    }

    /// Places matching `query`, best first, at most `limit`.
    public func search(_ query: String, limit: Int = 10) -> [Place] {
        let needle = Self.fold(query.trimmingCharacters(in: .whitespaces))
        guard !needle.isEmpty else { return [] }
        var ranked: [(rank: Int, index: Int)] = []
        for (index, name) in folded.enumerated() {
            let rank: Int
            if name == needle { rank = 0 } else if name.hasPrefix(needle) { rank = 1 } else if name.contains(" " + needle) || name.contains("-" + needle) { rank = 2 } else if name.contains(needle) { rank = 3 } else { continue }
            ranked.append((rank, index))
        }
        ranked.sort { ($0.rank, folded[$0.index].count, $0.index) < ($1.rank, folded[$1.index].count, $1.index) }
        return ranked.prefix(limit).map { places[$0.index] }
    }

    /// The first place named exactly `name` (ignoring case and accents).
    public func place(named name: String) -> Place? {
        let needle = Self.fold(name)
        return folded.firstIndex(of: needle).map { places[$0] }
    }
}
