/// Something gpsd sent that the client could not use: a line it could not take in, a report libgps
/// could not decode, or a value out of its range. Each is counted (``GPSDStatistics``); the first of
/// each ``kind`` is said.
public enum GPSDUnusableInput: Sendable, Hashable, CustomStringConvertible {
    /// A line longer than the client takes (gpsd's own reports stay far below it); the connection is
    /// dropped, since a peer that sends such a line may never send a newline at all.
    case lineTooLong(limit: Int)
    /// Part of a line and then nothing for `after`; the connection is dropped.
    case lineUnfinished(after: Duration)
    /// A line that is neither a JSON report nor an NMEA sentence (binary data, text of another protocol).
    case notAReport(excerpt: String)
    /// A TPV or SKY report that libgps could not decode (a malformed field, more satellites than
    /// libgps holds).
    case undecodableReport(reportClass: String, excerpt: String)
    /// A fix whose position lies outside the earth's ranges: the fix is dropped.
    case positionOutOfRange(field: GPSDFixField, value: Double)
    /// A fix with another value out of its range: the fix is used without that value.
    case valueOutOfRange(field: GPSDFixField, value: Double)

    /// What kind of input it was, in words ("line longer than 65536 bytes", "latitude out of range"):
    /// inputs of one kind are counted together and said once.
    public var kind: String {
        switch self {
        case .lineTooLong(let limit): "line longer than \(limit) bytes"
        case .lineUnfinished: "line left unfinished"
        case .notAReport: "line that is not a report"
        case .undecodableReport(let reportClass, _): "\(reportClass) report libgps could not decode"
        case .positionOutOfRange(let field, _), .valueOutOfRange(let field, _): "\(field.name) out of range"
        }
    }

    /// Whether the connection is dropped for it.
    public var dropsConnection: Bool {
        switch self {
        case .lineTooLong, .lineUnfinished: true
        case .notAReport, .undecodableReport, .positionOutOfRange, .valueOutOfRange: false
        }
    }

    public var description: String {
        switch self {
        case .lineTooLong(let limit):
            "a line longer than \(limit) bytes (gpsd's reports are at most a few KB)"
        case .lineUnfinished(let after):
            "part of a line and then nothing for \(GPSDSocket.seconds(after)) s"
        case .notAReport(let excerpt):
            "a line that is neither a JSON report nor an NMEA sentence (skipped): \(excerpt)"
        case .undecodableReport(let reportClass, let excerpt):
            "a \(reportClass) report that libgps could not decode (skipped): \(excerpt)"
        case .positionOutOfRange(let field, let value):
            "a fix with \(field.name) \(value), outside \(field.rangeText) (fix dropped)"
        case .valueOutOfRange(let field, let value):
            "a fix with \(field.name) \(value), outside \(field.rangeText) (fix used without it)"
        }
    }

    /// At most `limit` characters of `bytes` for a message: printable ASCII as it is, anything else
    /// (control characters, bytes of other encodings) as `\xNN`, so a line never reaches the terminal raw.
    static func excerpt(_ bytes: some Collection<UInt8>, limit: Int = 80) -> String {
        var text = ""
        var characters = 0
        for byte in bytes {
            if characters >= limit {
                return text + "… (\(bytes.count) bytes)"
            }
            if (0x20..<0x7F).contains(byte) {
                text.unicodeScalars.append(Unicode.Scalar(byte))
                characters += 1
            } else {
                text += "\\x" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
                characters += 4
            }
        }
        return text
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
