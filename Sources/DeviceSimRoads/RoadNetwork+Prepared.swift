import DeviceSimHAL

/// A road network as the bytes of a prepared file (``RoadNetworkCache``) and back: every array the
/// network searches with, the landmark tables and contraction hierarchies included, so that reading
/// it back costs copying them, not building them.
extension RoadNetwork {
    /// Bumped whenever the layout below or the rules building a network change: a prepared file of
    /// another version is rebuilt. 6: the four-lane ``preparedFileHash(_:)``, the node locators' and
    /// segment indexes' grids (5 in their own branch), and the contraction hierarchy stored by rank with
    /// 24-byte arcs (5 in theirs). 7: each hierarchy arc's end and time in 12 bytes, its tie-breaker
    /// and middle in a parallel array. 8: each hierarchy's core table (``HierarchyCoreTable``).
    static let preparedFormatVersion: UInt32 = 8

    /// The network's arrays (each graph's landmark table and contraction hierarchy computed first if
    /// they were not yet).
    func preparedBytes() -> [UInt8] {
        var writer = PreparedFileWriter()
        writer.append(Self.flatten(coordinates))
        writer.append(osmNodeIDs)
        for graph in [foot, bike, car] { Self.write(graph, into: &writer) }
        for locator in [footLocator, bikeLocator, carLocator] {
            let grid = locator.grid
            writer.append(grid.cellKeys)
            writer.append(grid.cellNodes)
            writer.append(grid.longitudeCellDegrees)
            for bound in [grid.rows.lowerBound, grid.rows.upperBound, grid.columns.lowerBound, grid.columns.upperBound] { writer.append(bound) }
        }
        for index in [footSegments, bikeSegments, carSegments] {
            writer.append(index.segments.map(\.a))
            writer.append(index.segments.map(\.b))
            writer.append(index.segments.map(\.forward))
            writer.append(index.segments.map(\.backward))
            writer.append(index.segments.map { UInt8($0.isOffTheSurface ? 1 : 0) })
            let grid = index.grid
            for value in [grid.south, grid.west, grid.cellLatitude, grid.cellLongitude] { writer.append(value) }
            writer.append(Int64(grid.rows))
            writer.append(Int64(grid.columns))
            writer.append(grid.cellStarts)
            writer.append(grid.cellSegments)
        }
        let copies = carSplits.copies.sorted { $0.key < $1.key }
        writer.append(Int64(carSplits.originalCount))
        writer.append(carSplits.originals)
        writer.append(copies.map(\.key))
        writer.append(copies.map(\.value))
        let places = places.places
        writer.append(strings: places.map(\.name))
        writer.append(Self.flatten(places.map(\.coordinate)))
        writer.append(strings: places.map(\.source.rawValue))
        writer.append(places.map { Int32($0.aliases.count) })
        writer.append(strings: places.flatMap(\.aliases))
        writer.append(self.places.folded.map { Int32($0.count) })
        writer.append(self.places.folded.flatMap { $0.map { Int32($0.count) } })
        writer.append(self.places.folded.flatMap { $0.flatMap { $0.map(\.value) } })
        writer.append(self.places.namesakes.map { Int32($0.count) })
        writer.append(Self.flatten(self.places.namesakes.flatMap { $0 }))
        writer.append(Int64(pedestrianAreaCount))
        writer.append(Int64(turnRestrictionCount))
        writer.append(Int64(skippedTurnRestrictionCount))
        return writer.bytes
    }

