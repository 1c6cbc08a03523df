import DeviceSimHAL

/// What a road graph needs of an OpenStreetMap extract: node positions, named nodes, and the ways
/// tagged `highway` with the tags that decide who may use them and how fast.
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

    /// Sorts the nodes by id when the file did not have them sorted.
    mutating func finish() {
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
