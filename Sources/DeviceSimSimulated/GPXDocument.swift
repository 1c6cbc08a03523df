import DeviceSimHAL
import Foundation

/// A GPX 1.1 (or 1.0) file: tracks (`trk/trkseg/trkpt`), routes (`rte/rtept`) and waypoints (`wpt`).
///
/// ```swift
/// let gpx = try GPXDocument(contentsOf: URL(fileURLWithPath: "walk.gpx"))
/// let route = try gpx.route(speed: SpeedPreset.walk.metresPerSecond)
/// ```
public struct GPXDocument: Sendable {
    /// One point: position, and elevation and time when the file has them.
    public struct Point: Sendable, Hashable {
        public var coordinate: GeoCoordinate
        public var elevation: Double?
        public var time: Date?
    }

    /// Track segments, each a list of points, in file order.
    public var trackSegments: [[Point]] = []
    /// Routes, each a list of points.
    public var routes: [[Point]] = []
    /// Waypoints.
    public var waypoints: [Point] = []

    /// Parses GPX data; `file` names it in errors.
    public init(data: Data, file: String = "GPX") throws(GPXError) {
        // A file that is to be UTF-8 text and is not is refused where its first such byte is.
        if Self.isDeclaredUTF8(data), let (line, column) = Self.firstInvalidUTF8(data) {
            throw GPXError(file: file, line: line, column: column, message: "bytes that are not UTF-8 text (and the file does not say it is ISO-8859-1 or UTF-16); save it as UTF-8")
        }
        // So is a processing instruction without data (`<?name?>`), which GPX has no use for.
        if let (line, column, target) = Self.firstEmptyProcessingInstruction(data) {
            throw GPXError(file: file, line: line, column: column, message: "a processing instruction with no data (<?\(target)?>) is not read: remove it")
        }
        var reader = GPXXMLReader(try Self.utf8(data, file: file))
        var builder = GPXBuilder(file: file)
        while true {
            let event: GPXXMLReader.Event?
            do { event = try reader.next() } catch {
                throw GPXError(file: file, line: error.line, column: error.column, message: "not well-formed XML: \(error.message)")
            }
            guard let event else { break }
            let position = reader.positionAfterEvent
            try builder.take(event, line: position.line, column: position.column)
        }
        guard builder.sawRoot else { throw GPXError(file: file, line: 1, column: 1, message: "no <gpx> element: this is not a GPX file") }
        self = builder.document
    }

