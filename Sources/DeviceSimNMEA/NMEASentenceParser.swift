/// Turns a framed sentence (from ``NMEAFramer``) into an ``NMEASentence``: exact field decoding
/// (`ddmm.mmmm` to degrees, knots to m/s), empty fields as absent, malformed fields counted.
///
/// ```swift
/// var parser = NMEASentenceParser()
/// framer.feed(bytes) { body in
///     if let sentence = parser.parse(body) { ... }
/// }
/// ```
public struct NMEASentenceParser: Sendable {
    /// Fields that could not be read (treated as absent).
    public private(set) var malformedFields = 0
    /// Known sentences with too few fields.
    public private(set) var shortSentences = 0
    /// Well-formed sentences of a type this parser does not interpret.
    public private(set) var unsupportedSentences = 0

    /// At most this many fields of a sentence are read (GSV, the longest supported, has 21).
    static let maximumFields = 64

    /// Scratch space for field boundaries, reused by every sentence (copied before use when shared).
    private var scratch = FieldBounds()

    /// Creates a parser.
    public init() {}

    /// Knots to metres per second.
    public static let metresPerSecondPerKnot = 1852.0 / 3600.0

    /// Decodes one sentence body (`$` up to before `*`); nil for an unsupported or unusable sentence.
    public mutating func parse(_ body: UnsafeRawBufferPointer) -> NMEASentence? {
        var result: NMEASentence?
        parse(body) { result = $0 }
        return result
    }

    /// Parses one sentence body and hands the sentence to `handle` (not called for sentences that are
    /// skipped and counted). The decoder's fast path: the sentence is passed on, not copied out.
    @inline(__always)
    public mutating func parse(_ body: UnsafeRawBufferPointer, _ handle: (NMEASentence) -> Void) {
        guard let base = body.baseAddress?.assumingMemoryBound(to: UInt8.self), body.count >= 6 else { return }
        // Address: $ttSSS (standard) or $P... (proprietary).
        guard base[1] != 0x50 else {  // 'P'
            unsupportedSentences += 1
            return
        }
        let talker = NMEATalker(base[1], base[2])
        let t0 = base[3], t1 = base[4], t2 = base[5]
        guard body.count == 6 || base[6] == 0x2C else {
            unsupportedSentences += 1
            return
        }
        let kind: Kind
        switch (t0, t1, t2) {
        case (0x47, 0x47, 0x41): kind = .gga  // GGA
        case (0x52, 0x4D, 0x43): kind = .rmc  // RMC
        case (0x47, 0x4C, 0x4C): kind = .gll  // GLL
        case (0x56, 0x54, 0x47): kind = .vtg  // VTG
        case (0x47, 0x53, 0x41): kind = .gsa  // GSA
        case (0x47, 0x53, 0x56): kind = .gsv  // GSV
        case (0x5A, 0x44, 0x41): kind = .zda  // ZDA
        case (0x47, 0x53, 0x54): kind = .gst  // GST
        default:
            unsupportedSentences += 1
            return
        }
        if !isKnownUniquelyReferenced(&scratch) { scratch = FieldBounds() }
        let count = Self.split(base, count: body.count, into: scratch.bounds)
        let fields = Fields(base: base, bounds: UnsafePointer(scratch.bounds.baseAddress!), count: count)
        guard fields.count >= kind.minimumFields else {
            shortSentences += 1
            return
        }
        handle(decode(kind, talker: talker, fields: fields))
    }

