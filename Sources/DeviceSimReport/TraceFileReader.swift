import DeviceSimScenario
import DeviceSimHAL
import DeviceSimSimulated
import DeviceSimTime
import Foundation

/// Reads a JSON Lines trace written by `devicesim run --trace` back into events: the flat objects of
/// ``TraceEvent/appendJSONLine(to:)`` (`{"t":…,"device":…,"event":…,<fields>}` with string, number,
/// boolean and null values), parsed by hand because a trace can hold millions of lines.
///
/// ```swift
/// let events = try TraceFileReader.read(path: "out/traces/dog-walk/walk-2km.jsonl")
/// ```
public enum TraceFileReader {
    /// The latest event time read, in seconds (about 31 years; a run lasts at most 30 days, a live
    /// session as long as its wall clock): a later `t` is not a time of ours, and would overflow.
    public static let maximumTime = 1e9

    /// What a trace held, read up to its first line that is not a trace line.
    public struct Reading: Sendable {
        /// The events before ``cut``, in file order.
        public var events: [TraceEvent]
        /// Where and why reading stopped early (nil: the whole trace was read).
        public var cut: ScenarioError?
    }

    /// Every event of the trace file at `path`, in file order; an error names the file and line.
    public static func read(path: String) throws(ScenarioError) -> [TraceEvent] {
        let reading = try readUpToProblem(path: path)
        if let cut = reading.cut { throw cut }
        return reading.events
    }

    /// The events of the trace file at `path` up to its first bad line (a run killed while writing
    /// leaves a last line cut short): what was read, and where reading stopped. Throws only when the
    /// file cannot be read at all.
    public static func readUpToProblem(path: String) throws(ScenarioError) -> Reading {
        if let refusal = InputFile.refusal(atPath: path) { throw ScenarioError("cannot read the trace \(path): \(refusal)", at: nil) }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ScenarioError("cannot read the trace \(path): \((error as NSError).localizedDescription)", at: nil)
        }
        return reading(data, file: path)
    }

    /// The events of the JSON Lines in `data` (empty lines skipped); `file` names the source in errors.
    public static func events(in data: Data, file: String) throws(ScenarioError) -> [TraceEvent] {
        let reading = reading(data, file: file)
        if let cut = reading.cut { throw cut }
        return reading.events
    }

    /// The events of `data` up to its first line that is not a trace line, and that line's problem.
    public static func reading(_ data: Data, file: String) -> Reading {
        var events: [TraceEvent] = []
        var failure: ScenarioError?
        data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            let bytes = raw.bindMemory(to: UInt8.self)
            var start = 0
            var line = 1
            while start < bytes.count {
                var end = start
                while end < bytes.count && bytes[end] != UInt8(ascii: "\n") { end += 1 }
                if end > start {
                    var parser = FlatJSONParser(bytes: UnsafeBufferPointer(rebasing: bytes[start..<end]))
                    guard let event = parser.event() else {
                        let location = SourceLocation(file: file, line: line, column: parser.position + 1)
                        if end == bytes.count {
                            failure = ScenarioError("the trace ends in the middle of a line (the run was cut short while writing it?)", at: location)
                        } else {
                            failure = ScenarioError(parser.problem ?? "not a trace line (expected a JSON object with \"t\" and \"event\", as 'devicesim run --trace' writes)", at: location)
                        }
                        return
                    }
                    events.append(event)
                }
                start = end + 1
                line += 1
            }
        }
        return Reading(events: events, cut: failure)
    }
}

/// A parser of one flat JSON object (no nested objects or arrays).
private struct FlatJSONParser {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0
    /// Why the line was refused, when it is JSON of the right shape with a value out of range.
    private(set) var problem: String?

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    mutating func event() -> TraceEvent? {
        skipSpace()
        guard take(UInt8(ascii: "{")) else { return nil }
        var time: VirtualInstant?
        var device: String?
        var name: String?
        var fields: [(key: String, value: TraceValue)] = []
        skipSpace()
        if take(UInt8(ascii: "}")) { return nil }
        while true {
            skipSpace()
            guard let key = string() else { return nil }
            skipSpace()
            guard take(UInt8(ascii: ":")) else { return nil }
            skipSpace()
            guard let value = value() else { return nil }
            if key == "lat" || key == "lon", let degrees = value.number {
                let limit = key == "lat" ? 90.0 : 180.0
                guard abs(degrees) <= limit else { return refuse("\(key) \(degrees) is outside -\(Int(limit))...\(Int(limit)) degrees") }
            }
            switch (key, value) {
            case ("t", .int(let seconds)) where time == nil:
                guard seconds >= 0, Double(seconds) <= TraceFileReader.maximumTime else { return refuse("t \(seconds) is outside 0...1e9 seconds") }
                time = VirtualInstant(nanoseconds: Int64(seconds) * 1_000_000_000)
            case ("t", .double(let seconds)) where time == nil:
                guard seconds >= 0, seconds <= TraceFileReader.maximumTime else { return refuse("t \(seconds) is outside 0...1e9 seconds") }
                time = VirtualInstant(nanoseconds: Int64((seconds * 1000).rounded()) * 1_000_000)
            case ("device", .string(let text)) where device == nil: device = text
            case ("event", .string(let text)) where name == nil: name = text
            default: fields.append((key, value))
            }
            skipSpace()
            if take(UInt8(ascii: ",")) { continue }
            guard take(UInt8(ascii: "}")) else { return nil }
            break
        }
        skipSpace()
        guard position == bytes.count, let time, let name else { return nil }
        return TraceEvent(time: time, device: device, name: name, fields: fields)
    }

