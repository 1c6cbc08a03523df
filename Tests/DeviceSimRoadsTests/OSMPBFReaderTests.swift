import DeviceSimHAL
@testable import DeviceSimRoads
import Foundation
import Testing

@Suite struct OSMPBFReaderTests {
    @Test func readsTheHelsinkiExtract() throws {
        let extract = Helsinki.extract
        // The figures of `osmium fileinfo -e` for this file (its README).
        #expect(extract.nodeIDs.count == 24_260)
        #expect(extract.highways.count == 2_650)
        // Highway ways reference 7,738 nodes, 6,910 of them in the extract (`osmium tags-filter w/highway`).
        let referenced = Set(extract.highways.flatMap(\.nodeIDs))
        #expect(referenced.count == 7_738)
        #expect(referenced.filter { extract.coordinate(ofNode: $0) != nil }.count == 6_910)
        // Positions and names as `osmium cat -f opl` prints them.
        let first = try #require(extract.coordinate(ofNode: 25_291_537))
        #expect(abs(first.longitude - 24.9370245) < 1e-9 && abs(first.latitude - 60.1643249) < 1e-9)
        let bistro = try #require(extract.namedNodes.first { $0.id == 4_518_279_089 })
        #expect(bistro.name == "Ateneum Bistro")
        #expect(abs(bistro.coordinate.longitude - 24.9437993) < 1e-9 && abs(bistro.coordinate.latitude - 60.1700358) < 1e-9)
        #expect(extract.nodeIDs == extract.nodeIDs.sorted())
    }

    @Test func wayTagsKeepOnlyRoutingKeys() {
        for way in Helsinki.extract.highways { #expect(Set(way.tags.keys).isSubset(of: OSMPBFReader.routingTagKeys)) }
        #expect(Helsinki.extract.highways.contains { $0.tags["name"] == "Mannerheimintie" })
    }

    @Test func malformedFilesGiveErrorsNotCrashes() {
        #expect(throws: OSMReadError.self) { try OSMPBFReader.read(Data()) }
        #expect(throws: OSMReadError.self) { try OSMPBFReader.read(Data([0, 0, 0, 5, 1, 2, 3])) }
        #expect(throws: OSMReadError.self) { try OSMPBFReader.read(contentsOf: "/nonexistent/file.osm.pbf") }
        // Every truncation of the real file fails cleanly.
        let data = try! Data(contentsOf: URL(fileURLWithPath: Helsinki.path))
        for length in stride(from: 1, to: data.count, by: 9_973) {
            #expect(throws: OSMReadError.self) { try OSMPBFReader.read(data.prefix(length)) }
        }
        // A corrupted zlib payload is an error too.
        var corrupted = data
        for offset in stride(from: 300, to: 2_000, by: 7) { corrupted[offset] ^= 0x5A }
        #expect(throws: OSMReadError.self) { try OSMPBFReader.read(corrupted) }
    }

    @Test func protobufVarintsAndZigzag() throws {
        let bytes: [UInt8] = [0x96, 0x01, 0x03, 0x04, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]
        bytes.withUnsafeBytes { buffer in
            var reader = ProtobufReader(buffer)
            #expect((try? reader.varint()) == 150)
            #expect((try? reader.signedVarint()) == -2)
            #expect((try? reader.signedVarint()) == 2)
            #expect((try? reader.varint()) == UInt64.max)
            #expect(reader.isAtEnd)
        }
    }
}