    private mutating func decode(_ kind: Kind, talker: NMEATalker, fields: Fields) -> NMEASentence {
        var reader = Reader(fields: fields)
        let sentence: NMEASentence
        switch kind {
        case .gga:
            sentence = .gga(.init(
                talker: talker, time: reader.time(1), latitude: reader.coordinate(2, hemisphere: 3, degreeDigits: 2),
                longitude: reader.coordinate(4, hemisphere: 5, degreeDigits: 3), quality: reader.int(6),
                satellitesUsed: reader.int(7), hdop: reader.double(8), altitude: reader.double(9),
                geoidSeparation: reader.double(11)))
        case .rmc:
            let speed = reader.double(7).map { $0 * Self.metresPerSecondPerKnot }
            var variation = reader.double(10)
            if let v = variation, fields.byte(11) == 0x57 { variation = -v }  // W
            sentence = .rmc(.init(
                talker: talker, time: reader.time(1), valid: fields.byte(2) == 0x41,
                latitude: reader.coordinate(3, hemisphere: 4, degreeDigits: 2),
                longitude: reader.coordinate(5, hemisphere: 6, degreeDigits: 3), speed: speed, track: reader.double(8),
                date: reader.date(9), magneticVariation: variation, modeIndicator: fields.byte(12)))
        case .gll:
            sentence = .gll(.init(
                talker: talker, latitude: reader.coordinate(1, hemisphere: 2, degreeDigits: 2),
                longitude: reader.coordinate(3, hemisphere: 4, degreeDigits: 3), time: reader.time(5),
                valid: fields.count > 6 ? fields.byte(6) == 0x41 : true, modeIndicator: fields.byte(7)))
        case .vtg:
            // NMEA 2.x: track,T,magnetic,M,knots,N,kph,K[,mode]; NMEA 1.x: track,magnetic,knots,kph.
            if fields.byte(2) == 0x54 || fields.count > 8 {  // 'T'
                let knots = reader.double(5), kph = reader.double(7)
                sentence = .vtg(.init(
                    talker: talker, track: reader.double(1), magneticTrack: reader.double(3),
                    speed: knots.map { $0 * Self.metresPerSecondPerKnot } ?? kph.map { $0 / 3.6 }, modeIndicator: fields.byte(9)))
            } else {
                sentence = .vtg(.init(
                    talker: talker, track: reader.double(1), magneticTrack: reader.double(2),
                    speed: reader.double(3).map { $0 * Self.metresPerSecondPerKnot }, modeIndicator: nil))
            }
        case .gsa:
            var used: [Int] = []
            used.reserveCapacity(12)
            for index in 3..<min(15, fields.count) {
                if let prn = reader.int(index) { used.append(prn) }
            }
            sentence = .gsa(.init(
                talker: talker, fixType: reader.int(2), satellitesUsed: used, pdop: reader.double(15),
                hdop: reader.double(16), vdop: reader.double(17), systemID: fields.count > 18 ? reader.int(18) : nil))
        case .gsv:
            var satellites: [NMEASatellite] = []
            satellites.reserveCapacity(max(0, (fields.count - 4 + 3) / 4))
            var index = 4
            while index + 3 < fields.count || (index < fields.count && !fields.isEmpty(index)) {
                if let prn = reader.int(index) {
                    satellites.append(NMEASatellite(prn: prn, elevation: reader.double(index + 1), azimuth: reader.double(index + 2), snr: reader.double(index + 3)))
                }
                index += 4
            }
            sentence = .gsv(.init(
                talker: talker, messageCount: reader.int(1) ?? 0, messageNumber: reader.int(2) ?? 0,
                satellitesInView: reader.int(3), satellites: satellites))
        case .zda:
            var date: NMEADate?
            if let day = reader.int(2), let month = reader.int(3), let year = reader.int(4),
                (1...31).contains(day), (1...12).contains(month), year >= 1980
            {
                date = NMEADate(year: year, month: month, day: day)
            }
            sentence = .zda(.init(talker: talker, time: reader.time(1), date: date))
        case .gst:
            sentence = .gst(.init(
                talker: talker, time: reader.time(1), rms: reader.double(2), latitudeError: reader.double(6),
                longitudeError: reader.double(7), altitudeError: reader.double(8)))
        }
        malformedFields += reader.malformed
        return sentence
    }

