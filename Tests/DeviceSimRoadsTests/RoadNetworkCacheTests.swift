import DeviceSimHAL
@testable import DeviceSimRoads
import DeviceSimTestSupport
import Foundation
import Testing

/// Prepared files of road networks. Building a network with its hierarchies takes seconds in a debug build,
/// so each test does its building on a thread of its own (`onAThreadOfItsOwn`, leaving the cooperative pool
/// to the other suites), the suite runs one test at a time, and only the first test builds Helsinki's
/// hierarchies more than once; the others use the small Ærøbyen extract where they can.
@Suite(.serialized) struct RoadNetworkCacheTests {
    static let worlds = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Simulator/worlds").standardizedFileURL

    /// A fresh folder with a copy of an extract of `Simulator/worlds` and an empty cache folder.
    static func folder(copying name: String = "helsinki.osm.pbf") throws -> (extract: String, cache: RoadNetworkCache, folder: URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("road-cache-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let extract = folder.appendingPathComponent("city.osm.pbf")
        try FileManager.default.copyItem(at: worlds.appendingPathComponent(name), to: extract)
        return (extract.path, RoadNetworkCache(folder: folder.appendingPathComponent("cache")), folder)
    }

    /// Route lengths and times between fixed positions (Helsinki's, else five of the network's own nodes),
    /// and place searches, in every mode.
    static func answers(_ network: RoadNetwork) -> [String] {
        var answers: [String] = []
        let helsinki = [(60.1710, 24.9414), (60.1697, 24.9520), (60.1680, 24.9380), (60.1745, 24.9390), (60.1664, 24.9470)]
            .map { GeoCoordinate(latitude: $0.0, longitude: $0.1) }
        let positions = network.places.search("kiasma").isEmpty
            ? (0..<5).map { network.coordinates[$0 * (network.coordinates.count - 1) / 4] }
            : helsinki
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
        for name in ["kiasma", "aleksanterinkatu"] + network.places.places.prefix(2).map(\.name) {
            answers += network.places.search(name, near: positions[0]).map { "\($0.name) \($0.coordinate)" }
        }
        return answers
    }

    /// What the first test compares, computed on a thread of its own.
    struct BuiltAndPrepared: Sendable {
        var firstOrigin, secondOrigin: RoadNetworkCache.Origin
        var preparedFileWritten: Bool
        var built, prepared: [String]
        var samePlaces, sameCarEdges, sameFootLandmarks, sameTurnRestrictions: Bool
        var sameSegments: [Bool]
        var someFootSegmentOffTheSurface: Bool
        /// The segment indexes' and node locators' grids, stored in the file since format 5.
        var sameSegmentGrids: [Bool]
        var sameLocatorGrids: [Bool]
        var carAndFootLocatorCells: (car: Int, foot: Int)
    }

    @Test func aPreparedNetworkRoutesAsTheBuiltOne() async throws {
        let (extract, cache, folder) = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await onAThreadOfItsOwn {
            let first = try cache.network(contentsOf: extract)
            let written = FileManager.default.fileExists(atPath: first.preparedFile.path)
            let second = try cache.network(contentsOf: extract)
            return BuiltAndPrepared(
                firstOrigin: first.origin, secondOrigin: second.origin, preparedFileWritten: written,
                built: Self.answers(first.network), prepared: Self.answers(second.network),
                samePlaces: second.network.places.places == first.network.places.places,
                sameCarEdges: second.network.car.edgeTargets == first.network.car.edgeTargets,
                sameFootLandmarks: second.network.foot.landmarks.times == first.network.foot.landmarks.times,
                sameTurnRestrictions: second.network.turnRestrictionCount == first.network.turnRestrictionCount,
                // The joinable segments with which of them are in a tunnel or on a bridge.
                sameSegments: TravelMode.allCases.map { second.network.segments(for: $0).segments == first.network.segments(for: $0).segments },
                someFootSegmentOffTheSurface: second.network.segments(for: .foot).segments.contains { $0.isOffTheSurface },
                sameSegmentGrids: TravelMode.allCases.map { second.network.segments(for: $0).grid == first.network.segments(for: $0).grid },
                sameLocatorGrids: [
                    second.network.footLocator.grid == first.network.footLocator.grid,
                    second.network.bikeLocator.grid == first.network.bikeLocator.grid,
                    second.network.carLocator.grid == first.network.carLocator.grid,
                ],
                carAndFootLocatorCells: (second.network.carLocator.grid.cellNodes.count, second.network.footLocator.grid.cellNodes.count))
        }
        #expect(result.firstOrigin == .built(.noPreparedFile))
        #expect(result.preparedFileWritten)
        #expect(result.secondOrigin == .prepared)
        #expect(result.built.count > 60)
        #expect(result.prepared == result.built)
        #expect(result.samePlaces)
        #expect(result.sameCarEdges)
        #expect(result.sameFootLandmarks)
        #expect(result.sameTurnRestrictions)
        #expect(result.sameSegments == TravelMode.allCases.map { _ in true })
        #expect(result.someFootSegmentOffTheSurface)
        #expect(result.sameSegmentGrids == TravelMode.allCases.map { _ in true })
        #expect(result.sameLocatorGrids == [true, true, true])
        #expect(result.carAndFootLocatorCells.car > result.carAndFootLocatorCells.foot / 10)
    }

    @Test func aChangedExtractRebuildsItsPreparedFile() async throws {
        let (extract, cache, folder) = try Self.folder(copying: "aerobyen.osm.pbf")
        defer { try? FileManager.default.removeItem(at: folder) }
        let worlds = Self.worlds
        let origins = try await onAThreadOfItsOwn {
            let aerobyen = try cache.network(contentsOf: extract)
            // Touched only (same bytes, another modification time): rebuilt, never trusted on its name.
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -3600)], ofItemAtPath: extract)
            let touched = try cache.network(contentsOf: extract).origin
            // Another extract under the same name: the prepared file is stale.
            try FileManager.default.removeItem(atPath: extract)
            try FileManager.default.copyItem(at: worlds.appendingPathComponent("helsinki.osm.pbf"), to: URL(fileURLWithPath: extract))
            let changed = try cache.network(contentsOf: extract)
            let again = try cache.network(contentsOf: extract).origin
            return (touched: touched, changed: changed.origin, again: again,
                    nodes: (aerobyen: aerobyen.network.coordinates.count, changed: changed.network.coordinates.count),
                    kiasmaFound: !changed.network.places.search("kiasma").isEmpty)
        }
        #expect(origins.touched == .built(.extractChanged))
        #expect(origins.changed == .built(.extractChanged))
        #expect(origins.kiasmaFound, "the rebuilt network is Helsinki's")
        #expect(origins.nodes.changed > 10 * origins.nodes.aerobyen)
        #expect(origins.again == .prepared)
    }

    @Test func aDamagedPreparedFileIsRebuiltSilently() async throws {
        let (extract, cache, folder) = try Self.folder(copying: "aerobyen.osm.pbf")
        defer { try? FileManager.default.removeItem(at: folder) }
        let checked = try await onAThreadOfItsOwn {
            let file = try cache.network(contentsOf: extract).preparedFile
            let expected = Self.answers(try RoadNetwork(contentsOf: extract))
            var bytes = [UInt8](try Data(contentsOf: file))
            bytes[bytes.count / 2] ^= 0x40
            try Data(bytes).write(to: file)
            let damaged = try cache.network(contentsOf: extract)
            let damagedAnswers = Self.answers(damaged.network)
            let mended = try cache.network(contentsOf: extract).origin
            // Cut short, or not a prepared file at all.
            try Data(bytes.prefix(bytes.count / 3)).write(to: file)
            let cut = try cache.network(contentsOf: extract).origin
            try Data("hello".utf8).write(to: file)
            let hello = try cache.network(contentsOf: extract).origin
            let rebuiltAnswers = Self.answers(try cache.network(contentsOf: extract).network)
            return (expected: expected, damaged: damaged.origin, damagedAnswers: damagedAnswers, mended: mended, cut: cut, hello: hello,
                    rebuiltAnswers: rebuiltAnswers)
        }
        #expect(checked.expected.count > 20)
        #expect(checked.damaged == .built(.damaged))
        #expect(checked.damagedAnswers == checked.expected)
        #expect(checked.mended == .prepared)
        #expect(checked.cut == .built(.damaged))
        #expect(checked.hello == .built(.damaged))
        #expect(checked.rebuiltAnswers == checked.expected)
    }

    @Test func aMissingExtractIsStillAnError() throws {
        let cache = RoadNetworkCache(folder: FileManager.default.temporaryDirectory.appendingPathComponent("road-cache-\(UUID().uuidString)"))
        #expect(throws: OSMReadError.self) { try cache.network(contentsOf: "/nonexistent/city.osm.pbf") }
    }
}

/// The prepared file's own parts: the grids read back instead of rebuilt, and the hash that notices damage.
@Suite struct PreparedFileTests {
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
