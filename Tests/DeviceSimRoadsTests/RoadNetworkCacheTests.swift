import DeviceSimHAL
@testable import DeviceSimRoads
import Foundation
import Testing

@Suite struct RoadNetworkCacheTests {
    static let worlds = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Simulator/worlds").standardizedFileURL

    /// A fresh folder with a copy of the Helsinki extract and an empty cache folder.
    static func folder() throws -> (extract: String, cache: RoadNetworkCache, folder: URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("road-cache-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let extract = folder.appendingPathComponent("city.osm.pbf")
        try FileManager.default.copyItem(at: worlds.appendingPathComponent("helsinki.osm.pbf"), to: extract)
        return (extract.path, RoadNetworkCache(folder: folder.appendingPathComponent("cache")), folder)
    }

    /// Route lengths and times between fixed positions, and a place search, in every mode.
    static func answers(_ network: RoadNetwork) -> [String] {
        var answers: [String] = []
        let positions = [(60.1710, 24.9414), (60.1697, 24.9520), (60.1680, 24.9380), (60.1745, 24.9390), (60.1664, 24.9470)]
            .map { GeoCoordinate(latitude: $0.0, longitude: $0.1) }
        for mode in TravelMode.allCases {
            var planner = RoutePlanner(network: network, mode: mode)
            for from in positions {
                for to in positions where to != from {
                    switch planner.route(from: from, through: [RouteStop(name: "to", coordinate: to)]) {
                    case .success(let route): answers.append("\(mode) \(route.metres) \(route.seconds) \(route.points.count)")
                    case .failure(let failure): answers.append("\(mode) \(failure)")
                    }
                }
            }
        }
        answers += network.places.search("kiasma").map { "\($0.name) \($0.coordinate)" }
        answers += network.places.search("aleksanterinkatu", near: positions[0]).map { "\($0.name) \($0.coordinate)" }
        return answers
    }

    @Test func aPreparedNetworkRoutesAsTheBuiltOne() throws {
        let (extract, cache, folder) = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try cache.network(contentsOf: extract)
        #expect(first.origin == .built(.noPreparedFile))
        #expect(FileManager.default.fileExists(atPath: first.preparedFile.path))
        let second = try cache.network(contentsOf: extract)
        #expect(second.origin == .prepared)
        let built = Self.answers(first.network), prepared = Self.answers(second.network)
        #expect(built.count > 60)
        #expect(prepared == built)
        #expect(second.network.places.places == first.network.places.places)
        #expect(second.network.car.edgeTargets == first.network.car.edgeTargets)
        #expect(second.network.foot.landmarks.times == first.network.foot.landmarks.times)
        #expect(second.network.turnRestrictionCount == first.network.turnRestrictionCount)
        // The joinable segments with which of them are in a tunnel or on a bridge.
        for mode in TravelMode.allCases { #expect(second.network.segments(for: mode).segments == first.network.segments(for: mode).segments) }
        #expect(second.network.segments(for: .foot).segments.contains { $0.isOffTheSurface })
    }

    @Test func aChangedExtractRebuildsItsPreparedFile() throws {
        let (extract, cache, folder) = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let helsinki = try cache.network(contentsOf: extract)
        // Another extract under the same name: the prepared file is stale.
        try FileManager.default.removeItem(atPath: extract)
        try FileManager.default.copyItem(at: Self.worlds.appendingPathComponent("aerobyen.osm.pbf"), to: URL(fileURLWithPath: extract))
        let changed = try cache.network(contentsOf: extract)
        #expect(changed.origin == .built(.extractChanged))
        #expect(changed.network.coordinates.count == (try RoadNetwork(contentsOf: extract)).coordinates.count)
        #expect(changed.network.coordinates.count != helsinki.network.coordinates.count)
        #expect(try cache.network(contentsOf: extract).origin == .prepared)
        // Touched only (same bytes, another modification time): rebuilt, never trusted on its name.
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: extract)
        #expect(try cache.network(contentsOf: extract).origin == .built(.extractChanged))
    }

    @Test func aDamagedPreparedFileIsRebuiltSilently() throws {
        let (extract, cache, folder) = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try cache.network(contentsOf: extract).preparedFile
        let expected = Self.answers(try RoadNetwork(contentsOf: extract))
        var bytes = [UInt8](try Data(contentsOf: file))
        bytes[bytes.count / 2] ^= 0x40
        try Data(bytes).write(to: file)
        let damaged = try cache.network(contentsOf: extract)
        #expect(damaged.origin == .built(.damaged))
        #expect(Self.answers(damaged.network) == expected)
        #expect(try cache.network(contentsOf: extract).origin == .prepared)
        // Cut short, or not a prepared file at all.
        try Data(bytes.prefix(bytes.count / 3)).write(to: file)
        #expect(try cache.network(contentsOf: extract).origin == .built(.damaged))
        try Data("hello".utf8).write(to: file)
        #expect(try cache.network(contentsOf: extract).origin == .built(.damaged))
        #expect(Self.answers(try cache.network(contentsOf: extract).network) == expected)
    }

    @Test func aMissingExtractIsStillAnError() throws {
        let cache = RoadNetworkCache(folder: FileManager.default.temporaryDirectory.appendingPathComponent("road-cache-\(UUID().uuidString)"))
        #expect(throws: OSMReadError.self) { try cache.network(contentsOf: "/nonexistent/city.osm.pbf") }
    }
}

/// The prepared file's own parts: the grids read back instead of rebuilt, and the hash that notices damage.
@Suite struct PreparedFileTests {
    @Test func aPreparedNetworkHasTheGridsItWasBuiltWith() throws {
        let (extract, cache, folder) = try RoadNetworkCacheTests.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let built = try cache.network(contentsOf: extract).network
        let prepared = try cache.network(contentsOf: extract)
        #expect(prepared.origin == .prepared)
        for mode in TravelMode.allCases {
            #expect(prepared.network.segments(for: mode).grid == built.segments(for: mode).grid)
        }
        #expect(prepared.network.footLocator.grid == built.footLocator.grid)
        #expect(prepared.network.bikeLocator.grid == built.bikeLocator.grid)
        #expect(prepared.network.carLocator.grid == built.carLocator.grid)
        #expect(prepared.network.carLocator.grid.cellNodes.count > prepared.network.footLocator.grid.cellNodes.count / 10)
    }

    @Test func everySingleChangedBitGivesItsOwnHash() {
        // 100 bytes: three 32-byte blocks (each word in one of the four lanes) and a tail of 4. The same
        // bit of the same word in two lanes once gave the same hash (the lanes were folded by xor).
        let bytes = (0..<100).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        let original = bytes.withUnsafeBytes { preparedFileHash($0) }
        var hashes: Set<UInt64> = [original]
        for index in bytes.indices {
            for bit in 0..<8 {
                var changed = bytes
                changed[index] ^= 1 << bit
                hashes.insert(changed.withUnsafeBytes { preparedFileHash($0) })
            }
        }
        #expect(hashes.count == 1 + 8 * bytes.count)
        // One byte more or less is another hash too.
        #expect((bytes + [0]).withUnsafeBytes { preparedFileHash($0) } != original)
        #expect(bytes.dropLast().withUnsafeBytes { preparedFileHash($0) } != original)
    }
}