    /// The network written by ``preparedBytes()``; throws when the bytes are not such a network.
    init(preparedBytes reader: inout PreparedFileReader) throws(PreparedFileReader.Truncated) {
        let coordinates = Self.coordinates(try reader.array(Double.self))
        let ids = try reader.array(Int64.self)
        guard ids.count == coordinates.count else { throw .init() }
        let foot = try Self.readGraph(.foot, from: &reader), bike = try Self.readGraph(.bike, from: &reader), car = try Self.readGraph(.car, from: &reader)
        var locators: [NodeLocator] = []
        for graph in [foot, bike, car] {
            let keys = try reader.array(Int64.self), nodes = try reader.array(Int32.self), longitudeCellDegrees = try reader.value(Double.self)
            let rowLow = try reader.value(Int64.self), rowHigh = try reader.value(Int64.self)
            let columnLow = try reader.value(Int64.self), columnHigh = try reader.value(Int64.self)
            guard rowLow <= rowHigh, columnLow <= columnHigh else { throw .init() }
            let grid = NodeLocator.Grid(cellKeys: keys, cellNodes: nodes, longitudeCellDegrees: longitudeCellDegrees, rows: rowLow...rowHigh, columns: columnLow...columnHigh)
            guard grid.isConsistent(nodeCount: graph.nodeCount) else { throw .init() }
            locators.append(NodeLocator(coordinates: graph.coordinates, grid: grid))
        }
        var indexes: [SegmentIndex] = []
        for _ in 0..<3 {
            let a = try reader.array(Int32.self), b = try reader.array(Int32.self)
            let forward = try reader.array(Double.self), backward = try reader.array(Double.self), offTheSurface = try reader.array(UInt8.self)
            let south = try reader.value(Double.self), west = try reader.value(Double.self)
            let cellLatitude = try reader.value(Double.self), cellLongitude = try reader.value(Double.self)
            let rows = try reader.value(Int64.self), columns = try reader.value(Int64.self)
            let grid = SegmentIndex.Grid(south: south, west: west, cellLatitude: cellLatitude, cellLongitude: cellLongitude,
                                         rows: Int(truncatingIfNeeded: rows), columns: Int(truncatingIfNeeded: columns),
                                         cellStarts: try reader.array(Int32.self), cellSegments: try reader.array(Int32.self))
            guard a.count == b.count, a.count == forward.count, a.count == backward.count, a.count == offTheSurface.count,
                  zip(a, b).allSatisfy({ $0 >= 0 && $1 >= 0 && Int($0) < coordinates.count && Int($1) < coordinates.count }),
                  grid.isConsistent(segmentCount: a.count) else { throw .init() }
            let segments = a.indices.map { SegmentIndex.Segment(a: a[$0], b: b[$0], forward: forward[$0], backward: backward[$0], isOffTheSurface: offTheSurface[$0] != 0) }
            indexes.append(SegmentIndex(coordinates: coordinates, segments: segments, grid: grid))
        }
        let originalCount = try reader.value(Int64.self)
        let originals = try reader.array(Int32.self), copyKeys = try reader.array(Int64.self), copyValues = try reader.array(Int32.self)
        guard originalCount == coordinates.count, copyKeys.count == copyValues.count,
              originals.allSatisfy({ $0 >= 0 && Int($0) < coordinates.count }), car.nodeCount == coordinates.count + originals.count else { throw .init() }
        let names = try reader.strings()
        let placeCoordinates = Self.coordinates(try reader.array(Double.self))
        let sources = try reader.strings().map(Place.Source.init(rawValue:))
        let aliasCounts = try reader.array(Int32.self), aliases = try reader.strings()
        let foldedCounts = try reader.array(Int32.self), foldedLengths = try reader.array(Int32.self), foldedScalars = try reader.array(UInt32.self)
        let namesakeCounts = try reader.array(Int32.self), namesakeCoordinates = Self.coordinates(try reader.array(Double.self))
        guard namesakeCounts.count == names.count, namesakeCounts.allSatisfy({ $0 >= 0 }), namesakeCounts.reduce(0, { $0 + Int($1) }) == namesakeCoordinates.count else { throw .init() }
        var namesakes: [[GeoCoordinate]] = [], namesake = 0
        for count in namesakeCounts {
            namesakes.append(Array(namesakeCoordinates[namesake..<namesake + Int(count)]))
            namesake += Int(count)
        }
        guard placeCoordinates.count == names.count, sources.count == names.count, aliasCounts.count == names.count, foldedCounts.count == names.count,
              aliasCounts.allSatisfy({ $0 >= 0 }), aliasCounts.reduce(0, { $0 + Int($1) }) == aliases.count,
              foldedCounts.allSatisfy({ $0 >= 0 }), foldedCounts.reduce(0, { $0 + Int($1) }) == foldedLengths.count,
              foldedLengths.allSatisfy({ $0 >= 0 }), foldedLengths.reduce(0, { $0 + Int($1) }) == foldedScalars.count else { throw .init() }
        var places: [Place] = [], folded: [[[Unicode.Scalar]]] = []
        var alias = 0, name = 0, scalar = 0
        for index in names.indices {
            guard let source = sources[index] else { throw .init() }
            places.append(Place(name: names[index], coordinate: placeCoordinates[index], source: source, aliases: Array(aliases[alias..<alias + Int(aliasCounts[index])])))
            alias += Int(aliasCounts[index])
            var placeNames: [[Unicode.Scalar]] = []
            for _ in 0..<Int(foldedCounts[index]) {
                let length = Int(foldedLengths[name])
                var scalars: [Unicode.Scalar] = []
                scalars.reserveCapacity(length)
                for value in foldedScalars[scalar..<scalar + length] {
                    guard let decoded = Unicode.Scalar(value) else { throw .init() }
                    scalars.append(decoded)
                }
                placeNames.append(scalars)
                name += 1
                scalar += length
            }
            folded.append(placeNames)
        }
        pedestrianAreaCount = Int(try reader.value(Int64.self))
        turnRestrictionCount = Int(try reader.value(Int64.self))
        skippedTurnRestrictionCount = Int(try reader.value(Int64.self))
        guard reader.isAtEnd else { throw .init() }
        self.coordinates = coordinates
        osmNodeIDs = ids
        (self.foot, self.bike, self.car) = (foot, bike, car)
        (footLocator, bikeLocator, carLocator) = (locators[0], locators[1], locators[2])
        (footSegments, bikeSegments, carSegments) = (indexes[0], indexes[1], indexes[2])
        carSplits = TurnSplits(originalCount: coordinates.count, originals: originals, copies: Dictionary(uniqueKeysWithValues: zip(copyKeys, copyValues)))
        self.places = PlaceIndex(places: places, folded: folded, namesakes: namesakes)
    }

