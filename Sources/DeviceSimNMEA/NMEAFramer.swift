/// Splits a byte stream into NMEA 0183 sentences, whatever the chunk sizes: a sentence split across
/// two reads still comes out whole. Checks the `*hh` checksum, accepts CR LF or LF, bounds the length,
/// and accounts for every byte in ``NMEAStatistics``.
///
/// ```swift
/// var framer = NMEAFramer()
/// framer.feed(bytes) { sentence in
///     // sentence: the bytes from '$' to before '*' (or the line end), checksum verified
/// }
/// framer.finish()
/// ```
public struct NMEAFramer: Sendable {
    /// The longest sentence accepted, in bytes from `$` to the line feed. The standard says 82; real
    /// receivers (and gpsd) go further, so the default is generous.
    public var maximumLength: Int
    /// The counts so far.
    public private(set) var statistics = NMEAStatistics()

    private var pending: [UInt8] = []
    private var inSentence = false
    private var discardingOverlong = false

    /// Creates a framer.
    public init(maximumLength: Int = 256) {
        self.maximumLength = maximumLength
        pending.reserveCapacity(maximumLength + 2)
    }

    /// A sentence's bytes: from the `$`/`!` up to (not including) the `*` or the line end.
    public typealias SentenceHandler = (UnsafeRawBufferPointer) -> Void

    /// Feeds bytes; calls `handler` for each complete sentence with a valid (or no) checksum.
    public mutating func feed(_ bytes: UnsafeRawBufferPointer, _ handler: SentenceHandler) {
        statistics.bytesRead += bytes.count
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
        let count = bytes.count
        var index = 0
        while index < count {
            if discardingOverlong {
                // The rest of an overlong sentence: skip to its line end, or to the next sentence start.
                let start = index
                while index < count, base[index] != 0x0A, base[index] != 0x24, base[index] != 0x21 { index += 1 }
                if index < count {
                    if base[index] == 0x0A { index += 1 }
                    discardingOverlong = false
                }
                statistics.overlongBytes += index - start
                continue
            }
            if !inSentence {
                // Skip noise up to the next sentence start.
                let start = index
                while index < count, base[index] != 0x24, base[index] != 0x21 { index += 1 }
                statistics.noiseBytes += index - start
                guard index < count else { break }
                inSentence = true
                pending.removeAll(keepingCapacity: true)
            }
            // In a sentence: find its end, a new start (truncation), or the chunk's end.
            let sentenceStart = index
            var scan = pending.isEmpty ? index + 1 : index  // the first '$' of this chunk's sentence is its own start
            var end = -1
            while scan < count {
                let byte = base[scan]
                if byte == 0x0A {
                    end = scan
                    break
                }
                if byte == 0x24 || byte == 0x21 { break }
                scan += 1
            }
            let length = pending.count + (scan - sentenceStart)
            if length > maximumLength {
                statistics.overlongSentences += 1
                statistics.overlongBytes += pending.count + (scan - sentenceStart)
                statistics.pendingBytes = 0
                pending.removeAll(keepingCapacity: true)
                inSentence = false
                index = scan
                if end >= 0 {
                    statistics.overlongBytes += 1
                    index = end + 1
                } else if scan == count {
                    discardingOverlong = true
                }
                continue
            }
            if end >= 0 {
                // A whole line: [sentenceStart, end] plus what was pending.
                let lineLength = pending.count + (end - sentenceStart) + 1
                if pending.isEmpty {
                    process(UnsafeRawBufferPointer(start: base + sentenceStart, count: end - sentenceStart), lineLength: lineLength, handler)
                } else {
                    pending.append(contentsOf: UnsafeRawBufferPointer(start: base + sentenceStart, count: end - sentenceStart))
                    pending.withUnsafeBytes { process($0, lineLength: lineLength, handler) }
                    pending.removeAll(keepingCapacity: true)
                }
                statistics.pendingBytes = 0
                inSentence = false
                index = end + 1
            } else if scan < count {
                // Another sentence starts before this one ended: this one is truncated.
                statistics.truncatedSentences += 1
                statistics.truncatedBytes += pending.count + (scan - sentenceStart)
                statistics.pendingBytes = 0
                pending.removeAll(keepingCapacity: true)
                inSentence = false
                index = scan
            } else {
                // The chunk ended mid-sentence: keep the bytes for the next feed.
                pending.append(contentsOf: UnsafeRawBufferPointer(start: base + sentenceStart, count: count - sentenceStart))
                statistics.pendingBytes = pending.count
                index = count
            }
        }
    }

    /// Ends the input: a sentence still waiting for its line end counts as truncated.
    public mutating func finish() {
        if inSentence, !pending.isEmpty {
            statistics.truncatedSentences += 1
            statistics.truncatedBytes += pending.count
        }
        pending.removeAll(keepingCapacity: true)
        statistics.pendingBytes = 0
        inSentence = false
        discardingOverlong = false
    }

    /// Checks one line (without its LF) and hands the sentence on.
    private mutating func process(_ line: UnsafeRawBufferPointer, lineLength: Int, _ handler: SentenceHandler) {
        var length = line.count
        while length > 0, line[length - 1] == 0x0D || line[length - 1] == 0x20 { length -= 1 }  // CR (some receivers send two) and trailing blanks
        // Printable ASCII only.
        var star = -1
        for position in 0..<length {
            let byte = line[position]
            if byte < 0x20 || byte > 0x7E {
                reject(invalid: lineLength)
                return
            }
            if byte == 0x2A { star = position }
        }
        var body = length
        if star >= 0 {
            guard star + 3 == length, let high = Self.hexValue(line[star + 1]), let low = Self.hexValue(line[star + 2]) else {
                // A '*' not followed by exactly two hex digits at the end: a bad checksum field.
                statistics.badChecksumSentences += 1
                statistics.badChecksumBytes += lineLength
                return
            }
            var sum: UInt8 = 0
            for position in 1..<star { sum ^= line[position] }
            guard sum == high << 4 | low else {
                statistics.badChecksumSentences += 1
                statistics.badChecksumBytes += lineLength
                return
            }
            body = star
        } else {
            statistics.sentencesWithoutChecksum += 1
        }
        guard body >= 6 else {
            reject(invalid: lineLength)
            return
        }
        statistics.sentenceBytes += lineLength
        handler(UnsafeRawBufferPointer(rebasing: line[0..<body]))
    }

    private mutating func reject(invalid bytes: Int) {
        statistics.invalidSentences += 1
        statistics.invalidBytes += bytes
    }

    @inline(__always)
    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }
}
