/// What a client of gpsd took in and what it could not use, for the line `live` and `record` print at
/// the end.
///
/// ```
/// gpsd: 3 connections (12 attempts), 240 fixes used, 5 dropped (latitude out of range: 3, longitude out of range: 2)
/// ```
public struct GPSDStatistics: Sendable, Hashable, CustomStringConvertible {
    /// Connections made (watch started).
    public var connections = 0
    /// Connection attempts, successful or not.
    public var attempts = 0
    /// Connections dropped because of what gpsd sent.
    public var connectionsDropped = 0
    /// Fixes with a position in range, passed on.
    public var fixesUsed = 0
    /// Fixes dropped, by ``GPSDUnusableInput/kind`` (a position out of range).
    public var fixesDropped: [String: Int] = [:]
    /// Values removed from fixes that were used, by kind.
    public var valuesIgnored: [String: Int] = [:]
    /// Lines that could not be used, by kind.
    public var linesUnusable: [String: Int] = [:]

    /// Creates empty counts.
    public init() {}

    /// Counts one thing that could not be used.
    public mutating func count(_ input: GPSDUnusableInput) {
        switch input {
        case .positionOutOfRange: fixesDropped[input.kind, default: 0] += 1
        case .valueOutOfRange: valuesIgnored[input.kind, default: 0] += 1
        case .lineTooLong, .lineUnfinished, .notAReport, .undecodableReport: linesUnusable[input.kind, default: 0] += 1
        }
        if input.dropsConnection { connectionsDropped += 1 }
    }

    /// Fixes dropped in all.
    public var fixesDroppedCount: Int { fixesDropped.values.reduce(0, +) }

    public var description: String {
        guard connections > 0 else {
            return "gpsd: never connected (\(attempts) attempt\(attempts == 1 ? "" : "s"))"
        }
        var text = "gpsd: \(connections) connection\(connections == 1 ? "" : "s") (\(attempts) attempt\(attempts == 1 ? "" : "s")"
        if connectionsDropped > 0 { text += ", \(connectionsDropped) dropped for what gpsd sent" }
        text += "), \(fixesUsed) fix\(fixesUsed == 1 ? "" : "es") used, \(fixesDroppedCount) dropped"
        if !fixesDropped.isEmpty { text += " (\(Self.list(fixesDropped)))" }
        if !valuesIgnored.isEmpty { text += ", values ignored (\(Self.list(valuesIgnored)))" }
        if !linesUnusable.isEmpty { text += ", lines not used (\(Self.list(linesUnusable)))" }
        return text
    }

    /// "latitude out of range: 3, longitude out of range: 2": most frequent first, then by name.
    private static func list(_ counts: [String: Int]) -> String {
        counts.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
    }
}
