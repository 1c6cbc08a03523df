// What route-check and route-timing share: their first arguments (EXTRACT [PAIRS] [SEED]), the
// extract's road network, and seeded random positions in the box of its nodes.
import DeviceSimHAL
import DeviceSimRoads
import Foundation

/// The extract and a seeded stream of random positions in its box, from a command's arguments
/// `EXTRACT.osm.pbf [PAIRS] [SEED] [MORE...]`.
///
/// ```swift
/// var pairs = RandomPairs.fromArguments(usage: "route-check EXTRACT.osm.pbf [PAIRS] [SEED]", defaultPairCount: 3000, defaultSeed: 11)
/// let a = pairs.randomPosition()
/// ```
public struct RandomPairs {
    /// The extract's roads.
    public let network: RoadNetwork
    /// How many pairs to route (PAIRS).
    public let pairCount: Int
    /// The arguments after SEED.
    public let moreArguments: [String]
    private let south: Double, north: Double, west: Double, east: Double
    private var state: UInt64

    /// Reads the command line; on a wrong one prints `usage: <usage>` (or the extract's error) and
    /// exits with status 2.
    public static func fromArguments(usage: String, defaultPairCount: Int, defaultSeed: UInt64) -> RandomPairs {
        let arguments = CommandLine.arguments
        func fail(_ message: String) -> Never {
            FileHandle.standardError.write(Data("\(message)\nusage: \(usage)\n".utf8))
            exit(2)
        }
        guard arguments.count >= 2 else { fail("no extract named") }
        var pairCount = defaultPairCount
        if arguments.count > 2 {
            guard let count = Int(arguments[2]), count > 0 else { fail("PAIRS is a whole number above 0, not '\(arguments[2])'") }
            pairCount = count
        }
        var seed = defaultSeed
        if arguments.count > 3 {
            guard let number = UInt64(arguments[3]) else { fail("SEED is a whole number from 0, not '\(arguments[3])'") }
            seed = number
        }
        let network: RoadNetwork
        do { network = try RoadNetwork(contentsOf: arguments[1]) } catch { fail("\(arguments[1]): \(error)") }
        guard !network.coordinates.isEmpty else { fail("\(arguments[1]) has no road nodes") }
        return RandomPairs(network: network, pairCount: pairCount, seed: seed, moreArguments: Array(arguments.dropFirst(4)))
    }

    private init(network: RoadNetwork, pairCount: Int, seed: UInt64, moreArguments: [String]) {
        self.network = network
        self.pairCount = pairCount
        self.moreArguments = moreArguments
        state = seed
        let latitudes = network.coordinates.map(\.latitude), longitudes = network.coordinates.map(\.longitude)
        (south, north, west, east) = (latitudes.min()!, latitudes.max()!, longitudes.min()!, longitudes.max()!)
    }

    /// The next number of the seeded sequence, in 0..<1.
    public mutating func nextRandom() -> Double {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return Double(state >> 11) / Double(1 << 53)
    }

    /// A random position in the box of the extract's nodes (latitude drawn first).
    public mutating func randomPosition() -> GeoCoordinate {
        let latitude = south + (north - south) * nextRandom()
        return GeoCoordinate(latitude: latitude, longitude: west + (east - west) * nextRandom())
    }
}
