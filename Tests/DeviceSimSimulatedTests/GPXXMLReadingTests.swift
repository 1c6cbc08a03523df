import DeviceSimHAL
import DeviceSimSimulated
import Foundation
import Testing

/// GPX files are read by DeviceSim's own XML reader (no XML library is loaded): what is well-formed
/// XML is read as before, what is not is refused at its first problem with its line.
@Suite struct GPXXMLReadingTests {
    static func refusal(_ text: String) throws -> GPXError {
        try #require(throws: GPXError.self) { try GPXDocument(data: Data(text.utf8), file: "x.gpx") }
    }

    @Test func whatIsNotWellFormedIsRefusedWhereItIs() throws {
        let cases: [(text: String, line: Int, words: String)] = [
            ("<gpx>\n<trk>\n<trkseg>\n</trk>\n</gpx>", 4, "does not match"),
            ("<gpx>\n<wpt lat=\"1\" lon=\"2\"><name>a & b</name></wpt>\n</gpx>", 2, "&amp;"),
            ("<gpx>\n\n<wpt lat=\"1\" lon=\"2\"><name>&eacute;</name></wpt></gpx>", 3, "unknown entity"),
            ("<!DOCTYPE gpx>\n<gpx/>", 1, "document type declaration"),
            ("<gpx/>\n<gpx/>", 2, "more content after the end of the <gpx> element"),
            ("<gpx>\n<wpt lat=1 lon=\"2\"/></gpx>", 2, "not in quotes"),
            ("<gpx>\n<wpt lat=\"1\" lat=\"2\"/></gpx>", 2, "twice"),
            ("<gpx>\n<trk>\n", 3, "ends inside <trk>"),
            ("<gpx><!-- a -- b --></gpx>", 1, "'--'"),
            ("<?xml version=\"one\"?><gpx/>", 1, "XML declaration"),
            ("<gpx>\n\u{1}</gpx>", 2, "not allowed in XML"),
        ]
        for (text, line, words) in cases {
            let error = try Self.refusal(text)
            #expect(error.line == line, "\(text.debugDescription): \(error)")
            #expect(error.message.contains(words), "\(text.debugDescription): \(error)")
            #expect(error.message.hasPrefix("not well-formed XML: "), "\(error)")
        }
    }

    @Test func referencesCommentsAndSingleQuotesAreRead() throws {
        let text = """
            <?xml version='1.0' encoding='UTF-8' standalone='yes'?>
            <?xml-stylesheet href="a.css"?>
            <!-- a walk -->
            <gpx version="1.1"><trk><name>Caf&#233; &amp; &#x4D;ore</name><trkseg>
              <trkpt lat='&#52;8.5' lon="11.5"><ele> 5&#48; </ele><!-- noted --><time>2026-01-01T00:00:00Z</time></trkpt>
              <trkpt lat="48.5"
                     lon="11.501"/>
            </trkseg></trk></gpx>
            <!-- end -->
            """
        let document = try GPXDocument(data: Data(text.utf8), file: "r.gpx")
        let points = try #require(document.trackSegments.first)
        #expect(points.count == 2)
        #expect(points[0].coordinate == GeoCoordinate(latitude: 48.5, longitude: 11.5))
        #expect(points[0].elevation == 50)
        #expect(points[0].time == Date(timeIntervalSince1970: 1_767_225_600))
        #expect(points[1].coordinate.longitude == 11.501)
    }

    @Test func otherDeclaredEncodingsAreConverted() throws {
        let body = "<gpx version=\"1.1\"><wpt lat=\"1\" lon=\"2\"><name>Caf\u{E9} \u{20AC}</name></wpt></gpx>"
        // UTF-16 little- and big-endian, with their byte order marks.
        let declaration = "<?xml version=\"1.0\" encoding=\"UTF-16\"?>"
        let little = Data([0xFF, 0xFE]) + Data((declaration + body).utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
        let big = Data([0xFE, 0xFF]) + Data((declaration + body).utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] })
        for data in [little, big] {
            #expect(try GPXDocument(data: data, file: "u.gpx").waypoints.map(\.coordinate) == [GeoCoordinate(latitude: 1, longitude: 2)])
        }
        // windows-1252: 0x80 is the euro sign, 0xE9 an e with an acute accent.
        let cp1252 = Data("<?xml version=\"1.0\" encoding=\"windows-1252\"?><gpx><wpt lat=\"3\" lon=\"4\"><name>Caf".utf8) + Data([0xE9, 0x20, 0x80])
            + Data("</name></wpt></gpx>".utf8)
        #expect(try GPXDocument(data: cp1252, file: "w.gpx").waypoints.count == 1)
        // An encoding that is not read is named.
        let error = try #require(throws: GPXError.self) {
            try GPXDocument(data: Data("<?xml version=\"1.0\" encoding=\"UTF-7\"?><gpx/>".utf8), file: "e.gpx")
        }
        #expect(error.message.contains("'utf-7', which is not read"), "\(error)")
    }
}