    private static func flatten(_ coordinates: [GeoCoordinate]) -> [Double] { coordinates.flatMap { [$0.latitude, $0.longitude] } }

    private static func coordinates(_ values: [Double]) -> [GeoCoordinate] {
        stride(from: 0, to: values.count - 1, by: 2).map { GeoCoordinate(latitude: values[$0], longitude: values[$0 + 1]) }
    }

    private static func write(_ graph: RoadGraph, into writer: inout PreparedFileWriter) {
        writer.append(flatten(graph.coordinates))
        writer.append(graph.unitVectors)
        writer.append(graph.edgeStarts)
        writer.append(graph.edgeTargets)
        writer.append(graph.edgeSeconds)
        writer.append(graph.edgeMetres)
        writer.append(graph.maximumSpeed)
        writer.append(graph.isRoutable.map { $0 ? UInt8(1) : 0 })
        let landmarks = graph.landmarks
        writer.append(landmarks.nodes)
        writer.append(landmarks.times)
        let hierarchy = graph.hierarchy
        writer.append(hierarchy.ranks)
        for array in [hierarchy.upStarts, hierarchy.downStarts] { writer.append(array) }
        for array in [hierarchy.upArcs, hierarchy.downArcs] { writer.append(array) }
        for array in [hierarchy.upDetails, hierarchy.downDetails] { writer.append(array) }
        writer.append(Int64(hierarchy.core.size))
        writer.append(hierarchy.core.times)
        writer.append(hierarchy.core.tieBreakers)
        writer.append(hierarchy.core.lastArcs)
    }