    /// Refuses the line for `reason` (nil, for `event()` to return).
    private mutating func refuse(_ reason: String) -> TraceEvent? {
        problem = reason
        return nil
    }

    private mutating func value() -> TraceValue? {
        guard position < bytes.count else { return nil }
        switch bytes[position] {
        case UInt8(ascii: "\""): return string().map(TraceValue.string)
        case UInt8(ascii: "t"): return literal("true") ? .bool(true) : nil
        case UInt8(ascii: "f"): return literal("false") ? .bool(false) : nil
        case UInt8(ascii: "n"): return literal("null") ? .null : nil
        default: return number()
        }
    }

    private mutating func number() -> TraceValue? {
        let start = position
        var isInteger = true
        while position < bytes.count {
            let byte = bytes[position]
            if (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") {
                position += 1
            } else if byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") || byte == UInt8(ascii: "+") {
                isInteger = false
                position += 1
            } else {
                break
            }
        }
        guard position > start else { return nil }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        if isInteger, let integer = Int(text) { return .int(integer) }
        guard let number = Double(text), number.isFinite else {
            problem = "the number \(text) is out of range"
            return nil
        }
        return .double(number)
    }

    private mutating func string() -> String? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = position
        var escaped = false
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                let raw = UnsafeBufferPointer(rebasing: bytes[start..<position])
                position += 1
                return escaped ? Self.unescape(raw) : String(decoding: raw, as: UTF8.self)
            }
            if byte == UInt8(ascii: "\\") {
                escaped = true
                position += 1
            }
            position += 1
        }
        return nil
    }

    /// The text of a JSON string body with escapes (`\"`, `\\`, `\n`, `\u00XX`, surrogate pairs).
    private static func unescape(_ raw: UnsafeBufferPointer<UInt8>) -> String? {
        var scalars = String.UnicodeScalarView()
        var utf8: [UInt8] = []
        var index = 0
        func flush() {
            scalars.append(contentsOf: String(decoding: utf8, as: UTF8.self).unicodeScalars)
            utf8.removeAll(keepingCapacity: true)
        }
        func hex4(_ at: Int) -> UInt32? {
            guard at + 4 <= raw.count else { return nil }
            return UInt32(String(decoding: UnsafeBufferPointer(rebasing: raw[at..<at + 4]), as: UTF8.self), radix: 16)
        }
        while index < raw.count {
            let byte = raw[index]
            guard byte == UInt8(ascii: "\\"), index + 1 < raw.count else {
                utf8.append(byte)
                index += 1
                continue
            }
            let code = raw[index + 1]
            index += 2
            switch code {
            case UInt8(ascii: "n"): utf8.append(0x0A)
            case UInt8(ascii: "r"): utf8.append(0x0D)
            case UInt8(ascii: "t"): utf8.append(0x09)
            case UInt8(ascii: "b"): utf8.append(0x08)
            case UInt8(ascii: "f"): utf8.append(0x0C)
            case UInt8(ascii: "u"):
                guard var value = hex4(index) else { return nil }
                index += 4
                if (0xD800..<0xDC00).contains(value), index + 6 <= raw.count, raw[index] == UInt8(ascii: "\\"),
                   raw[index + 1] == UInt8(ascii: "u"), let low = hex4(index + 2), (0xDC00..<0xE000).contains(low) {
                    value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
                    index += 6
                }
                flush()
                scalars.append(Unicode.Scalar(value) ?? "\u{FFFD}")
            default: utf8.append(code)
            }
        }
        flush()
        return String(scalars)
    }

    private mutating func literal(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard position + count <= bytes.count else { return false }
        for offset in 0..<count where bytes[position + offset] != word.utf8Start[offset] { return false }
        position += count
        return true
    }

    private mutating func take(_ byte: UInt8) -> Bool {
        guard position < bytes.count, bytes[position] == byte else { return false }
        position += 1
        return true
    }

    private mutating func skipSpace() {
        while position < bytes.count, bytes[position] == UInt8(ascii: " ") || bytes[position] == UInt8(ascii: "\t") || bytes[position] == UInt8(ascii: "\r") {
            position += 1
        }
    }
}
