import DeviceSimHAL
@testable import DeviceSimRoads
import DeviceSimTime
import Foundation
import Testing

/// The place search finds and ranks what a search with Foundation's `contains` on the folded names
/// finds (the search's byte path for ASCII names and queries must not change a result).
@Suite struct PlaceIndexTests {
    /// The search as it was written first: Foundation's `contains` on every folded name.
    static func referenceSearch(_ index: PlaceIndex, _ query: String, limit: Int = 10) -> [Place] {
        let needle = PlaceIndex.fold(query.trimmingCharacters(in: .whitespaces))
        guard !needle.isEmpty else { return [] }
        let folded = index.places.map { PlaceIndex.fold($0.name) }
        var ranked: [(rank: Int, index: Int)] = []
        for (position, name) in folded.enumerated() {
            let rank: Int
            if name == needle { rank = 0 } else if name.hasPrefix(needle) { rank = 1 } else if name.contains(" " + needle) || name.contains("-" + needle) { rank = 2 } else if name.contains(needle) { rank = 3 } else { continue }
            ranked.append((rank, position))
        }
        ranked.sort { ($0.rank, folded[$0.index].count, $0.index) < ($1.rank, folded[$1.index].count, $1.index) }
        return ranked.prefix(limit).map { index.places[$0.index] }
    }

    @Test func helsinkiSearchesFindWhatFoundationsContainsFinds() {
        let index = Helsinki.network.places
        #expect(index.places.count > 1_000)
        var random = SeededRandomGenerator(seed: 77)
        var queries = ["Kiasma", "kiasma", "KIASMA", "töölö", "Töölönkatu", "cafe", "Café", "a", "e", "ka", "-", " ", "tie", "katu", "st", "Ä", "ö", "ß", "Å", "x y", "Stockmann", "Senaatintori", "rautatie"]
        for _ in 0..<300 {
            // A piece of a real name: whole, a prefix, a middle, across a space or a hyphen.
            let name = index.places[Int(random.next() % UInt64(index.places.count))].name
            let characters = Array(name)
            let start = Int(random.next() % UInt64(characters.count)), length = 1 + Int(random.next() % 8)
            queries.append(String(characters[start..<min(characters.count, start + length)]))
            if random.next() % 5 == 0 { queries.append(name) }
        }
        for query in queries {
            let found = index.search(query, limit: 25), expected = Self.referenceSearch(index, query, limit: 25)
            #expect(found == expected, "'\(query)': \(found.map(\.name)) against \(expected.map(\.name))")
        }
    }

    @Test func ranksByHowANameMatches() {
        func rank(_ needle: String, _ name: String) -> Int? { PlaceIndex.rank(of: Array(needle.utf8), in: Array(name.utf8)) }
        #expect(rank("kiasma", "kiasma") == 0)
        #expect(rank("kiasma", "kiasman kahvila") == 1)
        #expect(rank("kahvila", "kiasman kahvila") == 2)
        #expect(rank("katu", "mannerheimin-katu") == 2)
        #expect(rank("katu", "mannerheiminkatu") == 3)
        #expect(rank("atu", "katu katu") == 3)
        #expect(rank("katu", "kat") == nil)
        #expect(rank("x", "kiasma") == nil)
        // A later occurrence after a space outranks an earlier one inside a word.
        #expect(rank("tori", "kauppatori tori") == 2)
    }
}
