/// Why an OSM PBF file could not be read.
public enum OSMReadError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file could not be opened or read.
    case unreadable(path: String, reason: String)
    /// The bytes are not valid OSM PBF.
    case malformed(String)
    /// The file needs a feature this reader does not have (such as LZMA-compressed blocks).
    case unsupported(String)
    /// The file (named) is OpenStreetMap XML, which this reader does not read: it says how to convert it.
    case osmXML(String)
    /// Block `block` (counting from 1) of `file` is not valid OSM PBF or is beyond the format's
    /// limits.
    case badBlock(file: String, block: Int, reason: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): "cannot read OSM file \(path): \(reason)"
        case .malformed(let detail): "not a valid OSM PBF file: \(detail)"
        case .unsupported(let detail): "unsupported OSM PBF file: \(detail)"
        case .osmXML(let name):
            "\(name) is OSM XML; DeviceSim reads OSM PBF: convert it with `osmium cat \(name) -o \(OSMPBFReader.pbfName(for: name))`"
        case .badBlock(let file, let block, let reason): "not a valid OSM PBF file: \(file), block \(block): \(reason)"
        }
    }
}
