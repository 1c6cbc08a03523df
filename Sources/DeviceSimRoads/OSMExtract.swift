import DeviceSimHAL

/// What a road graph and a place search need of an OpenStreetMap extract: node positions, the ways
/// tagged `highway` with the tags that decide who may use them and how fast, the node lists of
/// other ways (outlines of areas), turn restrictions, pedestrian areas mapped as multipolygons, and
/// the named or addressed nodes, ways and relations.
///
/// ```swift
/// let extract = try OSMPBFReader.read(contentsOf: "Simulator/worlds/helsinki.osm.pbf")
/// let network = RoadNetwork(extract)
/// ```
public struct OSMExtract: Sendable {
    /// A way tagged `highway`.
    public struct Way: Sendable, Hashable {
        /// The OSM way id.
        public var id: Int64
        /// Its node ids, in order.
        public var nodeIDs: [Int64]
        /// Its tags that routing reads (see ``OSMPBFReader/routingTagKeys``).
        public var tags: [String: String]

        /// Creates a way.
        public init(id: Int64, nodeIDs: [Int64], tags: [String: String]) {
            self.id = id
            self.nodeIDs = nodeIDs
            self.tags = tags
        }
    }

    /// A node with a `name` tag.
    public struct NamedNode: Sendable, Hashable {
        /// The OSM node id.
        public var id: Int64
        /// Its name.
        public var name: String
        /// Where it is.
        public var coordinate: GeoCoordinate
    }

    /// A member of a relation.
    public struct Member: Sendable, Hashable {
        /// What a member is.
        public enum Kind: UInt64, Sendable, Hashable {
            case node = 0, way = 1, relation = 2
        }

        /// Node, way or relation.
        public var kind: Kind
        /// Its OSM id.
        public var id: Int64
        /// Its role (`from`, `via`, `to`, `outer`, `inner`...).
        public var role: String
    }

    /// A relation routing reads: a turn restriction or a pedestrian area.
    public struct Relation: Sendable, Hashable {
        /// The OSM relation id.
        public var id: Int64
        /// The tags routing reads (`restriction*` and `except`; the area's routing tags).
        public var tags: [String: String]
        /// Its members, in order.
        public var members: [Member]
    }

    /// A node, way or relation with a name or an address, for place search.
    public struct Feature: Sendable, Hashable {
        /// Where it comes from.
        public var kind: Member.Kind
        /// Its OSM id.
        public var id: Int64
        /// Its tags of ``OSMPBFReader/searchTagKeys``.
        public var tags: [String: String]
        /// Its position: a node's own, the mean of a way's or a relation's nodes.
        public var coordinate: GeoCoordinate

        /// Whether tags name something or give an address: what makes a feature.
        static func isSearchable(_ tags: [String: String]) -> Bool {
            tags["name"] != nil || tags["name:fi"] != nil || tags["name:sv"] != nil || tags["alt_name"] != nil || tags["official_name"] != nil
                || (tags["addr:street"] != nil && tags["addr:housenumber"] != nil)
        }
    }

    /// A way or relation feature whose position is known once every node is read.
    struct PendingFeature: Sendable {
        var kind: Member.Kind
        var id: Int64
        var tags: [String: String]
        /// A relation's member ways.
        var members: [Int64]
    }

    /// Node ids, ascending.
    public private(set) var nodeIDs: [Int64] = []
    /// Latitudes of the nodes in ``nodeIDs`` order.
    public private(set) var latitudes: [Double] = []
    /// Longitudes of the nodes in ``nodeIDs`` order.
    public private(set) var longitudes: [Double] = []
    /// The ways tagged `highway`.
    public var highways: [Way] = []
    /// The nodes tagged `name`.
    public var namedNodes: [NamedNode] = []
    /// The node lists of ways not tagged `highway` (outlines of areas, buildings...), by way id.
    public var otherWays: [Int64: [Int64]] = [:]
    /// Turn restrictions (`type=restriction`).
    public var restrictionRelations: [Relation] = []
    /// Multipolygons tagged `highway` (pedestrian areas).
    public var areaRelations: [Relation] = []
    /// Named or addressed nodes, ways and relations, positioned (see ``Feature``).
    public private(set) var features: [Feature] = []
    /// Ways and relations waiting for their position until every node is read.
    var pendingFeatures: [PendingFeature] = []