    /// The file's text as UTF-8: as it is when it is UTF-8 (checked before), else converted from the
    /// encoding it declares (one of ``otherEncodings``; UTF-16 needs its byte order mark).
    static func utf8(_ data: Data, file: String) throws(GPXError) -> [UInt8] {
        let encoding = declaredEncoding(data)
        if isDeclaredUTF8(data) {
            guard encoding == nil || encoding == "utf-8" || encoding == "utf8" else {
                throw GPXError(file: file, line: 1, column: 1, message: "the file declares the encoding '\(MessageText.excerpt(encoding ?? ""))', which is not read: save it as UTF-8 (or ISO-8859-1, windows-1252, UTF-16)")
            }
            return [UInt8](data)
        }
        let bytes = [UInt8](data)
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) {
            guard !bytes.starts(with: [0xFF, 0xFE, 0, 0]) else {
                throw GPXError(file: file, line: 1, column: 1, message: "the file is UTF-32, which is not read: save it as UTF-8")
            }
            let (high, low) = bytes[0] == 0xFE ? (0, 1) : (1, 0)
            var units: [UInt16] = []
            units.reserveCapacity(bytes.count / 2)
            for offset in stride(from: 2, to: bytes.count - 1, by: 2) {
                units.append(UInt16(bytes[offset + high]) << 8 | UInt16(bytes[offset + low]))
            }
            guard bytes.count % 2 == 0, let text = String(validating: units, as: UTF16.self) else {
                throw GPXError(file: file, line: 0, column: 0, message: "the file starts as UTF-16 but is not UTF-16 text throughout; save it as UTF-8")
            }
            return Array(text.utf8)
        }
        switch encoding {
        case "iso-8859-1", "latin1", "us-ascii", "ascii":
            return latin1ToUTF8(bytes) { _ in nil }
        case "iso-8859-15":
            return latin1ToUTF8(bytes) { iso885915[$0] }
        case "windows-1252":
            return latin1ToUTF8(bytes) { $0 >= 0x80 && $0 <= 0x9F ? windows1252[Int($0 - 0x80)] : nil }
        default:
            throw GPXError(file: file, line: 1, column: 1, message: "the file says it is UTF-16 or UTF-32 but has no byte order mark; save it as UTF-8")
        }
    }

    /// The encoding named in the XML declaration, lower-cased; nil when there is none.
    static func declaredEncoding(_ data: Data) -> String? {
        let prolog = String(decoding: data.prefix(200), as: UTF8.self)
        guard prolog.hasPrefix("<?xml") || prolog.hasPrefix("\u{FEFF}<?xml"), let end = prolog.range(of: "?>") else { return nil }
        let declaration = prolog[..<end.lowerBound].lowercased()
        guard let encoding = declaration.range(of: "encoding") else { return nil }
        return String(declaration[encoding.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\"" || $0 == "'" }.prefix { $0 != "\"" && $0 != "'" })
    }

    /// Single-byte text as UTF-8: each byte the character of that number, unless `replacement` names another.
    private static func latin1ToUTF8(_ bytes: [UInt8], replacement: (UInt8) -> Unicode.Scalar?) -> [UInt8] {
        var text = String.UnicodeScalarView()
        for byte in bytes { text.append(replacement(byte) ?? Unicode.Scalar(byte)) }
        return Array(String(text).utf8)
    }

    /// Where ISO-8859-15 differs from ISO-8859-1.
    private static let iso885915: [UInt8: Unicode.Scalar] = [
        0xA4: "\u{20AC}", 0xA6: "\u{160}", 0xA8: "\u{161}", 0xB4: "\u{17D}", 0xB8: "\u{17E}", 0xBC: "\u{152}", 0xBD: "\u{153}", 0xBE: "\u{178}",
    ]

    /// windows-1252's characters for the bytes 0x80 to 0x9F (its five unassigned bytes as ISO-8859-1 reads them).
    private static let windows1252: [Unicode.Scalar] = [
        "\u{20AC}", "\u{81}", "\u{201A}", "\u{192}", "\u{201E}", "\u{2026}", "\u{2020}", "\u{2021}", "\u{2C6}", "\u{2030}", "\u{160}", "\u{2039}", "\u{152}", "\u{8D}", "\u{17D}", "\u{8F}",
        "\u{90}", "\u{2018}", "\u{2019}", "\u{201C}", "\u{201D}", "\u{2022}", "\u{2013}", "\u{2014}", "\u{2DC}", "\u{2122}", "\u{161}", "\u{203A}", "\u{153}", "\u{9D}", "\u{17E}", "\u{178}",
    ]

    /// The encodings other than UTF-8 a GPX file may declare (its XML parser converts them to UTF-8).
    static let otherEncodings = ["iso-8859-1", "latin1", "iso-8859-15", "windows-1252", "us-ascii", "ascii", "utf-16"]

    /// Whether the data must be UTF-8 text: it has no byte order mark of UTF-16 or UTF-32, and its XML
    /// declaration names UTF-8, no encoding (which means UTF-8), or one the parser does not know.
    static func isDeclaredUTF8(_ data: Data) -> Bool {
        let head = data.prefix(4)
        if head.starts(with: [0xFE, 0xFF]) || head.starts(with: [0xFF, 0xFE]) || head.starts(with: [0, 0]) { return false }
        guard let encoding = declaredEncoding(data) else { return true }
        return !otherEncodings.contains(encoding)
    }

    /// The first processing instruction (`<?target data?>`) that has no data (the XML declaration at the
    /// very start included: it names at least its version), or whose target is `xml` anywhere else or
    /// starts with `xml` at the start: its line, column (1-based, in bytes) and target.
    static func firstEmptyProcessingInstruction(_ data: Data) -> (line: Int, column: Int, target: String)? {
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> (line: Int, column: Int, target: String)? in
            let bytes = raw.bindMemory(to: UInt8.self)
            let (open, question, close) = (UInt8(ascii: "<"), UInt8(ascii: "?"), UInt8(ascii: ">"))
            func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
            func endsHere(_ at: Int) -> Bool { at + 1 < bytes.count && bytes[at] == question && bytes[at + 1] == close }
            let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
            var index = start
            while index + 1 < bytes.count {
                guard bytes[index] == open, bytes[index + 1] == question else { index += 1; continue }
                var cursor = index + 2
                while cursor < bytes.count, !isSpace(bytes[cursor]), !endsHere(cursor) { cursor += 1 }
                let target = String(decoding: bytes[(index + 2)..<cursor], as: UTF8.self)
                while cursor < bytes.count, isSpace(bytes[cursor]) { cursor += 1 }
                let hasData = cursor < bytes.count && !endsHere(cursor)
                let name = target.lowercased()
                // At the start only the declaration may be named like `xml`; elsewhere never `xml` itself.
                let nameAllowed = index == start ? target == "xml" || !name.hasPrefix("xml") : name != "xml"
                if !hasData || target.isEmpty || !nameAllowed {
                    let before = bytes[..<index]
                    let line = 1 + before.count { $0 == UInt8(ascii: "\n") }
                    let lineStart = before.lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
                    return (line, index - lineStart + 1, target)
                }
                index = cursor
            }
            return nil
        }
    }

    /// The line and column (1-based, in bytes) of the first byte that is not part of UTF-8 text.
    static func firstInvalidUTF8(_ data: Data) -> (line: Int, column: Int)? {
        var iterator = data.makeIterator()
        var parser = Unicode.UTF8.ForwardParser()
        var line = 1, column = 1
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                if encoded.count == 1, encoded.first == UInt8(ascii: "\n") { line += 1; column = 1 } else { column += encoded.count }
            case .error:
                return (line, column)
            case .emptyInput:
                return nil
            }
        }
    }

    /// The times a point may carry, in seconds since 1970: from 1970 to the end of 2199 (in
    /// nanoseconds since 1970, as fixes carry them, any gap between two such times fits).
    static let validTimes: ClosedRange<Double> = 0...7_258_118_399

    /// The elevations a point may have, in metres (the deepest sea to the edge of space).
    static let validElevations: ClosedRange<Double> = -11_000...100_000

    /// The largest GPX file read: 4 MiB (about 50,000 timed points, 14 hours at one a second), a bound
    /// on the memory and time a track file may take (with Foundation's XML parser, which read GPX files
    /// before ``GPXXMLReader``, 8 MiB took 9 s of CPU to validate, 4 MiB under 5 s:
    /// `Benchmarks/limits/validate-at-limits.py gpx`).
    public static let maximumFileSize = 4 << 20

    /// Reads and parses a GPX file (a regular file of at most ``maximumFileSize`` bytes).
    public init(contentsOf url: URL) throws(GPXError) {
        if let refusal = InputFile.refusal(atPath: url.path) { throw GPXError(file: url.path, line: 0, column: 0, message: "cannot read the file: \(refusal)") }
        if let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int, size > Self.maximumFileSize {
            throw GPXError(file: url.path, line: 0, column: 0, message: "the file is \(size) bytes; GPX files are limited to \(Self.maximumFileSize) bytes (\(Self.maximumFileSize >> 20) MiB)")
        }
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw GPXError(file: url.path, line: 0, column: 0, message: "cannot read the file: \(error.localizedDescription)")
        }
        try self.init(data: data, file: url.path)
    }

    init() {}

    /// The points to follow: the tracks' points if there are any, else the routes', else the waypoints.
    public var points: [Point] {
        let track = trackSegments.flatMap { $0 }
        if !track.isEmpty { return track }
        let route = routes.flatMap { $0 }
        if !route.isEmpty { return route }
        return waypoints
    }

    /// Whether every point to follow has a time (a recorded track).
    public var isTimed: Bool { !points.isEmpty && points.allSatisfy { $0.time != nil } }

    /// The points as a ``Route``: a timed track at its recorded timing (constant velocity between
    /// consecutive points, standing still where the time jumps without movement), otherwise at `speed`.
    public func route(speed: Double) throws(GPXError) -> Route {
        let points = self.points
        guard let first = points.first else { throw GPXError(file: "", line: 0, column: 0, message: "the GPX file has no track, route or waypoint points") }
        var waypoints: [Route.Waypoint] = []
        if isTimed {
            var previous = first
            for point in points.dropFirst() {
                let seconds = point.time!.timeIntervalSince(previous.time!)
                let distance = previous.coordinate.distance(to: point.coordinate)
                if seconds <= 0 {
                    // Same or earlier time: treat as an instant step at high speed would teleport; skip it.
                    continue
                }
                if distance < 0.01 {
                    // (Times are within `validTimes`, so any gap fits in nanoseconds.)
                    let gap = Duration.nanoseconds(Int64(min(seconds, Self.validTimes.upperBound) * 1e9))
                    if var last = waypoints.popLast() {
                        last.pause += gap
                        waypoints.append(last)
                    } else {
                        waypoints.append(Route.Waypoint(point.coordinate, speed: nil, pause: gap, altitude: point.elevation))
                    }
                } else {
                    waypoints.append(Route.Waypoint(point.coordinate, speed: distance / seconds, altitude: point.elevation))
                }
                previous = point
            }
        } else {
            waypoints = points.dropFirst().map { Route.Waypoint($0.coordinate, altitude: $0.elevation) }
        }
        return Route(start: first.coordinate, startAltitude: first.elevation, waypoints: waypoints, speed: speed)
    }
}

