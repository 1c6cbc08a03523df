import DeviceSimClock

/// Writing trace events as JSON Lines bytes: the one implementation behind ``TraceEvent/jsonLine``,
/// ``TraceEvent/jsonLines(_:)`` and the streaming trace files, appending UTF-8 straight into a byte
/// buffer (no intermediate strings for names, keys, integers or times).
extension TraceEvent {
    /// Appends the event as one line of JSON, with its newline, to `bytes`.
    ///
    /// ```swift
    /// var buffer: [UInt8] = []
    /// event.appendJSONLine(to: &buffer)
    /// ```
    public func appendJSONLine(to bytes: inout [UInt8]) {
        bytes.append(contentsOf: #"{"t":"#.utf8)
        TraceJSONWriting.appendMilliseconds(of: time, to: &bytes)
        if let device {
            bytes.append(contentsOf: #","device":"#.utf8)
            TraceJSONWriting.appendQuoted(device, to: &bytes)
        }
        bytes.append(contentsOf: #","event":"#.utf8)
        TraceJSONWriting.appendQuoted(name, to: &bytes)
        for (key, value) in fields {
            bytes.append(UInt8(ascii: ","))
            TraceJSONWriting.appendQuoted(key, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            switch value {
            case .string(let text): TraceJSONWriting.appendQuoted(text, to: &bytes)
            case .int(let number): TraceJSONWriting.appendInteger(Int64(number), to: &bytes)
            case .double(let number): bytes.append(contentsOf: TraceValue.format(number).utf8)
            case .bool(let flag): bytes.append(contentsOf: (flag ? "true" : "false").utf8)
            case .null: bytes.append(contentsOf: "null".utf8)
            }
        }
        bytes.append(contentsOf: "}\n".utf8)
    }
}

/// The pieces of JSON the trace writes, for other writers of the same JSON (a `stored:` row's values).
package enum TraceJSONWriting {
    /// Seconds with exactly three decimals (`12.500`), as ``VirtualInstantFormatting/seconds(_:)``.
    package static func appendMilliseconds(of instant: VirtualInstant, to bytes: inout [UInt8]) {
        var nanoseconds = instant.nanoseconds
        if nanoseconds < 0 {
            bytes.append(UInt8(ascii: "-"))
            nanoseconds = -nanoseconds
        }
        let millis = nanoseconds / 1_000_000
        appendInteger(millis / 1000, to: &bytes)
        let fraction = Int(millis % 1000)
        bytes.append(UInt8(ascii: "."))
        bytes.append(UInt8(ascii: "0") + UInt8(fraction / 100))
        bytes.append(UInt8(ascii: "0") + UInt8(fraction / 10 % 10))
        bytes.append(UInt8(ascii: "0") + UInt8(fraction % 10))
    }

    package static func appendInteger(_ value: Int64, to bytes: inout [UInt8]) {
        if value < 0 {
            guard value != .min else { bytes.append(contentsOf: String(value).utf8); return }
            bytes.append(UInt8(ascii: "-"))
            appendInteger(-value, to: &bytes)
            return
        }
        if value < 10 {
            bytes.append(UInt8(ascii: "0") + UInt8(value))
            return
        }
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)   // room for 24 digits
        var count = 0
        var rest = UInt64(value)
        withUnsafeMutableBytes(of: &digits) { buffer in
            while rest > 0 {
                buffer[count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                count += 1
            }
            for index in stride(from: count - 1, through: 0, by: -1) { bytes.append(buffer[index]) }
        }
    }

    /// `text` as a JSON string literal (RFC 8259), as ``JSONString/quote(_:)``.
    package static func appendQuoted(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var start = 0
            for (index, byte) in utf8.enumerated() where byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                switch byte {
                case UInt8(ascii: "\""): bytes.append(contentsOf: #"\""#.utf8)
                case UInt8(ascii: "\\"): bytes.append(contentsOf: #"\\"#.utf8)
                case UInt8(ascii: "\n"): bytes.append(contentsOf: #"\n"#.utf8)
                case UInt8(ascii: "\r"): bytes.append(contentsOf: #"\r"#.utf8)
                case UInt8(ascii: "\t"): bytes.append(contentsOf: #"\t"#.utf8)
                default:
                    let hex = Array("0123456789abcdef".utf8)
                    bytes.append(contentsOf: #"\u00"#.utf8)
                    bytes.append(hex[Int(byte >> 4)])
                    bytes.append(hex[Int(byte & 0xF)])
                }
                start = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