    /// Writes where each comma-separated field starts and ends (field 0 is the address) as pairs
    /// into `bounds`; returns the number of fields (at most ``maximumFields``). Eight bytes at a time:
    /// an exact mask of the commas in a word (no carries between bytes), one field per set bit.
    private static func split(_ base: UnsafePointer<UInt8>, count: Int, into bounds: UnsafeMutableBufferPointer<Int32>) -> Int {
        let lastField = maximumFields - 1
        var fields = 0
        var start = 1
        var position = 1
        let lows: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        let commas: UInt64 = 0x2C2C_2C2C_2C2C_2C2C
        words: while position + 8 <= count {
            let word = UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self) ^ commas
            var mask = ~(((word & lows) &+ lows) | word | lows)  // 0x80 in each byte that was a comma
            while mask != 0 {
                guard fields < lastField else { break words }
                let index = position + mask.trailingZeroBitCount / 8
                bounds[2 * fields] = Int32(start)
                bounds[2 * fields + 1] = Int32(index)
                fields += 1
                start = index + 1
                mask &= mask &- 1
            }
            position += 8
        }
        while position < count, fields < lastField {
            if base[position] == 0x2C {
                bounds[2 * fields] = Int32(start)
                bounds[2 * fields + 1] = Int32(position)
                fields += 1
                start = position + 1
            }
            position += 1
        }
        bounds[2 * fields] = Int32(start)
        bounds[2 * fields + 1] = Int32(fields == lastField ? start : count)
        return fields + 1
    }

    private enum Kind {
        case gga, rmc, gll, vtg, gsa, gsv, zda, gst

        var minimumFields: Int {
            switch self {
            case .gga: 10
            case .rmc: 10
            case .gll: 5
            case .vtg: 4
            case .gsa: 3
            case .gsv: 4
            case .zda: 5
            case .gst: 9
            }
        }
    }
}

/// Field boundaries of one sentence: `bounds[2i]` and `bounds[2i + 1]` are where field `i` starts and ends.
struct Fields {
    let base: UnsafePointer<UInt8>
    let bounds: UnsafePointer<Int32>
    let count: Int

    @inline(__always) func start(_ index: Int) -> Int { Int(bounds[2 * index]) }
    @inline(__always) func end(_ index: Int) -> Int { Int(bounds[2 * index + 1]) }

    func isEmpty(_ index: Int) -> Bool {
        index >= count || start(index) == end(index)
    }

    /// The first byte of a field, or nil when it is empty.
    func byte(_ index: Int) -> UInt8? {
        guard index < count, end(index) > start(index) else { return nil }
        return base[start(index)]
    }
}

/// Reads typed values out of fields, counting the malformed ones.
struct Reader {
    let fields: Fields
    var malformed = 0

    init(fields: Fields) {
        self.fields = fields
    }


    /// A decimal number as (mantissa, fraction digits, negative); nil if absent; counts malformed.
    /// Inlined into each reader, so the four results stay in registers.
    @inline(__always)
    private mutating func decimal(_ index: Int) -> (mantissa: UInt64, scale: Int, integerDigits: Int, negative: Bool)? {
        guard index < fields.count else { return nil }
        var position = fields.start(index)
        let end = fields.end(index)
        guard position < end else { return nil }
        let base = fields.base
        var negative = false
        if base[position] == 0x2D || base[position] == 0x2B {  // - +
            negative = base[position] == 0x2D
            position += 1
        }
        var mantissa: UInt64 = 0
        if end - position <= 18 {
            // At most 18 digits, so none is dropped: one pass, one comparison per digit, the counts
            // from where the point is.
            var point = -1
            var scan = position
            while scan < end {
                let digit = base[scan] &- 0x30
                if digit < 10 {
                    mantissa = mantissa &* 10 &+ UInt64(digit)
                } else if digit == 0x2E &- 0x30, point < 0 {
                    point = scan
                } else {
                    malformed += 1
                    return nil
                }
                scan += 1
            }
            let integerDigits = point < 0 ? end - position : point - position
            let scale = point < 0 ? 0 : end - point - 1
            guard integerDigits + scale > 0 else {
                malformed += 1
                return nil
            }
            return (mantissa, scale, integerDigits, negative)
        }
        var digits = 0, scale = 0, integerDigits = 0
        var seenPoint = false
        while position < end {
            let byte = base[position]
            if byte >= 0x30, byte <= 0x39 {
                if digits < 18 {
                    mantissa = mantissa * 10 + UInt64(byte - 0x30)
                    digits += 1
                    if seenPoint { scale += 1 } else { integerDigits += 1 }
                } else if !seenPoint {
                    malformed += 1
                    return nil
                }
            } else if byte == 0x2E, !seenPoint {
                seenPoint = true
            } else {
                malformed += 1
                return nil
            }
            position += 1
        }
        guard digits > 0 else {
            malformed += 1
            return nil
        }
        return (mantissa, scale, integerDigits, negative)
    }

