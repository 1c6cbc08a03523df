import DeviceSimHAL
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

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
        // Foundation's XML parser traps on an element name that is not UTF-8 text (libxml2 passes the
        // bytes on as they are when the file says it is UTF-8): such a file is refused here first.
        if Self.isDeclaredUTF8(data), let (line, column) = Self.firstInvalidUTF8(data) {
            throw GPXError(file: file, line: line, column: column, message: "bytes that are not UTF-8 text (and the file does not say it is ISO-8859-1 or UTF-16); save it as UTF-8")
        }
        // It also traps on a processing instruction without data (`<?name?>`), which GPX has no use for.
        if let (line, column, target) = Self.firstEmptyProcessingInstruction(data) {
            throw GPXError(file: file, line: line, column: column, message: "a processing instruction with no data (<?\(target)?>) is not read: remove it")
        }
        let delegate = GPXParserDelegate(file: file)
        let parser = XMLParser(data: data)
        parser.delegate = delegate
        parser.shouldResolveExternalEntities = false
        let ok = parser.parse()
        if let error = delegate.error { throw error }
        // On Linux the parser reports XML errors it recovers from and still returns true: the first
        // one refuses the file (stopping the parser from inside its error callback crashes libxml2).
        if let xmlError = delegate.firstXMLError {
            throw GPXError(file: file, line: xmlError.line, column: xmlError.column, message: "not well-formed XML: \(Self.explain(xmlError.code))")
        }
        if ok, let open = delegate.openElements.last {
            throw GPXError(file: file, line: parser.lineNumber, column: parser.columnNumber, message: "the file ends inside <\(open)>: it is cut off or not well-formed")
        }
        guard ok else {
            let code = (parser.parserError as NSError?)?.code
            throw GPXError(file: file, line: parser.lineNumber, column: parser.columnNumber, message: "not well-formed XML: \(Self.explain(code))")
        }
        guard delegate.sawRoot else { throw GPXError(file: file, line: 1, column: 1, message: "no <gpx> element: this is not a GPX file") }
        self = delegate.document
    }

    /// The encodings other than UTF-8 a GPX file may declare (its XML parser converts them to UTF-8).
    static let otherEncodings = ["iso-8859-1", "latin1", "iso-8859-15", "windows-1252", "us-ascii", "ascii", "utf-16"]

    /// Whether the data must be UTF-8 text: it has no byte order mark of UTF-16 or UTF-32, and its XML
    /// declaration names UTF-8, no encoding (which means UTF-8), or one the parser does not know.
    static func isDeclaredUTF8(_ data: Data) -> Bool {
        let head = data.prefix(4)
        if head.starts(with: [0xFE, 0xFF]) || head.starts(with: [0xFF, 0xFE]) || head.starts(with: [0, 0]) { return false }
        let prolog = String(decoding: data.prefix(200), as: UTF8.self)
        guard prolog.hasPrefix("<?xml") || prolog.hasPrefix("\u{FEFF}<?xml"), let end = prolog.range(of: "?>") else { return true }
        let declaration = prolog[..<end.lowerBound].lowercased()
        guard let encoding = declaration.range(of: "encoding") else { return true }
        let value = declaration[encoding.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\"" || $0 == "'" }.prefix { $0 != "\"" && $0 != "'" }
        return !otherEncodings.contains(String(value))
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

    /// What an XML parser error code (libxml2's numbering, which Foundation passes on) means, in words
    /// a user can act on.
    static func explain(_ code: Int?) -> String {
        guard let code else { return "the XML parser stopped here" }
        let words: String
        switch code {
        case 3, 4: words = "no XML element here: a GPX file starts with <?xml ...?> or <gpx>"
        case 5: words = "there is more content after the end of the document"
        case 9: words = "a character that is not allowed in XML"
        case 23: words = "an entity reference misses its ';' (write &amp; for '&')"
        case 26, 27: words = "an unknown entity: write &amp; for '&', &lt; for '<'"
        case 38: words = "an attribute value contains '<' (write &lt;)"
        case 39, 43: words = "an attribute value is not in quotes (write lat=\"52.5\")"
        case 40, 44: words = "an attribute value is not closed: a quote is missing"
        case 41: words = "an attribute has no value (write lat=\"52.5\")"
        case 42: words = "an element has the same attribute twice"
        case 45: words = "a comment <!-- is not closed with -->"
        case 65: words = "a space is missing (between attributes?)"
        case 68: words = "a name is expected after '<'"
        case 72: words = "a '<' is missing"
        case 73: words = "a tag is not finished: a '>' is missing"
        case 74: words = "a closing tag '</' is missing"
        case 75: words = "'=' is missing after an attribute name"
        case 76: words = "a closing tag does not match the element it closes (e.g. <trkpt> closed by </trkseg>)"
        case 77: words = "the file ends inside an element: it is cut off, or an element is never closed"
        case 85: words = "the elements are not properly nested: an element is closed that was never opened"
        case 86: words = "there is more content after the end of the <gpx> element"
        default: words = "the XML parser cannot read on from here"
        }
        return "\(words) (XML parser error \(code))"
    }

    /// The times a point may carry, in seconds since 1970: from 1970 to the end of 2199 (in
    /// nanoseconds since 1970, as fixes carry them, any gap between two such times fits).
    static let validTimes: ClosedRange<Double> = 0...7_258_118_399

    /// The elevations a point may have, in metres (the deepest sea to the edge of space).
    static let validElevations: ClosedRange<Double> = -11_000...100_000

    /// The largest GPX file read: 4 MiB (about 50,000 timed points, 14 hours at one a second).
    /// Foundation's XML parser on Linux feeds libxml2 without its "huge" option, and libxml2 then
    /// refuses a document of more than 10,000,000 bytes at its end with an internal error (a
    /// well-formed 64 MiB track read as "not well-formed" at its last line); and 8 MiB took 9 s of CPU
    /// to validate, 4 MiB under 5 s (`Benchmarks/limits/validate-at-limits.py gpx`).
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

private final class GPXParserDelegate: NSObject, XMLParserDelegate {
    let file: String
    var document = GPXDocument()
    var error: GPXError?
    /// The first XML error the parser reported (it may go on after it and still succeed).
    var firstXMLError: (line: Int, column: Int, code: Int?)?
    var sawRoot = false
    var openElements: [String] = []
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

    private func fail(_ parser: XMLParser, _ message: String) {
        guard error == nil else { return }
        error = GPXError(file: file, line: parser.lineNumber, column: parser.columnNumber, message: message)
        parser.abortParsing()
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
        text = ""
        openElements.append(name)
        switch name {
        case "gpx": sawRoot = true
        case "trkseg": segment = []
        case "rte": route = []
        case "trkpt", "rtept", "wpt":
            guard let latText = attributes["lat"], let lonText = attributes["lon"] else {
                return fail(parser, "<\(name)> needs lat and lon attributes")
            }
            guard let lat = Double(latText), let lon = Double(lonText), abs(lat) <= 90, abs(lon) <= 180 else {
                return fail(parser, "<\(name)> has an invalid position lat=\"\(MessageText.excerpt(latText))\" lon=\"\(MessageText.excerpt(lonText))\" (latitude within -90...90, longitude within -180...180)")
            }
            point = GPXDocument.Point(coordinate: GeoCoordinate(latitude: lat, longitude: lon))
            pointElement = name
        default: break
        }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        // libxml2's well-formedness errors are codes 1 to 92; its warnings (a relative namespace URI,
        // an unknown version) and namespace errors (200 and up) do not make a file unreadable.
        let code = (parseError as NSError).code
        if firstXMLError == nil, (1...92).contains(code) { firstXMLError = (parser.lineNumber, parser.columnNumber, code) }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        text += string
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if openElements.last == name { openElements.removeLast() }
        switch name {
        case "ele" where point != nil:
            guard let elevation = Double(value), GPXDocument.validElevations.contains(elevation) else {
                return fail(parser, "<ele> must be a number of metres within -11000...100000, found '\(MessageText.excerpt(value))'")
            }
            point?.elevation = elevation
        case "time" where point != nil:
            guard let time = isoFormatter.date(from: value) ?? isoFractionalFormatter.date(from: value) else {
                return fail(parser, "<time> is not an ISO 8601 time: '\(MessageText.excerpt(value))'")
            }
            guard GPXDocument.validTimes.contains(time.timeIntervalSince1970) else {
                return fail(parser, "<time> \(value) is outside the years 1970 to 2199 that a track's points may be dated")
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