/// A problem in a GPX file, with its position.
public struct GPXError: Error, Sendable, Hashable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int
    public var message: String

    public var description: String {
        if line > 0 { return "\(file):\(line):\(column): \(message)" }
        return file.isEmpty ? message : "\(file): \(message)"
    }
}

/// Builds a ``GPXDocument`` from the events of ``GPXXMLReader``: points with their positions, elevations
/// and times, checked as they come.
private struct GPXBuilder {
    let file: String
    var document = GPXDocument()
    var sawRoot = false
    private var text = ""
    private var point: GPXDocument.Point?
    private var pointElement = ""
    private var segment: [GPXDocument.Point] = []
    private var route: [GPXDocument.Point] = []
    private let isoFormatter: ISO8601DateFormatter = {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter
    }()
    private let isoFractionalFormatter: ISO8601DateFormatter = {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter
    }()

    init(file: String) {
        self.file = file
    }

    /// Takes in one event of the reader, which ended at `line` and `column`.
    mutating func take(_ event: GPXXMLReader.Event, line: Int, column: Int) throws(GPXError) {
        func failure(_ message: String) -> GPXError { GPXError(file: file, line: line, column: column, message: message) }
        switch event {
        case .text(let string):
            text += string
        case .start(let name, let attributes):
            text = ""
            switch name {
            case "gpx": sawRoot = true
            case "trkseg": segment = []
            case "rte": route = []
            case "trkpt", "rtept", "wpt":
                guard let latText = attributes["lat"], let lonText = attributes["lon"] else {
                    throw failure("<\(name)> needs lat and lon attributes")
                }
                guard let lat = Double(latText), let lon = Double(lonText), abs(lat) <= 90, abs(lon) <= 180 else {
                    throw failure("<\(name)> has an invalid position lat=\"\(MessageText.excerpt(latText))\" lon=\"\(MessageText.excerpt(lonText))\" (latitude within -90...90, longitude within -180...180)")
                }
                point = GPXDocument.Point(coordinate: GeoCoordinate(latitude: lat, longitude: lon))
                pointElement = name
            default: break
            }
        case .end(let name):
            let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
            switch name {
            case "ele" where point != nil:
                guard let elevation = Double(value), GPXDocument.validElevations.contains(elevation) else {
                    throw failure("<ele> must be a number of metres within -11000...100000, found '\(MessageText.excerpt(value))'")
                }
                point?.elevation = elevation
            case "time" where point != nil:
                guard let time = isoFormatter.date(from: value) ?? isoFractionalFormatter.date(from: value) else {
                    throw failure("<time> is not an ISO 8601 time: '\(MessageText.excerpt(value))'")
                }
                guard GPXDocument.validTimes.contains(time.timeIntervalSince1970) else {
                    throw failure("<time> \(value) is outside the years 1970 to 2199 that a track's points may be dated")
                }
                point?.time = time
            case "trkpt", "rtept", "wpt":
                guard let finished = point, name == pointElement else { break }
                switch name {
                case "trkpt": segment.append(finished)
                case "rtept": route.append(finished)
                default: document.waypoints.append(finished)
                }
                point = nil
            case "trkseg": document.trackSegments.append(segment)
            case "rte": document.routes.append(route)
            default: break
            }
            text = ""
        }
    }
}
