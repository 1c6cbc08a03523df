import DeviceSimClock

/// A value in a trace event's fields.
public enum TraceValue: Sendable, Hashable, CustomStringConvertible {
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    case null

    public var description: String {
        switch self {
        case .string(let value): value
        case .int(let value): String(value)
        case .double(let value): TraceValue.format(value)
        case .bool(let value): String(value)
        case .null: "null"
        }
    }

    /// The value as a number, if it is one.
    public var number: Double? {
        switch self {
        case .int(let value): Double(value)
        case .double(let value): value
        default: nil
        }
    }

    /// Doubles print with at most 7 decimals (about 1 cm in latitude), so traces are stable and short.
    public static func format(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        let rounded = (value * 1e7).rounded() / 1e7
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int64(rounded)) }
        return String(rounded)
    }
}

/// One observable event: something a flow, a driver or the scenario runner did, at a virtual time.
///
/// Field order is the order given, so JSON Lines output is stable byte for byte.
public struct TraceEvent: Sendable, Hashable {
    /// When it happened.
    public var time: VirtualInstant
    /// The device it happened on (nil for world-wide events).
    public var device: String?
    /// What happened, as a dotted name (`marker.moved`, `location.unavailable`, `map.centered`).
    public var name: String
    /// Details, in a fixed order.
    public var fields: [(key: String, value: TraceValue)]

    /// Creates an event.
    public init(time: VirtualInstant, device: String?, name: String, fields: [(key: String, value: TraceValue)] = []) {
        self.time = time
        self.device = device
        self.name = name
        self.fields = fields
    }

    /// The value of field `key`, if present.
    public subscript(key: String) -> TraceValue? {
        fields.first { $0.key == key }?.value
    }

    /// The event's latitude and longitude fields as a coordinate, if it has both.
    public var coordinate: GeoCoordinate? {
        guard let lat = self["lat"]?.number, let lon = self["lon"]?.number else { return nil }
        return GeoCoordinate(latitude: lat, longitude: lon)
    }

    /// The event as one line of JSON: `{"t":…,"device":…,"event":…,<fields>}`, no trailing newline.
    public var jsonLine: String {
        var bytes: [UInt8] = []
        appendJSONLine(to: &bytes)
        bytes.removeLast()   // the newline
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `events` as JSON Lines, each line ending in a newline.
    public static func jsonLines(_ events: some Sequence<TraceEvent>) -> String {
        var bytes: [UInt8] = []
        for event in events { event.appendJSONLine(to: &bytes) }
        return String(decoding: bytes, as: UTF8.self)
    }

    public static func == (lhs: TraceEvent, rhs: TraceEvent) -> Bool {
        lhs.time == rhs.time && lhs.device == rhs.device && lhs.name == rhs.name
            && lhs.fields.elementsEqual(rhs.fields) { $0.key == $1.key && $0.value == $1.value }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(time)
        hasher.combine(device)
        hasher.combine(name)
        for field in fields {
            hasher.combine(field.key)
            hasher.combine(field.value)
        }
    }
}

/// Formatting helpers shared by traces and reports.
public enum VirtualInstantFormatting {
    /// Seconds with exactly three decimals, e.g. `12.500`.
    public static func seconds(_ instant: VirtualInstant) -> String {
        let text = instant.description
        return String(text.dropLast())
    }
}

/// Minimal JSON string quoting (RFC 8259).
public enum JSONString {
    /// `text` as a JSON string literal, quotes included.
    public static func quote(_ text: String) -> String {
        var bytes: [UInt8] = []
        TraceJSONWriting.appendQuoted(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// Where events go: the scenario runner's trace, a live terminal, a test's recorder.
public protocol EventSink: AnyObject {
    /// Records one event.
    func record(_ event: TraceEvent)
    /// Whether an event named `name` would be kept, written or looked at (true unless the sink
    /// says otherwise): a recorder whose text costs more than the event can skip making it when
    /// nothing would read it.
    ///
    /// ```swift
    /// if device.events.records(eventsNamed: "wifi.scan") { device.record("wifi.scan", [("aps", .string(text()))]) }
    /// ```
    func records(eventsNamed name: String) -> Bool
}

extension EventSink {
    public func records(eventsNamed name: String) -> Bool { true }
}

/// An in-memory, ordered list of events that can also forward each event to further sinks.
public final class TraceRecorder: EventSink {
    /// Every event recorded so far, in order.
    public private(set) var events: [TraceEvent] = []
    private var forwards: [any EventSink] = []
    /// Whether events are kept in ``events`` (turn off for very long runs that only stream).
    public var keepsEvents: Bool

    /// Creates an empty recorder.
    public init(keepsEvents: Bool = true) {
        self.keepsEvents = keepsEvents
    }

    /// Sends every later event to `sink` as well.
    public func forward(to sink: any EventSink) {
        forwards.append(sink)
    }

    public func record(_ event: TraceEvent) {
        if keepsEvents { events.append(event) }
        for sink in forwards { sink.record(event) }
    }

    public func records(eventsNamed name: String) -> Bool {
        keepsEvents || forwards.contains { $0.records(eventsNamed: name) }
    }

    /// The trace as JSON Lines, one event per line, each line ending in a newline.
    public var jsonLines: String { TraceEvent.jsonLines(events) }
}