    /// An empty extract.
    public init() {}

    /// Nodes left out because their latitude or longitude is out of range (not finite, beyond ±90° or
    /// ±180°).
    public private(set) var invalidNodeCount = 0

    /// Adds a node (any order; ``finish()`` sorts); a node whose position is out of range is left
    /// out and counted in ``invalidNodeCount`` (false).
    @discardableResult
    mutating func appendNode(id: Int64, latitude: Double, longitude: Double) -> Bool {
        guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180 else {
            invalidNodeCount += 1
            return false
        }
        nodeIDs.append(id)
        latitudes.append(latitude)
        longitudes.append(longitude)
        return true
    }

    /// Keeps a node's search tags: its `name` in ``namedNodes``, and the node as a ``Feature`` when
    /// it names something or gives an address.
    mutating func addNodeTags(id: Int64, coordinate: GeoCoordinate, _ tags: [String: String]) {
        if let name = tags["name"] { namedNodes.append(.init(id: id, name: name, coordinate: coordinate)) }
        if Feature.isSearchable(tags) { features.append(.init(kind: .node, id: id, tags: tags, coordinate: coordinate)) }
    }

    /// The node ids of way `id`, a highway or another way, if the extract has it.
    public func nodeIDs(ofWay id: Int64) -> [Int64]? {
        if let nodes = otherWays[id] { return nodes }
        return highwayIndex[id].map { highways[$0].nodeIDs }
    }

    /// Each highway's index in ``highways`` by its id.
    private var highwayIndex: [Int64: Int] = [:]

    /// Sorts the nodes by id when the file did not have them sorted, and positions the ways' and
    /// relations' features at the mean of their nodes (those the extract has; none: left out).
    mutating func finish() {
        sortNodes()
        for (index, way) in highways.enumerated() where highwayIndex[way.id] == nil { highwayIndex[way.id] = index }
        for pending in pendingFeatures {
            let nodes = pending.kind == .way ? (nodeIDs(ofWay: pending.id) ?? []) : pending.members.flatMap { nodeIDs(ofWay: $0) ?? [] }
            var latitude = 0.0, longitude = 0.0, count = 0
            for id in Set(nodes).sorted() {
                guard let coordinate = coordinate(ofNode: id) else { continue }
                latitude += coordinate.latitude
                longitude += coordinate.longitude
                count += 1
            }
            guard count > 0 else { continue }
            features.append(.init(kind: pending.kind, id: pending.id, tags: pending.tags, coordinate: GeoCoordinate(latitude: latitude / Double(count), longitude: longitude / Double(count))))
        }
        pendingFeatures = []
    }

    private mutating func sortNodes() {
        var sorted = true
        for i in nodeIDs.indices.dropFirst() where nodeIDs[i - 1] >= nodeIDs[i] { sorted = false; break }
        guard !sorted else { return }
        let order = nodeIDs.indices.sorted { nodeIDs[$0] < nodeIDs[$1] }
        nodeIDs = order.map { nodeIDs[$0] }
        latitudes = order.map { latitudes[$0] }
        longitudes = order.map { longitudes[$0] }
    }

    /// The position of node `id`, if the extract has it.
    public func coordinate(ofNode id: Int64) -> GeoCoordinate? {
        var low = 0, high = nodeIDs.count
        while low < high {
            let mid = (low + high) >> 1
            if nodeIDs[mid] < id { low = mid + 1 } else { high = mid }
        }
        guard low < nodeIDs.count, nodeIDs[low] == id else { return nil }
        return GeoCoordinate(latitude: latitudes[low], longitude: longitudes[low])
    }
}