    mutating func double(_ index: Int) -> Double? {
        guard let (mantissa, scale, _, negative) = decimal(index) else { return nil }
        let value = Double(mantissa) / exactPowerOfTen(scale)
        return negative ? -value : value
    }

    mutating func int(_ index: Int) -> Int? {
        guard let (mantissa, scale, _, negative) = decimal(index) else { return nil }
        guard scale == 0 || mantissa % UInt64(exactPowerOfTen(scale)) == 0 else {
            malformed += 1
            return nil
        }
        let whole = Int(mantissa / UInt64(exactPowerOfTen(scale)))
        return negative ? -whole : whole
    }

    /// `ddmm.mmmm` (latitude, 2 degree digits) or `dddmm.mmmm` (longitude, 3) with its hemisphere field.
    mutating func coordinate(_ index: Int, hemisphere: Int, degreeDigits: Int) -> Double? {
        guard let (mantissa, scale, _, negative) = decimal(index) else { return nil }
        guard !negative else {
            malformed += 1
            return nil
        }
        let unit = UInt64(exactPowerOfTen(scale))
        // 18 decimals make 100 units overflow; the mantissa, below 10^18, then has no whole degrees.
        let (hundredMinutes, overflow) = unit.multipliedReportingOverflow(by: 100)
        let wholeDegrees = overflow ? 0 : mantissa / hundredMinutes
        let minuteUnits = mantissa - wholeDegrees * hundredMinutes
        let minutes = Double(minuteUnits) / exactPowerOfTen(scale)
        guard minutes < 60, wholeDegrees <= (degreeDigits == 2 ? 90 : 180) else {
            malformed += 1
            return nil
        }
        var degrees = Double(wholeDegrees) + minutes / 60
        switch fields.byte(hemisphere) {
        case 0x53, 0x57: degrees = -degrees  // S, W
        case 0x4E, 0x45: break  // N, E
        case nil: return nil
        default:
            malformed += 1
            return nil
        }
        return degrees
    }

    /// `hhmmss` or `hhmmss.sss`.
    mutating func time(_ index: Int) -> NMEATimeOfDay? {
        guard let (mantissa, scale, integerDigits, negative) = decimal(index) else { return nil }
        let unit = UInt64(exactPowerOfTen(scale))
        let whole = mantissa / unit
        let fraction = mantissa % unit
        let hour = whole / 10_000, minute = whole / 100 % 100, second = whole % 100
        guard !negative, integerDigits == 6, hour < 24, minute < 60, second <= 60 else {
            malformed += 1
            return nil
        }
        let nanos = Int64(Double(fraction) / exactPowerOfTen(scale) * 1e9 + 0.5)
        return NMEATimeOfDay(hour: Int(hour), minute: Int(minute), second: Int(second), nanosecond: Int(nanos))
    }

    /// `ddmmyy`; two-digit years are ``NMEADate/twoDigitYears`` (1980–2079).
    mutating func date(_ index: Int) -> NMEADate? {
        guard let (mantissa, scale, integerDigits, _) = decimal(index) else { return nil }
        let day = Int(mantissa / 10_000), month = Int(mantissa / 100 % 100), yy = Int(mantissa % 100)
        guard scale == 0, integerDigits == 6, (1...31).contains(day), (1...12).contains(month) else {
            malformed += 1
            return nil
        }
        // The pivot of NMEADate.twoDigitYears (its tests hold the two together).
        return NMEADate(year: yy < 80 ? 2000 + yy : 1900 + yy, month: month, day: day)
    }
}

/// Room for the boundaries of ``NMEASentenceParser/maximumFields`` fields, allocated once per parser.
/// A parser copies it before writing when the buffer is shared, so parser values stay independent.
final class FieldBounds: @unchecked Sendable {
    let bounds = UnsafeMutableBufferPointer<Int32>.allocate(capacity: 2 * NMEASentenceParser.maximumFields)

    deinit { bounds.deallocate() }
}
