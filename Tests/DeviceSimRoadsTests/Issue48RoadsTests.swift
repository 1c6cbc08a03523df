@testable import DeviceSimRoads
import DeviceSimHAL
import Foundation
import Testing

/// Issue 48, item 5: letters folded as a keyboard without them writes them, places of one name, OSM
/// XML recognised, squares drawn as closed ways.
@Suite struct Issue48RoadsTests {
    @Test func lettersThatAreNotAccentedOnesFoldToPlainLetters() {
        #expect(PlaceIndex.fold("Rue Ærø") == "rue aero")
        #expect(PlaceIndex.fold("Straße") == "strasse")
        #expect(PlaceIndex.fold("Łódź") == "lodz")
        #expect(PlaceIndex.fold("Œuvre Þingvellir Đakovo") == "oeuvre thingvellir dakovo")
        let index = PlaceIndex([Place(name: "Rue Ærø", coordinate: GeoCoordinate(latitude: 69.6, longitude: 18.9), source: .street)])
        #expect(index.search("aero").map(\.name) == ["Rue Ærø"])
    }

    @Test func anOSMXMLFileIsToldToBeConverted() {
        let xml = Data("<?xml version='1.0' encoding='UTF-8'?>\n<osm version=\"0.6\">\n</osm>\n".utf8)
        #expect(throws: OSMReadError.osmXML("town.osm")) {
            try OSMPBFReader.read(xml, name: "town.osm")
        }
        #expect("\(OSMReadError.osmXML("town.osm"))" == "town.osm is OSM XML; DeviceSim reads OSM PBF: convert it with `osmium cat town.osm -o town.osm.pbf`")
        #expect(OSMPBFReader.isOSMXML(Data("\u{FEFF}  <osm>".utf8)))
        #expect(!OSMPBFReader.isOSMXML(Data([0, 0, 0, 14])))
    }

    @Test func aSquareAndAParkingDrawnAsClosedWaysAreFoundByName() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Simulator/worlds/aerobyen.osm.pbf").standardizedFileURL.path
        let network = try RoadNetwork(contentsOf: path)
        // A square and a parking drawn as closed ways are found by name.
        let places = network.places.search("torget")
        #expect(places.map(\.name) == ["Torget"])
        #expect(network.places.search("parkering").map(\.name) == ["Parkering"])
    }

    @Test func ofPlacesOfOneNameASearchNearAPositionGivesTheNearest() {
        let west = GeoCoordinate(latitude: 69.60005, longitude: 18.90010), east = GeoCoordinate(latitude: 69.60095, longitude: 18.90740)
        let street = GeoCoordinate(latitude: 69.6005, longitude: 18.9040)
        let index = PlaceIndex([
            Place(name: "Bakeri", coordinate: west, source: .osmNode), Place(name: "Bakeri", coordinate: east, source: .osmNode),
            Place(name: "Holmen", coordinate: street, source: .street), Place(name: "Holmen", coordinate: east, source: .street),
        ])
        #expect(index.places.count == 2)  // One place per name and source, as before.
        #expect(index.search("bakeri", near: east.offsetBy(east: -30, north: 0)).map(\.coordinate) == [east])
        #expect(index.search("bakeri", near: west.offsetBy(east: 30, north: 0)).map(\.coordinate) == [west])
        #expect(index.search("bakeri").map(\.coordinate) == [west])  // Without a position: the first read.
        #expect(index.matches(for: "bakeri", near: east).first?.distance == 0)
        // A street's pieces are one street: it stays where it was read first.
        #expect(index.search("holmen", near: east).map(\.coordinate) == [street])
    }
}