    private static func readGraph(_ mode: TravelMode, from reader: inout PreparedFileReader) throws(PreparedFileReader.Truncated) -> RoadGraph {
        let coordinates = Self.coordinates(try reader.array(Double.self))
        let vectors = try reader.array(Double.self), starts = try reader.array(Int32.self)
        let targets = try reader.array(Int32.self), seconds = try reader.array(Double.self), metres = try reader.array(Double.self)
        let maximumSpeed = try reader.value(Double.self)
        let routable = try reader.array(UInt8.self).map { $0 != 0 }
        let landmarkNodes = try reader.array(Int32.self), landmarkTimes = try reader.array(Float.self)
        let ranks = try reader.array(Int32.self)
        let upStarts = try reader.array(Int32.self), downStarts = try reader.array(Int32.self)
        let upArcs = try reader.array(HierarchyArc.self), downArcs = try reader.array(HierarchyArc.self)
        let upDetails = try reader.array(HierarchyArcDetail.self), downDetails = try reader.array(HierarchyArcDetail.self)
        let coreSize = try reader.value(Int64.self)
        let coreTimes = try reader.array(UInt64.self), coreTieBreakers = try reader.array(UInt64.self), coreArcs = try reader.array(Int32.self)
        guard coreSize >= 0, coreSize <= ranks.count else { throw .init() }
        let core = HierarchyCoreTable(rankCount: ranks.count, size: Int(coreSize), times: coreTimes, tieBreakers: coreTieBreakers, lastArcs: coreArcs)
        let hierarchy = ContractionHierarchy(ranks: ranks, upStarts: upStarts, upArcs: upArcs, upDetails: upDetails,
                                             downStarts: downStarts, downArcs: downArcs, downDetails: downDetails, core: core)
        let nodeCount = coordinates.count
        guard hierarchy.isConsistent(nodeCount: nodeCount), vectors.count == 3 * nodeCount, starts.count == nodeCount + 1, starts.first == 0, targets.count == seconds.count, targets.count == metres.count,
              starts.last.map(Int.init) == targets.count, zip(starts, starts.dropFirst()).allSatisfy({ $0 <= $1 }),
              targets.allSatisfy({ $0 >= 0 && Int($0) < nodeCount }), routable.count == nodeCount,
              landmarkNodes.allSatisfy({ $0 >= 0 && Int($0) < nodeCount }), landmarkTimes.count == 2 * landmarkNodes.count * nodeCount else { throw .init() }
        return RoadGraph(mode: mode, coordinates: coordinates, unitVectors: vectors, edgeStarts: starts, edgeTargets: targets, edgeSeconds: seconds,
                         edgeMetres: metres, maximumSpeed: maximumSpeed, isRoutable: routable, landmarks: LandmarkTable(nodes: landmarkNodes, times: landmarkTimes),
                         hierarchy: hierarchy)
    }
}

extension RoadGraph {
    /// A graph from its arrays as built before (a prepared file), with its landmark table and
    /// contraction hierarchy.
    init(mode: TravelMode, coordinates: [GeoCoordinate], unitVectors: [Double], edgeStarts: [Int32], edgeTargets: [Int32], edgeSeconds: [Double],
         edgeMetres: [Double], maximumSpeed: Double, isRoutable: [Bool], landmarks: LandmarkTable, hierarchy: ContractionHierarchy) {
        self.mode = mode
        self.coordinates = coordinates
        self.unitVectors = unitVectors
        self.edgeStarts = edgeStarts
        self.edgeTargets = edgeTargets
        self.edgeSeconds = edgeSeconds
        self.edgeMetres = edgeMetres
        edgeCosts = Self.costs(starts: edgeStarts, targets: edgeTargets, seconds: edgeSeconds)
        self.maximumSpeed = maximumSpeed
        self.isRoutable = isRoutable
        landmarkStore = LandmarkStore(table: landmarks)
        hierarchyStore = HierarchyStore(hierarchy: hierarchy)
    }
}

extension LandmarkTable {
    /// A table from its arrays (a prepared file).
    init(nodes: [Int32], times: [Float]) {
        self.nodes = nodes
        self.times = times
    }
}

extension PlaceIndex {
    /// An index of `places` whose names were folded before (a prepared file).
    init(places: [Place], folded: [[[Unicode.Scalar]]], namesakes: [[GeoCoordinate]]) {
        self.places = places
        self.folded = folded
        self.namesakes = namesakes
    }
}
