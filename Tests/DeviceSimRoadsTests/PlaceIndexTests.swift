import DeviceSimHAL
@testable import DeviceSimRoads
import Foundation
import Testing

/// Place search (issue 34, item 4): OpenStreetMap's names (nodes, buildings, squares; `name:fi`,
/// `name:sv`, `alt_name`), addresses, matching that ignores case, accents and punctuation and
/// tolerates one typo, ranked by match and distance.
@Suite struct PlaceIndexTests {
    let index = Helsinki.network.places
    let station = GeoCoordinate(latitude: 60.1710, longitude: 24.9414)

    @Test func findsBuildingsAndSquaresByTheirNames() throws {
        let theatre = try #require(index.search("Svenska Teatern").first)
        #expect(PlaceIndex.fold(theatre.name) == "svenska teatern" || theatre.aliases.contains { PlaceIndex.fold($0) == "svenska teatern" })
        let hall = try #require(index.search("Vanha Kauppahalli").first)
        #expect(PlaceIndex.fold(hall.name) == "vanha kauppahalli")
        // Near the market square, on the shore.
        #expect(hall.coordinate.distance(to: GeoCoordinate(latitude: 60.1665, longitude: 24.9530)) < 300)
        // A square mapped as a multipolygon, by its Swedish name.
        #expect(index.search("Senatstorget").first?.name == "Senaatintori")
    }

    @Test func findsAddresses() throws {
        let address = try #require(Helsinki.extract.features.first { $0.tags["addr:street"] != nil && $0.tags["addr:housenumber"] != nil })
        let query = "\(address.tags["addr:street"]!) \(address.tags["addr:housenumber"]!)"
        let found = index.matches(for: query, limit: 50)
        #expect(found.contains { $0.match == .same && $0.place.coordinate == address.coordinate }, "\(query): \(found.map(\.place.name))")
    }

    @Test func matchingIgnoresCaseAccentsAndPunctuationAndOneTypo() {
        let places = PlaceIndex([
            Place(name: "senate-square", coordinate: station, source: .world), Place(name: "Café Ekberg", coordinate: station, source: .world),
            Place(name: "Kauppatori", coordinate: station, source: .osmNode),
        ])
        #expect(places.search("Senate Square").map(\.name) == ["senate-square"])
        #expect(places.search("SENATE, square!").map(\.name) == ["senate-square"])
        #expect(places.search("cafe ekberg").map(\.name) == ["Café Ekberg"])
        #expect(places.search("kauppatrori").map(\.name) == ["Kauppatori"])  // a letter too many
        #expect(places.search("kaupaptori").map(\.name) == ["Kauppatori"])   // two swapped
        #expect(places.search("kauppatxri").map(\.name) == ["Kauppatori"])   // one wrong
        #expect(places.search("kaupatori").map(\.name) == ["Kauppatori"])    // one missing
        #expect(places.search("kaupatxri").isEmpty)                          // two typos
        #expect(places.search("kat").isEmpty)                                // short queries: no typo
        #expect(places.place(named: "Senate Square")?.name == "senate-square")
    }

    @Test func ranksByMatchThenDistance() {
        let near = station.offsetBy(east: 100, north: 0), far = station.offsetBy(east: 900, north: 0)
        let places = PlaceIndex([
            Place(name: "Kiosk Far", coordinate: far, source: .osmNode), Place(name: "Kiosk Near", coordinate: near, source: .osmNode),
            Place(name: "Kiosk", coordinate: far, source: .osmNode), Place(name: "Old Kiosk", coordinate: near, source: .osmNode),
            Place(name: "Kiosks", coordinate: near, source: .osmNode),
        ])
        // Same match, same distance: the shorter name first.
        #expect(places.search("kiosk", near: station).map(\.name) == ["Kiosk", "Kiosks", "Kiosk Near", "Kiosk Far", "Old Kiosk"])
        #expect(PlaceIndex.match(Array("kiosk".unicodeScalars), in: Array("old kiosk".unicodeScalars)) == .wordPrefix)
        #expect(PlaceIndex.match(Array("iosk".unicodeScalars), in: Array("old kiosk".unicodeScalars)) == .inside)
    }
}
