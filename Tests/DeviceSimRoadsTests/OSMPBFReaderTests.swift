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
        for way in Helsinki.extract.highways { #expect(way.tags.keys.allSatisfy(OSMPBFReader.keepsRoutingTag)) }
        #expect(Helsinki.extract.highways.contains { $0.tags["motor_vehicle:forward"] == "no" })
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

/// The reader's bounds (issue 37): sizes declared in the file, inflated sizes and node positions are
/// checked where they are read, and the errors name the file and the block.
@Suite struct OSMPBFBoundsTests {
    private func message(_ bytes: [UInt8]) -> String? {
        do {
            _ = try OSMPBFReader.read(Data(bytes), name: "crafted.osm.pbf")
            return nil
        } catch {
            return error.description
        }
    }

    @Test func aBlobHeaderDeclaringAHugeDatasizeIsRefused() throws {
        for size: UInt64 in [1 << 63, UInt64.max, UInt64(OSMPBFReader.maximumBlobSize) + 1] {
            let text = try #require(message(PBFBytes.header + PBFBytes.block(type: "OSMData", blob: [], declaredSize: size)))
            #expect(text == "not a valid OSM PBF file: crafted.osm.pbf, block 2: its BlobHeader declares a Blob of \(size) bytes, more than the format's 33554432")
        }
    }

    @Test func aBlobDeclaringAHugeRawSizeIsRefused() throws {
        let payload = PBFBytes.denseNodes([(601_700_000, 249_400_000)])
        for size: UInt64 in [UInt64.max, 1 << 63, UInt64(OSMPBFReader.maximumBlobSize) + 1] {
            let text = try #require(message(PBFBytes.header + PBFBytes.block(type: "OSMData", blob: PBFBytes.zlibBlob(payload, rawSize: size))))
            #expect(text == "not a valid OSM PBF file: crafted.osm.pbf, block 2: its Blob declares raw_size \(size), more than the format's 33554432 bytes")
        }
    }

    @Test func aBlobInflatingPastItsRawSizeStopsThere() throws {
        let payload = PBFBytes.denseNodes([(601_700_000, 249_400_000), (601_700_100, 249_400_100)])
        let text = try #require(message(PBFBytes.header + PBFBytes.block(type: "OSMData", blob: PBFBytes.zlibBlob(payload, rawSize: UInt64(payload.count - 3)))))
        #expect(text.hasPrefix("not a valid OSM PBF file: crafted.osm.pbf, block 2: its zlib Blob inflates to more than its raw_size"))
    }

    /// A zlib bomb: blocks of a few kilobytes that each inflate to 32 MiB of (valid) dense node
    /// ids. The first inflates; the second is refused before it is inflated.
    @Test func aZlibBombIsRefusedBeforeItInflates() throws {
        let column = [UInt8](repeating: 0x02, count: (OSMPBFReader.maximumBlobSize - 64) / 3)
        let dense = PBFBytes.field(1, bytes: column) + PBFBytes.field(8, bytes: column) + PBFBytes.field(9, bytes: column)
        let payload = PBFBytes.field(2, bytes: PBFBytes.field(2, bytes: dense))
        let blob = PBFBytes.zlibBlob(payload)
        #expect(blob.count < 100_000)
        let bomb = PBFBytes.block(type: "OSMData", blob: blob)
        let text = try #require(message(PBFBytes.header + bomb + bomb + bomb))
        #expect(text.hasPrefix("not a valid OSM PBF file: crafted.osm.pbf, block 3: its Blob would inflate to"))
    }

    @Test func nodesOutOfRangeAreSkippedAndCounted() throws {
        let payload = PBFBytes.denseNodes([(601_700_000, 249_400_000), (9_000_000_000, 249_400_000), (601_700_000, -18_000_000_001), (-900_000_000, 1_800_000_000)])
        let extract = try OSMPBFReader.read(Data(PBFBytes.header + PBFBytes.block(type: "OSMData", blob: PBFBytes.rawBlob(payload))))
        #expect(extract.nodeIDs == [1, 4])
        #expect(extract.invalidNodeCount == 2)
        // A granularity that takes every position out of range.
        let huge = PBFBytes.denseNodes([(601_700_000, 249_400_000)], granularity: 1_000_000)
        let none = try OSMPBFReader.read(Data(PBFBytes.header + PBFBytes.block(type: "OSMData", blob: PBFBytes.rawBlob(huge))))
        #expect(none.nodeIDs.isEmpty && none.invalidNodeCount == 1)
    }

    @Test func errorsNameTheFile() throws {
        #expect(throws: OSMReadError.badBlock(file: "crafted.osm.pbf", block: 1, reason: "the block length is cut off (2 of 4 bytes)")) {
            try OSMPBFReader.read(Data([0, 0]), name: "crafted.osm.pbf")
        }
    }
}
