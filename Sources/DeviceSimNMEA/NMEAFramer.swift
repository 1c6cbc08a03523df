#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

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
    /// Where the first carriage return of the sentence being framed is (from its `$`), or -1.
    private var carriageReturnOffset = -1

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
                index = Self.firstSentenceStart(base, from: index, to: count)
                statistics.noiseBytes += index - start
                guard index < count else { break }
                inSentence = true
                if !pending.isEmpty { pending.removeAll(keepingCapacity: true) }
            }
            // In a sentence: find the first byte that cannot be in one (the line end, a new start, a
            // control or non-ASCII byte), but look no further than the length bound allows.
            let sentenceStart = index
            var scan = pending.isEmpty ? index + 1 : index  // the first '$' of this chunk's sentence is its own start
            let limit = min(count, sentenceStart + maximumLength - pending.count + 1)
            while true {
                scan = Self.firstNonSentenceByte(base, from: scan, to: limit)
                guard scan < limit, base[scan] == 0x0D else { break }
                // A carriage return belongs only at the end; `process` checks where the first one was.
                if carriageReturnOffset < 0 { carriageReturnOffset = pending.count + scan - sentenceStart }
                scan += 1
            }
            let length = pending.count + (scan - sentenceStart)
            if scan == limit {
                if length <= maximumLength {
                    // The chunk ended mid-sentence: keep the bytes for the next feed.
                    pending.append(contentsOf: UnsafeRawBufferPointer(start: base + sentenceStart, count: count - sentenceStart))
                    statistics.pendingBytes = pending.count
                } else {
                    // Too long already: skip the rest of it up to its line end or the next sentence.
                    statistics.overlongSentences += 1
                    statistics.overlongBytes += abandonSentence(length)
                    discardingOverlong = true
                }
                index = scan
                continue
            }
            switch base[scan] {
            case 0x0A:
                // A whole line: [sentenceStart, scan) plus what was pending, and its line feed.
                if pending.isEmpty {
                    process(UnsafeRawBufferPointer(start: base + sentenceStart, count: scan - sentenceStart), lineLength: length + 1, handler)
                } else {
                    pending.append(contentsOf: UnsafeRawBufferPointer(start: base + sentenceStart, count: scan - sentenceStart))
                    pending.withUnsafeBytes { process($0, lineLength: length + 1, handler) }
                }
                endSentence()
                index = scan + 1
            case 0x24, 0x21:
                // Another sentence starts before this one ended: this one is truncated.
                statistics.truncatedSentences += 1
                statistics.truncatedBytes += abandonSentence(length)
                index = scan
            default:
                // A control or non-ASCII byte (binary data): not a sentence after all. The byte and
                // what follows it up to the next sentence start count as noise.
                statistics.invalidSentences += 1
                statistics.invalidBytes += abandonSentence(length)
                index = scan
            }
        }
    }

    /// Drops the sentence being framed (`length` bytes so far, pending ones included) and returns its
    /// length, for the caller to count under the reason it was dropped.
    private mutating func abandonSentence(_ length: Int) -> Int {
        endSentence()
        return length
    }

    /// Forgets the sentence being framed, once it is handed on or dropped.
    private mutating func endSentence() {
        statistics.pendingBytes = 0
        if !pending.isEmpty { pending.removeAll(keepingCapacity: true) }
        inSentence = false
        carriageReturnOffset = -1
    }

    /// Ends the input: a sentence still waiting for its line end counts as truncated.
    public mutating func finish() {
        if inSentence, !pending.isEmpty {
            statistics.truncatedSentences += 1
            statistics.truncatedBytes += pending.count
        }
        endSentence()
        discardingOverlong = false
    }

    /// Where `bytes` may be cut so that two framers, one over each part (the first one finished),
    /// decode and count exactly what one framer over all of it would: just after the last line feed
    /// (every framer state ends there), or else before the last `$` or `!` past the first byte (the
    /// sentence in progress counts as truncated either way). Nil when there is neither.
    ///
    /// This is what lets pieces of one input be decoded on several threads
    /// (``NMEADecoder/parseSentences(in:maximumSentenceLength:into:)``).
    public static func cutPoint(in bytes: UnsafeRawBufferPointer) -> Int? {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count > 1 else { return nil }
        var index = bytes.count - 1
        var lastStart = -1
        while index >= 0 {
            switch base[index] {
            case 0x0A: return index + 1
            case 0x24, 0x21: if lastStart < 0, index > 0 { lastStart = index }
            default: break
            }
            index -= 1
        }
        return lastStart > 0 ? lastStart : nil
    }

    /// Checks one line (without its LF; every byte printable ASCII but carriage returns) and hands the
    /// sentence on.
    private mutating func process(_ line: UnsafeRawBufferPointer, lineLength: Int, _ handler: SentenceHandler) {
        var length = line.count
        while length > 0, line[length - 1] == 0x0D || line[length - 1] == 0x20 { length -= 1 }  // CR (some receivers send two) and trailing blanks
        // Carriage returns only at the end, then the '*' and the XOR of the bytes between '$' and '*'
        // (the checksum), eight bytes at a time.
        guard length >= 1, carriageReturnOffset < 0 || carriageReturnOffset >= length,
            let start = line.baseAddress?.assumingMemoryBound(to: UInt8.self)
        else {
            reject(invalid: lineLength)
            return
        }
        let starIndex: Int
        let sumAtStar: UInt8
        if length >= 4, start[length &- 3] == 0x2A, let sum = Self.xorChecksum(start, from: 1, toStarAt: length &- 3) {
            // The usual `*hh` at the end, and no other '*' before it.
            starIndex = length &- 3
            sumAtStar = sum
        } else {
            starIndex = Self.find(0x2A, start, from: 1, to: length)
            sumAtStar = Self.xorChecksum(start, from: 1, to: starIndex)
        }
        let star = starIndex < length ? starIndex : -1
        var body = length
        if star >= 0 {
            guard star + 3 == length, let upper = Self.hexValue(line[star + 1]), let lower = Self.hexValue(line[star + 2]),
                sumAtStar == upper << 4 | lower
            else {
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

    /// XOR of `base[from..<to]`, eight bytes at a time.
    @inline(__always)
    static func xorChecksum(_ base: UnsafePointer<UInt8>, from: Int, to: Int) -> UInt8 {
        var sum: UInt64 = 0
        var position = from
        while position + 8 <= to {
            sum ^= UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self)
            position += 8
        }
        sum ^= sum >> 32
        sum ^= sum >> 16
        sum ^= sum >> 8
        var byte = UInt8(truncatingIfNeeded: sum)
        while position < to {
            byte ^= base[position]
            position += 1
        }
        return byte
    }

    /// XOR of `base[from..<star]`, eight bytes at a time, or nil when a `*` is among those bytes (then
    /// the one at `star` is not the first).
    @inline(__always)
    static func xorChecksum(_ base: UnsafePointer<UInt8>, from: Int, toStarAt star: Int) -> UInt8? {
        let ones: UInt64 = 0x0101_0101_0101_0101
        var sum: UInt64 = 0
        var stars: UInt64 = 0
        var position = from
        // Sixteen bytes at a time first: XORed into a vector, '*'s flagged by a compare.
        var wideSum = SIMD16<UInt8>()
        var wideStars = SIMDMask<SIMD16<Int8>>()
        while position &+ 16 <= star {
            let bytes = UnsafeRawPointer(base + position).loadUnaligned(as: SIMD16<UInt8>.self)
            wideSum ^= bytes
            wideStars .|= bytes .== SIMD16(repeating: 0x2A)
            position &+= 16
        }
        let starHalves = unsafeBitCast(wideStars, to: SIMD2<UInt64>.self)
        guard starHalves[0] | starHalves[1] == 0 else { return nil }
        let halves = unsafeBitCast(wideSum, to: SIMD2<UInt64>.self)
        sum = halves[0] ^ halves[1]
        while position &+ 8 <= star {
            let word = UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self)
            sum ^= word
            let starsZero = word ^ (ones &* 0x2A)
            stars |= (starsZero &- ones) & ~starsZero  // 0x80 set in a byte that was '*' (or above one)
            position &+= 8
        }
        guard stars & (ones &* 0x80) == 0 else { return nil }
        sum ^= sum >> 32
        sum ^= sum >> 16
        sum ^= sum >> 8
        var byte = UInt8(truncatingIfNeeded: sum)
        while position < star {
            guard base[position] != 0x2A else { return nil }
            byte ^= base[position]
            position &+= 1
        }
        return byte
    }

    /// The index of the first byte in `base[from..<to]` that cannot be inside a sentence (not printable
    /// ASCII 0x20...0x7E, or a `$` or `!` starting another one), or `to`. Sixteen bytes at a time: a
    /// byte plus 0x5B (wrapping) is, read as a signed byte, at most -39 exactly when the byte is
    /// 0x25...0x7E, so one signed compare flags the bytes below 0x25 and above 0x7E. The last few
    /// bytes eight at a time: the "has less than" and "has more than" word tricks flag the same bytes,
    /// exactly up to the first one (a borrow or carry only reaches higher bytes). Of the flagged bytes,
    /// the printable ` `, `"` and `#` can be in a sentence: the search goes on after them.
    @inline(__always)
    static func firstNonSentenceByte(_ base: UnsafePointer<UInt8>, from: Int, to: Int) -> Int {
        let ones: UInt64 = 0x0101_0101_0101_0101
        var position = from
        while position &+ 16 <= to {
            let bytes = UnsafeRawPointer(base + position).loadUnaligned(as: SIMD16<Int8>.self)
            let flagged = bytes &+ SIMD16<Int8>(repeating: 0x5B) .> SIMD16<Int8>(repeating: -39)
            let halves = unsafeBitCast(flagged, to: SIMD2<UInt64>.self)
            if halves[0] | halves[1] == 0 {
                position &+= 16
                continue
            }
            let lane = halves[0] != 0 ? halves[0].trailingZeroBitCount &>> 3 : 8 &+ halves[1].trailingZeroBitCount &>> 3
            let found = position &+ lane
            let byte = base[found]
            guard byte == 0x20 || byte == 0x22 || byte == 0x23 else { return found }
            position = found &+ 1
        }
        while position &+ 8 <= to {
            let word = UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self)
            let below = (word &- ones &* 0x25) & ~word
            let above = (word &+ ones) | word
            let flags = (below | above) & (ones &* 0x80)
            if flags == 0 {
                position &+= 8
                continue
            }
            let found = position &+ flags.trailingZeroBitCount &>> 3
            let byte = base[found]
            guard byte == 0x20 || byte == 0x22 || byte == 0x23 else { return found }
            position = found &+ 1
        }
        while position < to {
            let byte = base[position]
            if byte < 0x20 || byte > 0x7E || byte == 0x24 || byte == 0x21 { return position }
            position &+= 1
        }
        return to
    }

    /// The index of the first `byte` in `base[from..<to]`, or `to`.
    @inline(__always)
    static func find(_ byte: UInt8, _ base: UnsafePointer<UInt8>, from: Int, to: Int) -> Int {
        guard from < to, let found = memchr(base + from, Int32(byte), to - from) else { return to }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    /// The index of the first `$` or `!` in `base[from..<to]`, or `to`.
    @inline(__always)
    static func firstSentenceStart(_ base: UnsafePointer<UInt8>, from: Int, to: Int) -> Int {
        // Most often the next line starts right away.
        if from < to, base[from] == 0x24 || base[from] == 0x21 { return from }
        let dollar = find(0x24, base, from: from, to: to)
        return find(0x21, base, from: from, to: dollar)
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
